#pragma once
// RateLimiter: how long to wait before an item is retried, as small strategies that compose
// (per-item exponential, per-item fast/slow, a token bucket, max-of, a cap).
// Mirrors: client-go util/workqueue/default_rate_limiters.go, and for the bucket
// golang.org/x/time/rate (Limiter.Reserve().Delay()).
// Simplified: items are strings; the exponential backoff is an integer shift with saturation
// (upstream multiplies floats); the bucket counts tokens exactly in integers on the virtual clock.
// Single-threaded; the bucket reads time only from sim::Clock; no floats.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/time.h"
#include "core/sim/clock.h"

namespace workqueue {

// RateLimiter decides retry delays. mirrors default_rate_limiters.go TypedRateLimiter
class RateLimiter {
 public:
  virtual ~RateLimiter() = default;
  // When returns how long item should wait now; per-item limiters count a failure.
  virtual base::Duration When(const std::string& item) = 0;
  // Forget clears item's history (the controller calls it after a success); it does not touch
  // any queue.
  virtual void Forget(const std::string& item) = 0;
  // NumRequeues is the number of failures item has had.
  virtual int NumRequeues(const std::string& item) const = 0;
};

// ItemExponentialFailureRateLimiter waits base * 2^failures, capped at max: base for the first
// failure, then 2x each time. The count keeps growing after the cap.
// mirrors default_rate_limiters.go TypedItemExponentialFailureRateLimiter
class ItemExponentialFailureRateLimiter final : public RateLimiter {
 public:
  ItemExponentialFailureRateLimiter(base::Duration base_delay, base::Duration max_delay);
  base::Duration When(const std::string& item) override;
  void Forget(const std::string& item) override;
  int NumRequeues(const std::string& item) const override;

 private:
  const base::Duration base_delay_;
  const base::Duration max_delay_;
  std::unordered_map<std::string, int> failures_;  // Invariant: every value >= 1.
};

// ItemFastSlowRateLimiter waits `fast` for the first max_fast_attempts failures, then `slow`.
// mirrors default_rate_limiters.go TypedItemFastSlowRateLimiter
class ItemFastSlowRateLimiter final : public RateLimiter {
 public:
  ItemFastSlowRateLimiter(base::Duration fast_delay, base::Duration slow_delay,
                          int max_fast_attempts);
  base::Duration When(const std::string& item) override;
  void Forget(const std::string& item) override;
  int NumRequeues(const std::string& item) const override;

 private:
  const base::Duration fast_delay_;
  const base::Duration slow_delay_;
  const int max_fast_attempts_;
  std::unordered_map<std::string, int> failures_;
};

// BucketRateLimiter is an overall token bucket: `burst` tokens, refilled at `qps` per second.
// Every When consumes one token, whatever the item, and waits until that token exists; the
// bucket goes into debt, so calls at one instant wait 0, ..., 0, 1/qps, 2/qps, ...
// NumRequeues is always 0 and Forget does nothing.
// mirrors default_rate_limiters.go TypedBucketRateLimiter over x/time/rate Limiter.reserveN
// Teaching: tokens are counted in millionths (one token = 1'000'000 units; one microsecond adds
// qps units), so there is no rounding in the state. A wait is rounded UP to a whole microsecond
// (x/time/rate truncates to a nanosecond); with qps dividing 1'000'000 the two agree exactly.
// Upstream reads the wall clock; this one reads the virtual clock.
class BucketRateLimiter final : public RateLimiter {
 public:
  static constexpr int64_t kUnitsPerToken = 1000000;

  // REQUIRES: qps >= 1, burst >= 1. clock must outlive this object.
  BucketRateLimiter(const sim::Clock& clock, int64_t qps, int64_t burst);
  base::Duration When(const std::string& item) override;
  void Forget(const std::string& item) override;
  int NumRequeues(const std::string& item) const override;

  // tokens_units is the bucket level in millionths of a token at the last reservation
  // (negative while in debt).
  int64_t tokens_units() const { return tokens_units_; }

 private:
  const sim::Clock& clock_;
  const int64_t qps_;
  const int64_t burst_;
  int64_t tokens_units_;    // Invariant: <= burst_ * kUnitsPerToken.
  base::SimTime last_ = 0;  // time of the last reservation
};

// MaxOfRateLimiter asks every limiter (each updates its own state) and returns the longest wait.
// NumRequeues is the maximum; Forget forgets in all.
// mirrors default_rate_limiters.go TypedMaxOfRateLimiter
class MaxOfRateLimiter final : public RateLimiter {
 public:
  explicit MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters);
  base::Duration When(const std::string& item) override;
  void Forget(const std::string& item) override;
  int NumRequeues(const std::string& item) const override;

 private:
  std::vector<std::unique_ptr<RateLimiter>> limiters_;
};

// WithMaxWaitRateLimiter caps another limiter's When at max_delay.
// mirrors default_rate_limiters.go TypedWithMaxWaitRateLimiter
class WithMaxWaitRateLimiter final : public RateLimiter {
 public:
  WithMaxWaitRateLimiter(std::unique_ptr<RateLimiter> limiter, base::Duration max_delay);
  base::Duration When(const std::string& item) override;
  void Forget(const std::string& item) override;
  int NumRequeues(const std::string& item) const override;

 private:
  std::unique_ptr<RateLimiter> limiter_;
  const base::Duration max_delay_;
};

// DefaultControllerRateLimiter is MaxOf(ItemExponential(5ms, 1000s), Bucket(10 qps, burst 100)):
// the classic queue's default. mirrors DefaultTypedControllerRateLimiter
std::unique_ptr<RateLimiter> DefaultControllerRateLimiter(const sim::Clock& clock);

// DefaultItemBasedRateLimiter is ItemExponential(1ms, 1000s). mirrors
// DefaultTypedItemBasedRateLimiter
std::unique_ptr<RateLimiter> DefaultItemBasedRateLimiter();

}  // namespace workqueue
