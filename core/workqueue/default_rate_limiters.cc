#include "core/workqueue/default_rate_limiters.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "core/base/assert.h"

namespace workqueue {

namespace {
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
}  // namespace

// ---- ItemExponentialFailureRateLimiter ----

ItemExponentialFailureRateLimiter::ItemExponentialFailureRateLimiter(base::Duration base_delay,
                                                                     base::Duration max_delay)
    : base_delay_(base_delay), max_delay_(max_delay) {
  RLAB_ASSERT(base_delay >= 0, "exponential rate limiter needs a non-negative base delay");
  RLAB_ASSERT(max_delay >= 0, "exponential rate limiter needs a non-negative max delay");
}

// mirrors default_rate_limiters.go TypedItemExponentialFailureRateLimiter.When
base::Duration ItemExponentialFailureRateLimiter::When(const std::string& item) {
  int& failures = failures_[item];
  const int exp = failures;
  ++failures;

  // Upstream computes base_ns * 2^exp in float64 and returns max when it exceeds MaxInt64 (in
  // nanoseconds). The same guard, in integers: the shift overflows in nanoseconds.
  if (base_delay_ == 0) return 0;
  if (base_delay_ > kInt64Max / 1000) return max_delay_;
  const int64_t base_ns = base_delay_ * 1000;
  if (exp >= 63 || base_ns > (kInt64Max >> exp)) return max_delay_;
  const base::Duration backoff = base_delay_ << exp;  // fits: base_ns << exp fits
  return std::min(backoff, max_delay_);
}

void ItemExponentialFailureRateLimiter::Forget(const std::string& item) { failures_.erase(item); }

int ItemExponentialFailureRateLimiter::NumRequeues(const std::string& item) const {
  auto it = failures_.find(item);
  return it == failures_.end() ? 0 : it->second;
}

// ---- ItemFastSlowRateLimiter ----

ItemFastSlowRateLimiter::ItemFastSlowRateLimiter(base::Duration fast_delay,
                                                 base::Duration slow_delay, int max_fast_attempts)
    : fast_delay_(fast_delay), slow_delay_(slow_delay), max_fast_attempts_(max_fast_attempts) {}

// mirrors default_rate_limiters.go TypedItemFastSlowRateLimiter.When (count first, then compare)
base::Duration ItemFastSlowRateLimiter::When(const std::string& item) {
  const int failures = ++failures_[item];
  return failures <= max_fast_attempts_ ? fast_delay_ : slow_delay_;
}

void ItemFastSlowRateLimiter::Forget(const std::string& item) { failures_.erase(item); }

int ItemFastSlowRateLimiter::NumRequeues(const std::string& item) const {
  auto it = failures_.find(item);
  return it == failures_.end() ? 0 : it->second;
}

// ---- BucketRateLimiter ----

BucketRateLimiter::BucketRateLimiter(const sim::Clock& clock, int64_t qps, int64_t burst)
    : clock_(clock), qps_(qps), burst_(burst), tokens_units_(0), last_(clock.Now()) {
  RLAB_ASSERT(qps >= 1, "BucketRateLimiter needs qps >= 1");
  RLAB_ASSERT(burst >= 1, "BucketRateLimiter needs burst >= 1");
  RLAB_ASSERT(burst <= kInt64Max / (4 * kUnitsPerToken), "BucketRateLimiter burst is too large");
  RLAB_ASSERT(qps <= kInt64Max / (4 * kUnitsPerToken), "BucketRateLimiter qps is too large");
  // rate.NewLimiter starts with a zero `last`, so the first reservation finds a full bucket.
  tokens_units_ = burst_ * kUnitsPerToken;
}

// mirrors x/time/rate rate.go Limiter.reserveN (advance, take one token, wait for the debt)
base::Duration BucketRateLimiter::When(const std::string& /*item*/) {
  const base::SimTime now = clock_.Now();
  const base::Duration elapsed = now > last_ ? now - last_ : 0;
  const int64_t full = burst_ * kUnitsPerToken;
  if (tokens_units_ < full) {
    const int64_t missing = full - tokens_units_;
    // elapsed * qps >= missing fills the bucket; compare without multiplying a large elapsed.
    if (elapsed >= (missing + qps_ - 1) / qps_) {
      tokens_units_ = full;
    } else {
      tokens_units_ += elapsed * qps_;
    }
  }
  RLAB_ASSERT(tokens_units_ <= full, "token bucket overfilled");
  tokens_units_ -= kUnitsPerToken;
  last_ = now;
  if (tokens_units_ >= 0) return 0;
  const int64_t debt = -tokens_units_;
  return (debt + qps_ - 1) / qps_;  // µs until the debt is refilled, rounded up
}

void BucketRateLimiter::Forget(const std::string& /*item*/) {}

int BucketRateLimiter::NumRequeues(const std::string& /*item*/) const { return 0; }

// ---- MaxOfRateLimiter ----

MaxOfRateLimiter::MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters)
    : limiters_(std::move(limiters)) {
  for (const auto& limiter : limiters_) {
    RLAB_ASSERT(limiter != nullptr, "MaxOfRateLimiter got a null limiter");
  }
}

// mirrors default_rate_limiters.go TypedMaxOfRateLimiter.When: every limiter is asked.
base::Duration MaxOfRateLimiter::When(const std::string& item) {
  base::Duration longest = 0;
  for (auto& limiter : limiters_) longest = std::max(longest, limiter->When(item));
  return longest;
}

void MaxOfRateLimiter::Forget(const std::string& item) {
  for (auto& limiter : limiters_) limiter->Forget(item);
}

int MaxOfRateLimiter::NumRequeues(const std::string& item) const {
  int most = 0;
  for (const auto& limiter : limiters_) most = std::max(most, limiter->NumRequeues(item));
  return most;
}

// ---- WithMaxWaitRateLimiter ----

WithMaxWaitRateLimiter::WithMaxWaitRateLimiter(std::unique_ptr<RateLimiter> limiter,
                                               base::Duration max_delay)
    : limiter_(std::move(limiter)), max_delay_(max_delay) {
  RLAB_ASSERT(limiter_ != nullptr, "WithMaxWaitRateLimiter needs a limiter");
}

base::Duration WithMaxWaitRateLimiter::When(const std::string& item) {
  return std::min(limiter_->When(item), max_delay_);
}

void WithMaxWaitRateLimiter::Forget(const std::string& item) { limiter_->Forget(item); }

int WithMaxWaitRateLimiter::NumRequeues(const std::string& item) const {
  return limiter_->NumRequeues(item);
}

// ---- defaults ----

std::unique_ptr<RateLimiter> DefaultControllerRateLimiter(const sim::Clock& clock) {
  std::vector<std::unique_ptr<RateLimiter>> limiters;
  limiters.push_back(std::make_unique<ItemExponentialFailureRateLimiter>(5 * base::kMillisecond,
                                                                         1000 * base::kSecond));
  limiters.push_back(std::make_unique<BucketRateLimiter>(clock, 10, 100));
  return std::make_unique<MaxOfRateLimiter>(std::move(limiters));
}

std::unique_ptr<RateLimiter> DefaultItemBasedRateLimiter() {
  return std::make_unique<ItemExponentialFailureRateLimiter>(base::kMillisecond,
                                                             1000 * base::kSecond);
}

}  // namespace workqueue
