#include "core/informer/backoff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace informer {
namespace {

using base::kMillisecond;
using base::kMinute;
using base::kSecond;

TEST(ExponentialBackoffManager, DoublesFrom800msAndCapsAt30sWithoutJitter) {
  ExponentialBackoffManager backoff(0, nullptr);
  std::vector<base::Duration> waits;
  base::SimTime now = 0;
  for (int i = 0; i < 8; ++i) {
    waits.push_back(backoff.Next(now));
    now += waits.back();
  }
  EXPECT_EQ(waits,
            (std::vector<base::Duration>{
                800 * kMillisecond, 1600 * kMillisecond, 3200 * kMillisecond, 6400 * kMillisecond,
                12800 * kMillisecond, 25600 * kMillisecond, 30 * kSecond, 30 * kSecond}));
}

TEST(ExponentialBackoffManager, StartsOverAfterMoreThanTwoMinutesWithoutABackoff) {
  ExponentialBackoffManager backoff(0, nullptr);
  backoff.Next(0);
  backoff.Next(kSecond);
  EXPECT_EQ(backoff.current(), 3200 * kMillisecond);
  EXPECT_EQ(backoff.Next(kSecond + 2 * kMinute), 3200 * kMillisecond)
      << "exactly two minutes is not more than two minutes";
  EXPECT_EQ(backoff.Next(kSecond + 4 * kMinute + 1), 800 * kMillisecond);
}

TEST(ExponentialBackoffManager, TheResetWindowStartsAtCreation) {
  ExponentialBackoffManager backoff(10 * kMinute, nullptr);
  EXPECT_EQ(backoff.Next(10 * kMinute), 800 * kMillisecond);
}

TEST(ExponentialBackoffManager, JitterAddsUpToOneHundredPercentDeterministically) {
  sim::Prng prng_a(7);
  sim::Prng prng_b(7);
  ExponentialBackoffManager a(0, &prng_a);
  ExponentialBackoffManager b(0, &prng_b);
  base::Duration base_wait = 800 * kMillisecond;
  for (int i = 0; i < 10; ++i) {
    const base::Duration wait = a.Next(0);
    EXPECT_GE(wait, base_wait);
    EXPECT_LT(wait, 2 * base_wait);
    EXPECT_EQ(wait, b.Next(0)) << "same seed, same waits";
    base_wait = std::min<base::Duration>(base_wait * 2, 30 * kSecond);
  }
}

}  // namespace
}  // namespace informer
