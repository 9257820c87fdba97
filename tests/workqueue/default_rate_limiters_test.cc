#include "core/workqueue/default_rate_limiters.h"

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/sim/clock.h"

namespace workqueue {
namespace {

using base::kMillisecond;
using base::kSecond;

TEST(ItemExponentialFailureRateLimiter, DoublesFrom5msAndCapsAt1000sFromThe19thCall) {
  // client-go default_rate_limiters_test.go numbers: 5ms * 2^(n-1), 655.36s on call 18.
  struct Row {
    int call;
    base::Duration want;
  };
  const std::vector<Row> rows = {
      {1, 5 * kMillisecond},       {2, 10 * kMillisecond},      {3, 20 * kMillisecond},
      {4, 40 * kMillisecond},      {5, 80 * kMillisecond},      {10, 2560 * kMillisecond},
      {17, 327680 * kMillisecond}, {18, 655360 * kMillisecond}, {19, 1000 * kSecond},
      {20, 1000 * kSecond},        {40, 1000 * kSecond},
  };
  ItemExponentialFailureRateLimiter limiter(5 * kMillisecond, 1000 * kSecond);
  int call = 0;
  for (const Row& row : rows) {
    base::Duration got = 0;
    while (call < row.call) {
      got = limiter.When("default/one");
      ++call;
    }
    EXPECT_EQ(got, row.want) << "call " << row.call;
    EXPECT_EQ(limiter.NumRequeues("default/one"), row.call) << "the count grows past the cap";
  }
}

TEST(ItemExponentialFailureRateLimiter, ForgetRestartsTheSequence) {
  ItemExponentialFailureRateLimiter limiter(5 * kMillisecond, 1000 * kSecond);
  limiter.When("default/a");
  limiter.When("default/a");
  EXPECT_EQ(limiter.When("default/a"), 20 * kMillisecond);
  limiter.Forget("default/a");
  EXPECT_EQ(limiter.NumRequeues("default/a"), 0);
  EXPECT_EQ(limiter.When("default/a"), 5 * kMillisecond);
  EXPECT_EQ(limiter.NumRequeues("default/a"), 1);
}

TEST(ItemExponentialFailureRateLimiter, ItemsBackOffIndependently) {
  ItemExponentialFailureRateLimiter limiter(5 * kMillisecond, 1000 * kSecond);
  limiter.When("default/a");
  limiter.When("default/a");
  EXPECT_EQ(limiter.When("default/b"), 5 * kMillisecond);
  EXPECT_EQ(limiter.NumRequeues("default/a"), 2);
  EXPECT_EQ(limiter.NumRequeues("default/b"), 1);
}

TEST(ItemExponentialFailureRateLimiter, OverflowGuardReturnsMaxInsteadOfWrapping) {
  // base 1s = 1e9ns; 1e9 * 2^33 fits in int64 nanoseconds, 1e9 * 2^34 does not.
  const base::Duration max = std::numeric_limits<int64_t>::max();
  ItemExponentialFailureRateLimiter limiter(kSecond, max);
  base::Duration got = 0;
  for (int call = 1; call <= 34; ++call) got = limiter.When("x");
  EXPECT_EQ(got, kSecond << 33);
  EXPECT_EQ(limiter.When("x"), max);  // call 35
  for (int call = 36; call <= 100; ++call) EXPECT_EQ(limiter.When("x"), max);
}

TEST(ItemExponentialFailureRateLimiter, DefaultItemBasedStartsAt1ms) {
  auto limiter = DefaultItemBasedRateLimiter();
  EXPECT_EQ(limiter->When("x"), kMillisecond);
  EXPECT_EQ(limiter->When("x"), 2 * kMillisecond);
  EXPECT_EQ(limiter->When("x"), 4 * kMillisecond);
}

TEST(ItemFastSlowRateLimiter, FastForMaxFastAttemptsThenSlow) {
  ItemFastSlowRateLimiter limiter(5 * kMillisecond, 10 * kSecond, 3);
  const std::vector<base::Duration> want = {5 * kMillisecond, 5 * kMillisecond, 5 * kMillisecond,
                                            10 * kSecond, 10 * kSecond};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(limiter.When("x"), want[i]) << "call " << i + 1;
    EXPECT_EQ(limiter.NumRequeues("x"), static_cast<int>(i + 1));
  }
  limiter.Forget("x");
  EXPECT_EQ(limiter.NumRequeues("x"), 0);
  EXPECT_EQ(limiter.When("x"), 5 * kMillisecond);
}

TEST(BucketRateLimiter, HundredCallsAtOneInstantAreFreeThenEachWaits100msMore) {
  sim::Clock clock;
  BucketRateLimiter bucket(clock, 10, 100);
  for (int call = 1; call <= 100; ++call) {
    EXPECT_EQ(bucket.When("item-" + std::to_string(call)), 0) << "call " << call;
  }
  EXPECT_EQ(bucket.When("a"), 100 * kMillisecond);  // call 101
  EXPECT_EQ(bucket.When("a"), 200 * kMillisecond);  // call 102
  EXPECT_EQ(bucket.When("b"), 300 * kMillisecond);  // the item does not matter
  EXPECT_EQ(bucket.NumRequeues("a"), 0);
  bucket.Forget("a");
  EXPECT_EQ(bucket.When("a"), 400 * kMillisecond);  // Forget does nothing
}

TEST(BucketRateLimiter, RefillsAtQpsFromItsDebt) {
  sim::Clock clock;
  BucketRateLimiter bucket(clock, 10, 100);
  for (int call = 1; call <= 101; ++call) bucket.When("x");  // one token of debt
  clock.AdvanceTo(kSecond);                                  // +10 tokens -> 9
  for (int call = 1; call <= 9; ++call) EXPECT_EQ(bucket.When("x"), 0) << "call " << call;
  EXPECT_EQ(bucket.When("x"), 100 * kMillisecond);
}

TEST(BucketRateLimiter, NeverHoldsMoreThanBurst) {
  sim::Clock clock;
  BucketRateLimiter bucket(clock, 10, 100);
  bucket.When("x");
  clock.AdvanceTo(1000 * kSecond);
  for (int call = 1; call <= 100; ++call) EXPECT_EQ(bucket.When("x"), 0);
  EXPECT_EQ(bucket.When("x"), 100 * kMillisecond);
}

TEST(BucketRateLimiter, RoundsAWaitUpToAWholeMicrosecond) {
  // 3 qps: a token takes 333333.33µs; x/time/rate truncates to 333333333ns, we round up.
  sim::Clock clock;
  BucketRateLimiter bucket(clock, 3, 1);
  EXPECT_EQ(bucket.When("x"), 0);
  EXPECT_EQ(bucket.When("x"), 333334);
  EXPECT_EQ(bucket.When("x"), 666667);
  clock.AdvanceTo(1);  // 1µs refills 3 millionths of a token: the state keeps them exactly
  EXPECT_EQ(bucket.tokens_units(), -2 * BucketRateLimiter::kUnitsPerToken);
  EXPECT_EQ(bucket.When("x"), 999999);
}

// CountingLimiter returns a fixed delay and counts calls, to see MaxOf asking everyone.
class CountingLimiter final : public RateLimiter {
 public:
  CountingLimiter(base::Duration delay, int requeues, int* when_calls, int* forget_calls)
      : delay_(delay), requeues_(requeues), when_calls_(when_calls), forget_calls_(forget_calls) {}
  base::Duration When(const std::string&) override {
    ++*when_calls_;
    return delay_;
  }
  void Forget(const std::string&) override { ++*forget_calls_; }
  int NumRequeues(const std::string&) const override { return requeues_; }

