#pragma once
// CauseScope: makes one trace record the current cause for a block and restores the cause that
// was current before when the block ends. Every record emitted and every event scheduled inside
// the block names that record as its cause, which is how `rlab why` walks from a Pod's status
// back to the watch event, the reconcile and the command behind it.
// No Go counterpart: upstream passes a context.Context down the call chain; the lab keeps one
// current cause on the trace because its single-threaded scheduler runs one step at a time.
// Single-threaded.

#include <cstdint>

#include "core/sim/trace.h"

namespace sim {

class CauseScope {
 public:
  enum Mode {
    kExactly,  // the cause becomes `cause`, kNoCause included (a learner's command has none)
    kIfKnown,  // kNoCause (the seq a muted trace returns) keeps the current cause
  };

  CauseScope(Trace& trace, int64_t cause, Mode mode = kExactly)
      : trace_(trace), previous_(trace.current_cause()) {
    if (mode == kExactly || cause != kNoCause) trace_.set_current_cause(cause);
  }
  ~CauseScope() { trace_.set_current_cause(previous_); }
  CauseScope(const CauseScope&) = delete;
  CauseScope& operator=(const CauseScope&) = delete;

 private:
  Trace& trace_;
  int64_t previous_;
};

}  // namespace sim
