#include "core/base/containers/key_set.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace base {
namespace {

std::vector<std::string> Walk(const KeySet& s) {
  std::vector<std::string> out;
  for (const std::string& key : s) out.push_back(key);
  return out;
}

TEST(KeySet, WalksInKeyOrderWhateverTheInsertionOrder) {
  KeySet s;
  EXPECT_TRUE(s.insert("default/rc-2"));
  EXPECT_TRUE(s.insert("kube-system/dns"));
  EXPECT_TRUE(s.insert("default/rc-10"));
  EXPECT_TRUE(s.insert("default/rc-1"));
  EXPECT_EQ(Walk(s), (std::vector<std::string>{"default/rc-1", "default/rc-10", "default/rc-2",
                                               "kube-system/dns"}));
}

TEST(KeySet, InsertAndEraseReportWhetherTheyChangedTheSet) {
  KeySet s;
  EXPECT_TRUE(s.insert("a/x"));
  EXPECT_FALSE(s.insert("a/x"));
  EXPECT_EQ(s.size(), 1u);
  EXPECT_EQ(s.count("a/x"), 1u);
  EXPECT_EQ(s.count("a/"), 0u);  // a prefix is not a key
  EXPECT_EQ(s.erase("a/y"), 0u);
  EXPECT_EQ(s.erase("a/x"), 1u);
  EXPECT_TRUE(s.empty());
  EXPECT_TRUE(Walk(s).empty());
}

TEST(KeySet, AWalkAfterAChangeSeesTheChange) {
  KeySet s;
  s.insert("b");
  s.insert("d");
  EXPECT_EQ(Walk(s), (std::vector<std::string>{"b", "d"}));
  s.insert("a");
  s.insert("c");
  EXPECT_EQ(Walk(s), (std::vector<std::string>{"a", "b", "c", "d"}));
  s.erase("b");
  EXPECT_EQ(Walk(s), (std::vector<std::string>{"a", "c", "d"}));
  s.insert("a");  // already there: the view stays as it is
  EXPECT_EQ(Walk(s), (std::vector<std::string>{"a", "c", "d"}));
}

TEST(KeySet, CopiesAndMovesWalkTheirOwnKeys) {
  KeySet s;
  s.insert("x");
  s.insert("w");
  EXPECT_EQ(Walk(s), (std::vector<std::string>{"w", "x"}));  // builds the view
  KeySet copy = s;
  s.erase("w");
  EXPECT_EQ(Walk(copy), (std::vector<std::string>{"w", "x"}));
  EXPECT_EQ(Walk(s), (std::vector<std::string>{"x"}));
  KeySet moved = std::move(copy);
  EXPECT_EQ(Walk(moved), (std::vector<std::string>{"w", "x"}));
  moved.insert("v");
  EXPECT_EQ(Walk(moved), (std::vector<std::string>{"v", "w", "x"}));
  copy = s;  // a moved-from set can be assigned again
  EXPECT_EQ(Walk(copy), (std::vector<std::string>{"x"}));
}

TEST(KeySet, ManyKeysWalkSorted) {
  KeySet s;
  std::vector<std::string> expected;
  for (int i = 999; i >= 0; --i) {
    const std::string key = "default/rc-" + std::to_string(i * 7919 % 1000);
    s.insert(key);
    expected.push_back(key);
  }
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(Walk(s), expected);
}

TEST(KeySet, AgreesWithAStdSetThroughRandomInsertsAndErases) {
  // Erasing shifts later entries of a probe run back (probe_hole.h), across the table's end too:
  // every key must stay findable, and none may come back.
  KeySet s;
  std::set<std::string> reference;
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  for (int round = 0; round < 20000; ++round) {
    const std::string key = "default/pod-" + std::to_string(next() % 300);
    if (next() % 3 == 0) {
      EXPECT_EQ(s.erase(key), reference.erase(key)) << key;
    } else {
      EXPECT_EQ(s.insert(key), reference.insert(key).second) << key;
    }
    if (round % 1000 == 0) {
      ASSERT_EQ(s.size(), reference.size());
      for (int i = 0; i < 300; ++i) {
        const std::string probe = "default/pod-" + std::to_string(i);
        ASSERT_EQ(s.count(probe), reference.count(probe)) << probe;
      }
    }
  }
  EXPECT_EQ(Walk(s), std::vector<std::string>(reference.begin(), reference.end()));
}

TEST(KeySet, SetsHoldingOneKeyShareOneCopyWhileAnyHoldsIt) {
  const size_t before = key_pool::Size();
  const std::string key = "default/rc-0042-workers-worker-x7k2p";
  {
    KeySet by_label;
    KeySet by_namespace;
    by_label.insert(key);
    by_namespace.insert(key);
    EXPECT_EQ(key_pool::Size(), before + 1);
    EXPECT_EQ(&*by_label.begin(), &*by_namespace.begin()) << "one pooled copy";
    KeySet copy = by_label;
    by_label.erase(key);
    by_namespace.erase(key);
    EXPECT_EQ(key_pool::Size(), before + 1) << "the copy still holds it";
    EXPECT_EQ(Walk(copy), (std::vector<std::string>{key}));
  }
  EXPECT_EQ(key_pool::Size(), before) << "freed with the last set holding it";
}

TEST(KeySet, AMovedSetKeepsItsReferencesAndClearReleasesThem) {
  const size_t before = key_pool::Size();
  KeySet s;
  s.insert("default/a");
  s.insert("default/b");
  KeySet moved = std::move(s);
  EXPECT_EQ(key_pool::Size(), before + 2);
  EXPECT_EQ(Walk(moved), (std::vector<std::string>{"default/a", "default/b"}));
  moved = KeySet();
  EXPECT_EQ(key_pool::Size(), before);
  EXPECT_TRUE(moved.empty());
}

}  // namespace
}  // namespace base
