#pragma once
// Advance: how a command moves virtual time. A time-moving command (run, step, wait, a waiting
// delete) does its immediate part, then describes what it waits for as Goals; the Lab drives the
// goals in order under the command's event budget (budget.h), in one go (Lab::Execute) or a slice
// of events at a time (Lab::Start / Lab::Continue: a share link's replay in the page, which stays
// responsive). Each goal reports its own outcome into the command's result.
// No Go counterpart (kubectl's wait loop plus the sandbox's clock).
// The rules (DESIGN.md "What moves time", "Bounded commands"):
//   - `until` is checked before every event: a goal already met runs nothing;
//   - no event later than `deadline` runs; a goal that reaches its deadline (or finds nothing
//     pending) moves the clock to the deadline, as `run D` and a timed-out `wait` do;
//   - `max_events` stops a goal after that many events (`step N`);
//   - at the budget the goal stops before the next event: the clock stays at the last event
//     processed and every queued event stays queued.
// Single-threaded.

#include <cstdint>

#include "core/kubectl/command.h"

namespace lab {

class Simulation;

// A command's goals are kubectl's (core/kubectl/command.h): the lab's time-moving commands and
// kubectl's waits describe them alike.
using kubectl::AddSaturating;
using kubectl::CommandResult;
using kubectl::Goal;
using kubectl::GoalOutcome;
using kubectl::kNoDeadline;

// GoalRun drives one goal; Advance reports whether it ended or the slice ran out.
class GoalRun {
 public:
  GoalRun(Simulation& sim, Goal& goal) : sim_(sim), goal_(goal) {}
  // Advance runs events until the goal ends or `slice` events ran or `*budget_left` is 0 while
  // an event is due; each event decrements both. Returns true when the goal ended (outcome()).
  bool Advance(uint64_t slice, uint64_t* budget_left);
  GoalOutcome outcome() const { return outcome_; }
  uint64_t ran() const { return ran_; }

 private:
  Simulation& sim_;
  Goal& goal_;
  uint64_t ran_ = 0;
  GoalOutcome outcome_ = GoalOutcome::kReached;
};

}  // namespace lab
