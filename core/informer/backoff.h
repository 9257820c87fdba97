#pragma once
// ExponentialBackoffManager: how long a reflector waits before it lists again after a failed
// list, a failed watch or a watch that ended with an ERROR event. The wait doubles from 800ms up
// to 30s; if no backoff was asked for during the last 2 minutes the wait starts over at 800ms.
// Each wait is jittered up to +100% ([d, 2d)), so a thousand informers do not retry in lockstep.
// Mirrors: apimachinery pkg/util/wait/backoff.go (NewExponentialBackoffManager, getNextBackoff,
// Backoff.Step, Jitter) with client-go tools/cache/reflector.go's numbers
// (800ms, 30s, 2m, factor 2.0, jitter 1.0).
// Simplified: integers only (the factor is a doubling with saturation, the jitter is
// d + prng.Below(d)); without a PRNG there is no jitter, so tests can assert 800ms, 1.6s, ...
// Single-threaded; time is passed in (no clock of its own).

#include "core/base/time.h"
#include "core/sim/prng.h"

namespace informer {

// The reflector's backoff parameters (reflector.go NewReflectorWithOptions).
inline constexpr base::Duration kReflectorBackoffInitial = 800 * base::kMillisecond;
inline constexpr base::Duration kReflectorBackoffCap = 30 * base::kSecond;
inline constexpr base::Duration kReflectorBackoffReset = 2 * base::kMinute;

class ExponentialBackoffManager {
 public:
  // created_at starts the reset window (Go: lastBackoffStart = clock.Now() at creation).
  // prng (may be null = no jitter) must outlive this object. REQUIRES: 0 < initial <= cap.
  ExponentialBackoffManager(base::SimTime created_at, sim::Prng* prng,
                            base::Duration initial = kReflectorBackoffInitial,
                            base::Duration cap = kReflectorBackoffCap,
                            base::Duration reset = kReflectorBackoffReset);
  // Intentionally copyable (a value type; the PRNG pointer is shared).

  // Next returns the wait before the next attempt, asked at `now`. It first resets to the
  // initial wait when more than `reset` passed since the previous call, then returns the current
  // wait (jittered) and doubles it for next time, capped.
  // mirrors wait/backoff.go exponentialBackoffManagerImpl.getNextBackoff + Backoff.Step
  base::Duration Next(base::SimTime now);

  // current is the un-jittered wait the next call returns if no reset happens.
  base::Duration current() const { return duration_; }

 private:
  sim::Prng* prng_;
  base::Duration initial_;
  base::Duration cap_;
  base::Duration reset_;
  base::Duration duration_;       // Invariant: initial_ <= duration_ <= cap_.
  base::SimTime last_start_ = 0;  // when Next was last called (or creation)
};

}  // namespace informer
