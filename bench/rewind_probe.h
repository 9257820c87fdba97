#pragma once
// RewindProbe measures issue 7's rewind budget ("rewind to any of the last 10,000 steps under
// 50 ms") with the machinery the page uses: a lab::Rewinder with the page's spacing builds every
// checkpoint of a finished session (the page does that in idle time), then the probe rewinds,
// newest first, to the step of each checkpoint interval that needs the most replay (the one just
// before the next checkpoint), as a learner dragging the History slider leftwards does. Newest
// first, each rewind starts from its own interval's checkpoint, which the ones before left alone.
// The caller times each RewindTo (core/ reads no clock); `rlab bench rewind-checkpoints` does, so
// the native binary and the WebAssembly one under Node measure the same code.
// No Go counterpart.
// Single-threaded; deterministic like the lab::Rewinder it drives.

#include <cstdint>
#include <vector>

#include "core/lab/lab.h"
#include "core/lab/rewind.h"

namespace bench {

class RewindProbe {
 public:
  // session is the finished session and options the lab::SimulationOptions it was made with; its
  // command log is copied, so the session may go away.
  RewindProbe(const lab::Lab& session, lab::SimulationOptions options,
              lab::RewindOptions rewind = {});
  RewindProbe(const RewindProbe&) = delete;
  RewindProbe& operator=(const RewindProbe&) = delete;

  // BuildCheckpoints runs the lab::Rewinder's idle work until every checkpoint it keeps is parked
  // and returns the steps that replayed.
  int64_t BuildCheckpoints();

  // Targets lists the steps to probe within the last `window` steps of the session, newest first:
  // the furthest step from a checkpoint of every checkpoint interval that reaches into the window
  // (c + interval - 1 for each multiple c of the interval, the session's last step for the newest).
  // Rewinds to them replay the most an interval can need.
  std::vector<int64_t> Targets(int64_t window) const;

  // RewindTo rewinds to `step` of the original session. Targets must be taken in the order given.
  lab::RewindResult RewindTo(int64_t step);

  int64_t total_steps() const { return total_steps_; }
  int64_t interval() const { return rewinder_.interval(); }
  std::vector<int64_t> parked_steps() const { return rewinder_.parked_steps(); }
  // parked_bytes is what the parked checkpoints measured (0 without
  // lab::RewindOptions::heap_in_use).
  uint64_t parked_bytes() const { return rewinder_.parked_bytes(); }

 private:
  std::vector<lab::LoggedCommand> log_;
  int64_t total_steps_ = 0;
  lab::Rewinder rewinder_;
};

}  // namespace bench
