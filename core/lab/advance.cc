// Advance: a time-moving command's goals, driven under its budget (see advance.h).

#include "core/lab/advance.h"

#include "core/lab/simulation.h"

namespace lab {

bool GoalRun::Advance(uint64_t slice, uint64_t* budget_left) {
  sim::Scheduler& scheduler = sim_.scheduler();
  sim::Clock& clock = sim_.clock();
  for (;;) {
    if (goal_.until && goal_.until()) {
      outcome_ = GoalOutcome::kReached;
      return true;
    }
    if (ran_ >= goal_.max_events) {
      outcome_ = GoalOutcome::kReached;
      return true;
    }
    const auto next = scheduler.NextTime();
    if (!next.has_value() || *next > goal_.deadline) {
      if (goal_.deadline == kNoDeadline) {
        outcome_ = GoalOutcome::kIdle;  // step: nothing left to run
        return true;
      }
      // Nothing more is due by the deadline: the clock moves to it, as a real wait sleeps on.
      if (clock.Now() < goal_.deadline) clock.AdvanceTo(goal_.deadline);
      outcome_ = !goal_.until || goal_.until() ? GoalOutcome::kReached : GoalOutcome::kDeadline;
      return true;
    }
    if (*budget_left == 0) {
      outcome_ = GoalOutcome::kBudget;  // the clock stays at the last event processed
      return true;
    }
    if (slice == 0) return false;
    scheduler.Step();
    ++ran_;
    --slice;
    --*budget_left;
  }
}

}  // namespace lab