 private:
  base::Duration delay_;
  int requeues_;
  int* when_calls_;
  int* forget_calls_;
};

TEST(MaxOfRateLimiter, AsksEveryLimiterAndReturnsTheLongestWait) {
  int when_a = 0, when_b = 0, when_c = 0, forget_a = 0, forget_b = 0, forget_c = 0;
  std::vector<std::unique_ptr<RateLimiter>> limiters;
  limiters.push_back(std::make_unique<CountingLimiter>(3 * kSecond, 1, &when_a, &forget_a));
  limiters.push_back(std::make_unique<CountingLimiter>(7 * kSecond, 4, &when_b, &forget_b));
  limiters.push_back(std::make_unique<CountingLimiter>(2 * kSecond, 2, &when_c, &forget_c));
  MaxOfRateLimiter max_of(std::move(limiters));
  EXPECT_EQ(max_of.When("x"), 7 * kSecond);
  EXPECT_EQ(max_of.When("x"), 7 * kSecond);
  EXPECT_EQ(when_a, 2);
  EXPECT_EQ(when_b, 2);
  EXPECT_EQ(when_c, 2);
  EXPECT_EQ(max_of.NumRequeues("x"), 4);
  max_of.Forget("x");
  EXPECT_EQ(forget_a + forget_b + forget_c, 3);
}

TEST(MaxOfRateLimiter, DefaultControllerLimiterCombinesBackoffAndBucket) {
  sim::Clock clock;
  auto limiter = DefaultControllerRateLimiter(clock);
  // One item: the exponential part wins while the bucket has tokens.
  EXPECT_EQ(limiter->When("default/one"), 5 * kMillisecond);
  EXPECT_EQ(limiter->When("default/one"), 10 * kMillisecond);
  EXPECT_EQ(limiter->NumRequeues("default/one"), 2);
  // 98 more first failures use up the burst of 100 at this instant...
  for (int i = 0; i < 98; ++i) {
    EXPECT_EQ(limiter->When("default/item-" + std::to_string(i)), 5 * kMillisecond);
  }
  // ...so the 101st call of the instant waits 100ms for a token, even on a first failure.
  EXPECT_EQ(limiter->When("default/late"), 100 * kMillisecond);
  limiter->Forget("default/one");
  EXPECT_EQ(limiter->NumRequeues("default/one"), 0);
}

TEST(WithMaxWaitRateLimiter, CapsTheInnerDelayButKeepsItsCount) {
  WithMaxWaitRateLimiter capped(
      std::make_unique<ItemExponentialFailureRateLimiter>(kSecond, 1000 * kSecond), 3 * kSecond);
  EXPECT_EQ(capped.When("x"), kSecond);
  EXPECT_EQ(capped.When("x"), 2 * kSecond);
  EXPECT_EQ(capped.When("x"), 3 * kSecond);  // 4s capped
  EXPECT_EQ(capped.NumRequeues("x"), 3);
  capped.Forget("x");
  EXPECT_EQ(capped.NumRequeues("x"), 0);
}

}  // namespace
}  // namespace workqueue
