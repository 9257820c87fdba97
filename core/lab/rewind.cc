// Rewind: parked checkpoints plus deterministic replay (see rewind.h).

#include "core/lab/rewind.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

namespace lab {
namespace {

constexpr int64_t kAllZeroStep = std::numeric_limits<int64_t>::max();

const std::string& FirstWord(const LoggedCommand& cmd) {
  static const std::string kEmpty;
  size_t i = !cmd.argv.empty() && cmd.argv[0] == "kubectl" ? 1 : 0;
  return i < cmd.argv.size() ? cmd.argv[i] : kEmpty;
}

// LocatePoint maps a canonical point — step p, then z zero-step commands — to a position in log.
// The same point names the same state in every log a replay writes (rewind.h): replays keep the
// zero-step commands verbatim and fold a partial command's clock move into its last event.
LogPosition LocatePoint(const std::vector<LoggedCommand>& log, int64_t p, int64_t z) {
  int64_t cum = 0, zeros = 0;
  for (size_t c = 0; c < log.size(); ++c) {
    const int64_t st = CommandSteps(log[c]);
    if (st == 0) {
      if (cum < p) continue;
      if (zeros < z) {
        ++zeros;
        continue;
      }
      return {c, 0};
    }
    if (cum + st <= p) {
      cum += st;
      zeros = 0;
      continue;
    }
    return {c, static_cast<uint64_t>(p - cum)};
  }
  return {log.size(), 0};
}

}  // namespace

bool Splittable(const LoggedCommand& cmd) {
  const std::string& w = FirstWord(cmd);
  return w == "run" || w == "step" || w == "wait";
}

int64_t CommandSteps(const LoggedCommand& cmd) {
  return Splittable(cmd) ? static_cast<int64_t>(cmd.events) : 1;
}

int64_t TotalSteps(const std::vector<LoggedCommand>& log) {
  int64_t total = 0;
  for (const LoggedCommand& cmd : log) total += CommandSteps(cmd);
  return total;
}

LogPosition Locate(const std::vector<LoggedCommand>& log, int64_t step) {
  return LocatePoint(log, std::max<int64_t>(0, step), kAllZeroStep);
}

Rewinder::Rewinder(SimulationOptions simulation, RewindOptions options)
    : simulation_(std::move(simulation)), options_(options) {
  if (options_.interval < 1) options_.interval = 1;
  if (options_.max_parked < 1) options_.max_parked = 1;
}

Rewinder::Cursor Rewinder::Fresh() const {
  Cursor c;
  c.lab = std::make_unique<Lab>(simulation_);
  return c;
}

template <typename Fn>
auto Rewinder::Measured(Cursor& c, Fn fn) {
  const uint64_t before = options_.heap_in_use ? options_.heap_in_use() : 0;
  auto result = fn();
  if (options_.heap_in_use) {
    // Unsigned wrap-around turns a shrink into a negative delta.
    c.bytes = std::max<int64_t>(0, c.bytes + static_cast<int64_t>(options_.heap_in_use() - before));
  }
  return result;
}

std::optional<std::string> Rewinder::Advance(Cursor& c, const std::vector<LoggedCommand>& log,
                                             LogPosition target, int64_t budget) {
  LogPosition pos = LocatePoint(log, c.step, c.zeros);
  Lab& lab = *c.lab;
  sim::Scheduler& scheduler = lab.sim().scheduler();
  auto diverged = [&](const std::string& what) {
    return "replay diverged at command " + std::to_string(pos.command + 1) + " (" + what + ")";
  };
  // run executes one command line on the cursor's Lab and returns how many events it ran.
  auto run = [&](const ScriptLine& line) {
    const uint64_t before = scheduler.executed();
    lab.Execute(line, "");
    return scheduler.executed() - before;
  };
  while (budget > 0 && !(target <= pos)) {
    const LoggedCommand& cmd = log[pos.command];
    const int64_t steps = CommandSteps(cmd);
    const bool whole = pos.events == 0 && target.command > pos.command;
    if (whole && (!Splittable(cmd) || steps <= budget)) {
      // The command as logged (an atomic command may overrun the budget).
      ScriptLine line;
      line.argv = cmd.argv;
      line.heredoc = cmd.heredoc;
      if (run(line) != cmd.events || lab.sim().clock().Now() != cmd.time_after) {
        return diverged(FirstWord(cmd) + " ran differently");
      }
      c.step += steps;
      c.zeros = steps == 0 ? c.zeros + 1 : 0;
      replayed_ += steps;
      budget -= std::max<int64_t>(steps, 1);
      pos = {pos.command + 1, 0};
      continue;
    }
    // Part of a splittable command: its events one chunk at a time (`step N`).
    const uint64_t goal = whole || target.command > pos.command ? cmd.events : target.events;
    uint64_t n = std::min<uint64_t>(goal - pos.events, static_cast<uint64_t>(budget));
    const bool finishes = pos.events + n == cmd.events;
    if (finishes) --n;  // the last event goes with the command's clock move, below
    if (n > 0) {
      ScriptLine line;
      line.argv = {"step", std::to_string(n)};
      if (run(line) != n) return diverged("fewer events pending than logged");
      pos.events += n;
      c.step += static_cast<int64_t>(n);
      replayed_ += static_cast<int64_t>(n);
      budget -= static_cast<int64_t>(n);
    }
    if (finishes) {
      // The last event. When the command also moved the clock past it (a `run`, a timed-out
      // `wait`), `run` to its end time runs exactly that event (every other event due by then
      // already ran); otherwise `step 1`, which stops where the command stopped.
      const base::SimTime now = lab.sim().clock().Now();
      const auto next = scheduler.NextTime();
      ScriptLine line;
      if (next.has_value() && *next == cmd.time_after) {
        line.argv = {"step", "1"};
      } else {
        line.argv = {"run", std::to_string(cmd.time_after - now) + "us"};
      }
      if (run(line) != 1 || lab.sim().clock().Now() != cmd.time_after) {
        return diverged("its last event");
      }
      c.step += 1;
      c.zeros = 0;
      replayed_ += 1;
      budget -= 1;
      pos = {pos.command + 1, 0};
    } else if (n > 0) {
      c.zeros = 0;
    }
  }
  return std::nullopt;
}

RewindResult Rewinder::Rewind(const std::vector<LoggedCommand>& log, int64_t step) {
  RewindResult result;
  step = std::max<int64_t>(0, std::min(step, TotalSteps(log)));
  // The source: the furthest checkpoint (or the one being built) at or before the target.
  auto later = [](const Cursor& a, const Cursor& b) {
    return a.step != b.step ? a.step > b.step : a.zeros > b.zeros;
  };
  Cursor source;
  int best = -1;
  for (size_t i = 0; i < parked_.size(); ++i) {
    if (parked_[i].step <= step && (best < 0 || later(parked_[i], parked_[static_cast<size_t>(best)]))) {
      best = static_cast<int>(i);
    }
  }
  const bool use_builder = builder_.has_value() && builder_->step <= step &&
                           (best < 0 || later(*builder_, parked_[static_cast<size_t>(best)]));
  if (use_builder) {
    source = std::move(*builder_);
    builder_.reset();
  } else if (best >= 0) {
    source = std::move(parked_[static_cast<size_t>(best)]);
    parked_.erase(parked_.begin() + best);
  } else {
    source = Fresh();
  }
  result.from_step = source.step;
  const int64_t replayed_before = replayed_;
  const LogPosition target = Locate(log, step);
  // A rewind replays under the budget of one command (budget.h): at most that many steps.
  const int64_t budget = static_cast<int64_t>(
      std::min<uint64_t>(simulation_.budget.events, std::numeric_limits<int64_t>::max()));
  if (auto err = Advance(source, log, target, budget)) {
    result.ok = false;
    result.error = *err;
  }
  result.replayed_steps = replayed_ - replayed_before;
  if (result.ok && !(target <= LocatePoint(log, source.step, source.zeros))) {
    // The budget ran out on the way: the session stays where it is, and the replay so far is
    // kept as a checkpoint, so the same rewind again continues from it.
    result.ok = false;
    result.error = "rewind to step " + std::to_string(step) + " stopped after replaying " +
                   std::to_string(result.replayed_steps) + " steps, the budget of one command (" +
                   std::to_string(simulation_.budget.events) +
                   " events); the replay so far is kept as a checkpoint at step " +
                   std::to_string(source.step) + ": rewind to step " + std::to_string(step) +
                   " again to continue from it";
    result.stopped_at_budget = true;
    Park(std::move(source));
    return result;
  }
  result.lab = std::move(source.lab);
  // The history after `step` is abandoned: checkpoints past it no longer describe the session.
  for (size_t i = parked_.size(); i-- > 0;) {
    if (parked_[i].step > step) {
      Retire(std::move(parked_[i].lab));
      parked_.erase(parked_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  if (builder_.has_value() && builder_target_ > step) {
    Retire(std::move(builder_->lab));
    builder_.reset();
  }
  dropped_at_ = 0;  // the dropped future frees memory: older checkpoints may fit again
  return result;
}

std::vector<int64_t> Rewinder::Wanted(int64_t total) const {
  std::vector<int64_t> wanted;
  for (int64_t g = total / options_.interval * options_.interval;
       g > 0 && wanted.size() < options_.max_parked; g -= options_.interval) {
    wanted.push_back(g);
  }
  std::reverse(wanted.begin(), wanted.end());
  return wanted;
}

void Rewinder::Park(Cursor c) {
  auto at = std::find_if(parked_.begin(), parked_.end(),
                         [&](const Cursor& p) { return p.step >= c.step; });
  if (at != parked_.end() && at->step == c.step) {
    *at = std::move(c);
  } else {
    parked_.insert(at, std::move(c));
  }
  // Memory bound: the oldest go first (the newest steps are the ones learners go back to).
  while (parked_.size() > options_.max_parked) {
    Retire(std::move(parked_.front().lab));
    parked_.erase(parked_.begin());
  }
  // The byte budget: the newest checkpoint always stays; an older one dropped for bytes is not
  // rebuilt (Work skips steps at or below dropped_at_) until a rewind frees memory.
  while (options_.byte_budget > 0 && parked_.size() > 1 && parked_bytes() > options_.byte_budget) {
    dropped_at_ = std::max(dropped_at_, parked_.front().step);
    Retire(std::move(parked_.front().lab));
    parked_.erase(parked_.begin());
  }
}

uint64_t Rewinder::parked_bytes() const {
  uint64_t sum = 0;
  for (const Cursor& c : parked_) sum += static_cast<uint64_t>(c.bytes);
  return sum;
}

void Rewinder::Retire(std::unique_ptr<Lab> lab) {
  if (lab != nullptr) retired_.push_back(std::move(lab));
}

bool Rewinder::Work(const std::vector<LoggedCommand>& log, int64_t budget) {
  if (!retired_.empty()) {
    retired_.pop_back();
    return true;
  }
  if (diverged_) return false;
  const int64_t total = TotalSteps(log);
  const std::vector<int64_t> wanted = Wanted(total);
  if (builder_.has_value() && builder_target_ > total) builder_.reset();
  if (!builder_.has_value()) {
    // The newest wanted step without a checkpoint.
    int64_t missing = 0;
    for (auto it = wanted.rbegin(); it != wanted.rend() && missing == 0 && *it > dropped_at_; ++it) {
      const bool parked = std::any_of(parked_.begin(), parked_.end(),
                                      [&](const Cursor& c) { return c.step == *it; });
      if (!parked) missing = *it;
    }
    if (missing == 0) return false;
    // Start from a checkpoint that is no longer wanted (it has fallen out of the window), the
    // furthest one below the target; else from zero.
    int best = -1;
    for (size_t i = 0; i < parked_.size(); ++i) {
      const bool is_wanted = std::binary_search(wanted.begin(), wanted.end(), parked_[i].step);
      if (!is_wanted && parked_[i].step <= missing) best = static_cast<int>(i);
    }
    if (best >= 0) {
      builder_ = std::move(parked_[static_cast<size_t>(best)]);
      parked_.erase(parked_.begin() + best);
    } else {
      builder_ = Cursor{};
      Measured(*builder_, [&] {
        builder_->lab = Fresh().lab;
        return true;
      });
    }
    builder_target_ = missing;
  }
  if (auto err = Measured(*builder_, [&] {
        return Advance(*builder_, log, LocatePoint(log, builder_target_, 0),
                       std::max<int64_t>(budget, 1));
      })) {
    builder_.reset();  // a diverging replay must not become a checkpoint
    diverged_ = true;
    return false;
  }
  if (builder_->step >= builder_target_) {
    Park(std::move(*builder_));
    builder_.reset();
  }
  return true;
}

void Rewinder::Clear() {
  for (Cursor& c : parked_) Retire(std::move(c.lab));
  parked_.clear();
  if (builder_.has_value()) Retire(std::move(builder_->lab));
  builder_.reset();
  diverged_ = false;
  dropped_at_ = 0;
}

std::vector<int64_t> Rewinder::parked_steps() const {
  std::vector<int64_t> steps;
  for (const Cursor& c : parked_) steps.push_back(c.step);
  return steps;
}

}  // namespace lab
