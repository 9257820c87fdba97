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
#include <functional>
#include <limits>
#include <string>

#include "core/base/time.h"

namespace lab {

class Simulation;
struct CommandResult;

// kNoDeadline is a goal without a deadline (step N).
constexpr base::SimTime kNoDeadline = std::numeric_limits<base::SimTime>::max();

// AddSaturating is t + d, clamped to kNoDeadline (a duration of up to 2^63 µs may follow any now).
base::SimTime AddSaturating(base::SimTime t, base::Duration d);

enum class GoalOutcome {
  kReached,   // `until` holds, `max_events` ran, or a goal without `until` reached its deadline
  kDeadline,  // the deadline came first (the clock is at the deadline)
  kIdle,      // nothing was pending before max_events ran (step)
  kBudget,    // the command's event budget ran out first (the clock is at the last event)
};

struct Goal {
  std::function<bool()> until;  // null: no condition
  base::SimTime deadline = kNoDeadline;
  uint64_t max_events = std::numeric_limits<uint64_t>::max();
  // report writes the goal's outcome into the command's result (called once, when it ends; at
  // kBudget the Lab then adds the budget's error).
  std::function<void(GoalOutcome, CommandResult&)> report;
  // resume is the command that continues this goal from where a budget stop left it
  // ("run 1h2m3s", "step 12", the wait again); shown in the budget message.
  std::function<std::string()> resume;
};

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
