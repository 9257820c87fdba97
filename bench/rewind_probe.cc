#include "bench/rewind_probe.h"

#include <algorithm>
#include <utility>

namespace bench {

RewindProbe::RewindProbe(const lab::Lab& session, lab::SimulationOptions options,
                         lab::RewindOptions rewind)
    : log_(session.command_log()),
      total_steps_(lab::TotalSteps(log_)),
      rewinder_(std::move(options), std::move(rewind)) {}

int64_t RewindProbe::BuildCheckpoints() {
  const int64_t before = rewinder_.replayed();
  // The page's slice (4 ms of idle time a frame is a few hundred steps); the size of a slice does
  // not change which checkpoints are built.
  constexpr int64_t kSlice = 256;
  while (rewinder_.Work(log_, kSlice)) {
  }
  return rewinder_.replayed() - before;
}

std::vector<int64_t> RewindProbe::Targets(int64_t window) const {
  const int64_t oldest = std::max<int64_t>(0, total_steps_ - window);  // the last step not probed
  const int64_t interval = rewinder_.interval();
  std::vector<int64_t> targets;
  // Every interval [c, c + interval) that reaches into the window, newest first. Its furthest step
  // replays the most; below the oldest checkpoint (c = 0) the replay starts from a fresh lab::Lab.
  for (int64_t c = total_steps_ / interval * interval; c >= 0; c -= interval) {
    const int64_t furthest = std::min(c + interval - 1, total_steps_);
    if (furthest <= oldest) break;
    if (targets.empty() || furthest != targets.back()) targets.push_back(furthest);
  }
  return targets;
}

lab::RewindResult RewindProbe::RewindTo(int64_t step) { return rewinder_.Rewind(log_, step); }

}  // namespace bench
