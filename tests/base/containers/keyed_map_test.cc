#include "core/base/containers/keyed_map.h"

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace base {
namespace {

std::vector<std::string> Keys(const KeyedMap<int>& m) {
  std::vector<std::string> out;
  for (const auto& [key, value] : m) out.push_back(key);
  return out;
}

TEST(KeyOrder, IsStdStringOrder) {
  // Prefixes, bytes above 0x7f (unsigned), embedded NULs, and differences in every position of
  // an eight-byte word and its tail.
  std::vector<std::string> keys = {"", "a", "ab", "b", "default/", "default/rc-0001-worker-x",
                                   "default/rc-0001-worker-y", "default/rc-0001-worker",
                                   "default/rc-0002", std::string("a\0b", 3),
                                   std::string("a\0", 2), "\x80", "\x7f", "z\xff", "z\x01"};
  for (int len = 1; len <= 20; ++len) {
    for (int at = 0; at < len; ++at) {
      std::string k(static_cast<size_t>(len), 'k');
      k[static_cast<size_t>(at)] = static_cast<char>(at % 2 == 0 ? 0x90 : 0x10);
      keys.push_back(k);
    }
  }
  const KeyOrder less;
  for (const std::string& a : keys) {
    for (const std::string& b : keys) {
      EXPECT_EQ(less(a, b), a < b) << "\"" << a << "\" vs \"" << b << "\"";
    }
  }
}

TEST(KeyedMap, IteratesInKeyOrderWhateverTheInsertionOrder) {
  KeyedMap<int> m;
  m["default/rc-2"] = 2;
  m["default/rc-10"] = 10;
  m["kube-system/dns"] = 0;
  m["default/rc-1"] = 1;
  EXPECT_EQ(Keys(m),
            (std::vector<std::string>{"default/rc-1", "default/rc-10", "default/rc-2",
                                      "kube-system/dns"}));
  EXPECT_EQ(m.lower_bound("default/rc-2")->first, "default/rc-2");
  EXPECT_EQ(m.lower_bound("kube")->first, "kube-system/dns");
}

TEST(KeyedMap, FindsOnlyExactKeysAndSeesUpdatesInPlace) {
  KeyedMap<int> m;
  m["a/x"] = 1;
  EXPECT_EQ(m.find("a/"), m.end());  // a prefix is not a key
  EXPECT_EQ(m.count("a/x"), 1u);
  auto [it, inserted] = m.try_emplace("a/x", 5);
  EXPECT_FALSE(inserted);  // an existing key keeps its value, as std::map::try_emplace does
  EXPECT_EQ(it->second, 1);
  m.find("a/x")->second = 7;
  EXPECT_EQ(m.begin()->second, 7);  // the ordered walk sees the value written through find
}

TEST(KeyedMap, AtReadsAndWritesThePresentValue) {
  KeyedMap<int> m;
  m["uid-1"] = 1;
  m.at("uid-1") = 5;
  const KeyedMap<int>& view = m;
  EXPECT_EQ(view.at("uid-1"), 5);
  EXPECT_DEATH(m.at("uid-2"), "absent key");
}

TEST(KeyedMap, ErasedKeysLeaveBothTheOrderAndTheIndex) {
  KeyedMap<int> m;
  for (int i = 0; i < 100; ++i) m[std::to_string(i)] = i;
  EXPECT_EQ(m.erase("50"), 1u);
  EXPECT_EQ(m.erase("50"), 0u);
  m.erase(m.find("7"));
  EXPECT_EQ(m.size(), 98u);
  EXPECT_EQ(m.find("50"), m.end());
  EXPECT_EQ(m.find("7"), m.end());
  EXPECT_EQ(m.find("51")->second, 51);
  m["50"] = -50;  // a key can come back after it was erased
  EXPECT_EQ(m.find("50")->second, -50);
  m.clear();
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(m.find("51"), m.end());
}

TEST(KeyedMap, AMovedMapStillFindsItsKeys) {
  KeyedMap<int> fresh;
  fresh["b"] = 2;
  fresh["a"] = 1;
  KeyedMap<int> m;
  m["old"] = 0;
  m = std::move(fresh);
  EXPECT_EQ(m.find("old"), m.end());
  EXPECT_EQ(m.find("a")->second, 1);
  EXPECT_EQ(m.find("b")->second, 2);
  m.erase("a");  // the index still views the moved map's own keys
  EXPECT_EQ(Keys(m), std::vector<std::string>{"b"});
  KeyedMap<int> moved(std::move(m));
  EXPECT_EQ(moved.find("b")->second, 2);
}

// A model check: random inserts, erases (by key, by iterator, during walks), lookups, full and
// partial walks and moves, against std::map. Keys share long prefixes, as object keys do; the
// operations come in bursts so that both ways of merging new keys run (a few into many, and
// many at once), and erased keys come back while their dead nodes still wait to be dropped.
TEST(KeyedMap, BehavesAsAStdMapUnderRandomOperations) {
  std::mt19937 rng(7);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  auto key = [&] {
    return "default/rc-" + std::to_string(pick(3)) + "-worker-" + std::to_string(pick(400));
  };
  KeyedMap<int> m;
  std::map<std::string, int> model;
  auto check_walk = [&] {
    std::vector<std::pair<std::string, int>> got;
    for (const auto& [k, v] : m) got.emplace_back(k, v);
    const std::vector<std::pair<std::string, int>> want(model.begin(), model.end());
    ASSERT_EQ(got, want);
  };
  for (int round = 0; round < 300; ++round) {
    const int burst = round % 7 == 0 ? 200 : 1 + pick(6);
    for (int i = 0; i < burst; ++i) {
      const std::string k = key();
      switch (pick(4)) {
        case 0:
        case 1: {
          const int v = pick(1000);
          const bool inserted = m.try_emplace(k, v).second;
          EXPECT_EQ(inserted, model.try_emplace(k, v).second) << k;
          break;
        }
        case 2:
          EXPECT_EQ(m.erase(k), model.erase(k)) << k;
          break;
        default:
          if (auto it = m.find(k); it != m.end()) {
            EXPECT_EQ(it->second, model.at(k));
            m.erase(it);
            model.erase(k);
          } else {
            EXPECT_EQ(model.count(k), 0u) << k;
          }
      }
    }
    ASSERT_EQ(m.size(), model.size());
    switch (pick(5)) {
      case 0:
        check_walk();
        break;
      case 1: {  // a partial walk from a key, as the API server lists a prefix
        const std::string from = key();
        auto it = m.lower_bound(from);
        auto want = model.lower_bound(from);
        for (int n = 0; n < 20 && want != model.end(); ++n, ++it, ++want) {
          ASSERT_NE(it, m.end());
          EXPECT_EQ(it->first, want->first);
        }
        if (want == model.end()) {
          EXPECT_EQ(it, m.end());
        }
        break;
      }
      case 2: {  // during a walk, erase the entry just visited and one not reached yet
        std::vector<std::string> visited;
        for (auto it = m.begin(); it != m.end(); ++it) {
          visited.push_back(it->first);
          if (visited.size() % 3 == 1) {
            if (auto ahead = model.upper_bound(it->first); ahead != model.end()) {
              EXPECT_EQ(m.erase(ahead->first), 1u);
              model.erase(ahead);
            }
          } else if (visited.size() % 3 == 2) {
            model.erase(it->first);
            m.erase(it);
            visited.pop_back();
          }
        }
        std::vector<std::string> want;
        for (const auto& entry : model) want.push_back(entry.first);
        EXPECT_EQ(visited, want);
        check_walk();
        break;
      }
      case 3: {  // advancing an iterator that came from a lookup
        if (model.empty()) break;
        auto want = model.begin();
        std::advance(want, pick(static_cast<int>(model.size())));
        auto it = m.find(want->first);
        ++it;
        ++want;
        if (want == model.end()) {
          EXPECT_EQ(it, m.end());
        } else {
          EXPECT_EQ(it->first, want->first);
        }
        break;
      }
      default: {
        KeyedMap<int> moved(std::move(m));
        EXPECT_TRUE(m.empty());  // NOLINT(bugprone-use-after-move): a moved map is empty
        m = std::move(moved);
      }
    }
  }
  check_walk();
  for (const auto& [k, v] : model) EXPECT_EQ(m.find(k)->second, v);
}

TEST(KeyedMap, AnErasedEntryReleasesItsValueAtOnce) {
  // Erasing from the sorted part keeps the node until the next walk; what it held must not
  // wait for that (a cache's stale object would stay alive).
  KeyedMap<std::shared_ptr<int>> m;
  auto held = std::make_shared<int>(1);
  m["a"] = held;
  m["b"] = std::make_shared<int>(2);
  EXPECT_EQ(m.begin()->first, "a");  // sorts both
  EXPECT_EQ(held.use_count(), 2);
  m.erase("a");
  EXPECT_EQ(held.use_count(), 1);
  EXPECT_EQ(m.begin()->first, "b");
}

}  // namespace
}  // namespace base
