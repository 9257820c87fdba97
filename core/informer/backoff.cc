#include "core/informer/backoff.h"

#include <cstdint>

#include "core/base/assert.h"

namespace informer {

ExponentialBackoffManager::ExponentialBackoffManager(base::SimTime created_at, sim::Prng* prng,
                                                     base::Duration initial, base::Duration cap,
                                                     base::Duration reset)
    : prng_(prng),
      initial_(initial),
      cap_(cap),
      reset_(reset),
      duration_(initial),
      last_start_(created_at) {
  RLAB_ASSERT(initial > 0, "backoff initial wait must be positive");
  RLAB_ASSERT(initial <= cap, "backoff initial wait must not exceed the cap");
}

base::Duration ExponentialBackoffManager::Next(base::SimTime now) {
  if (now - last_start_ > reset_) duration_ = initial_;
  last_start_ = now;
  base::Duration wait = duration_;
  // Backoff.Step: the next wait is this one times the factor (2.0), capped.
  duration_ = duration_ > cap_ / 2 ? cap_ : duration_ * 2;
  RLAB_ASSERT(duration_ >= initial_ && duration_ <= cap_, "backoff left its bounds");
  // Jitter(d, 1.0) = d + rand*d, in [d, 2d).
  if (prng_ != nullptr)
    wait += static_cast<base::Duration>(prng_->Below(static_cast<uint64_t>(wait)));
  return wait;
}

}  // namespace informer
