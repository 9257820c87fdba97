#include "core/base/containers/string_hash.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace base {
namespace {

TEST(HashText, EqualTextHashesEquallyWhereverItLives) {
  const std::string a = "default/rc-0042-workers-worker-x7k2p";
  const std::string b(a.begin(), a.end());
  EXPECT_EQ(HashText(a), HashText(b));
  EXPECT_EQ(HashText(a), HashText(std::string_view(a)));
  EXPECT_EQ(TextHash()(a), HashText(a));
}

// Every length takes its own path (0, 1-3, 4-7, 8, longer with an overlapping last word): a
// change of any single byte, or of the length, changes the hash.
TEST(HashText, EveryByteAndTheLengthCount) {
  const std::string text = "kuberay-operator-6f748b9d77-vq92t/pod-informer/default/rc-0-head";
  std::set<size_t> prefixes;
  for (size_t n = 0; n <= text.size(); ++n) {
    const std::string_view prefix(text.data(), n);
    EXPECT_TRUE(prefixes.insert(HashText(prefix)).second) << "length " << n;
    for (size_t i = 0; i < n; ++i) {
      std::string changed(prefix);
      changed[i] = static_cast<char>(changed[i] ^ 0x20);
      EXPECT_NE(HashText(changed), HashText(prefix)) << "length " << n << ", byte " << i;
    }
  }
  EXPECT_NE(HashText(std::string_view("\0", 1)), HashText(std::string_view()));
}

// Open-addressing tables use the low bits: keys that differ only near their end (as the
// generated suffixes of Pod names do) must still spread over the buckets.
TEST(HashText, LowBitsSpreadKeysThatShareLongPrefixes) {
  constexpr size_t kBuckets = 1024;
  constexpr size_t kKeys = 16 * kBuckets;
  std::vector<size_t> load(kBuckets);
  for (size_t i = 0; i < kKeys; ++i) {
    const std::string key = "default/rc-" + std::to_string(i / 11) + "-workers-worker-" +
                            std::to_string(i % 11);
    ++load[HashText(key) & (kBuckets - 1)];
  }
  const size_t fullest = *std::max_element(load.begin(), load.end());
  const size_t emptiest = *std::min_element(load.begin(), load.end());
  EXPECT_LT(fullest, 40u) << "mean 16";
  EXPECT_GT(emptiest, 0u);
}

}  // namespace
}  // namespace base
