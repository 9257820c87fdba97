#include "core/base/keyed_map.h"

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

}  // namespace
}  // namespace base
