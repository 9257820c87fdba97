#include "core/sim/clock.h"

#include "core/base/assert.h"

namespace sim {

void Clock::AdvanceTo(base::SimTime t) {
  RLAB_ASSERT(t >= now_, "virtual time must never go backwards");
  now_ = t;
}

}  // namespace sim
