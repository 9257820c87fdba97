#include "core/base/containers/string_index.h"

#include <map>
#include <random>
#include <string>
#include <utility>

#include <gtest/gtest.h>

namespace base {
namespace {

using Map = std::map<std::string, int>;

TEST(StringIndex, FindsWhatWasFiledAndNothingElse) {
  Map owner{{"default/rc-1", 1}, {"default/rc-2", 2}};
  StringIndex<Map::iterator> index;
  EXPECT_EQ(index.find("default/rc-1"), nullptr);  // empty: no table yet
  for (auto it = owner.begin(); it != owner.end(); ++it) index.insert(it);
  ASSERT_NE(index.find("default/rc-2"), nullptr);
  EXPECT_EQ((*index.find("default/rc-2"))->second, 2);
  EXPECT_EQ(index.find("default/rc-"), nullptr);
  EXPECT_EQ(index.find(""), nullptr);
  EXPECT_FALSE(index.erase("default/rc-3"));
  EXPECT_TRUE(index.erase("default/rc-1"));
  EXPECT_FALSE(index.erase("default/rc-1"));
  EXPECT_EQ(index.find("default/rc-1"), nullptr);
  EXPECT_EQ(index.size(), 1u);
}

// Random inserts and erases over a small universe of keys, checked after every step against the
// owner map: long probe runs that wrap around the end of the table and erasures in the middle of
// a run (the backward shift) are exercised many times.
TEST(StringIndex, AgreesWithItsOwnerThroughRandomInsertsAndErases) {
  Map owner;
  StringIndex<Map::iterator> index;
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pick(0, 199);
  for (int step = 0; step < 20000; ++step) {
    const std::string key = "default/rc-" + std::to_string(pick(rng)) + "-worker";
    auto found = owner.find(key);
    if (found == owner.end()) {
      index.insert(owner.emplace(key, step).first);
    } else {
      ASSERT_TRUE(index.erase(key));
      owner.erase(found);
    }
    ASSERT_EQ(index.size(), owner.size());
    if (step % 97 == 0) {
      for (int k = 0; k < 200; ++k) {
        const std::string probe = "default/rc-" + std::to_string(k) + "-worker";
        auto in_owner = owner.find(probe);
        const Map::iterator* in_index = index.find(probe);
        ASSERT_EQ(in_index != nullptr, in_owner != owner.end()) << probe << " at step " << step;
        if (in_index != nullptr) {
          EXPECT_EQ(*in_index, in_owner);
        }
      }
    }
  }
}

TEST(StringIndex, AMovedIndexKeepsItsEntriesAndLeavesAnEmptyOne) {
  Map owner{{"a", 1}, {"b", 2}};
  StringIndex<Map::iterator> index;
  for (auto it = owner.begin(); it != owner.end(); ++it) index.insert(it);
  StringIndex<Map::iterator> moved(std::move(index));
  EXPECT_NE(moved.find("a"), nullptr);
  EXPECT_EQ(moved.size(), 2u);
  EXPECT_EQ(index.size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is specified empty
  EXPECT_EQ(index.find("a"), nullptr);
  index.insert(owner.find("a"));
  EXPECT_NE(index.find("a"), nullptr);
}

}  // namespace
}  // namespace base
