#pragma once
// Clock: the one virtual clock of a simulation, in integer microseconds.
// Mirrors: k8s.io/utils/clock's Clock (testing.FakeClock), with the scheduler as the only writer.
// Simplified: no timers here; timers are scheduler events.
// Single-threaded; nothing in core/ may read wall-clock time.

#include "core/base/time.h"

namespace sim {

class Clock {
 public:
  Clock() = default;
  Clock(const Clock&) = delete;
  Clock& operator=(const Clock&) = delete;

  // Now returns the current virtual time.
  base::SimTime Now() const { return now_; }
  // now_ptr lets assertions report the time of a failure.
  const base::SimTime* now_ptr() const { return &now_; }

  // AdvanceTo moves time forward. REQUIRES: t >= Now(); time never goes backwards.
  void AdvanceTo(base::SimTime t);

 private:
  base::SimTime now_ = 0;  // Invariant: never decreases.
};

}  // namespace sim
