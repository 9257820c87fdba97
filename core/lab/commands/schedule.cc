// schedule: pin the race explorer's choice points so a found race replays identically natively,
// under Node and in the page (see core/sim/steering.h and docs/race-explorer.md).
//   schedule [--lag D] [C…]   from here on, the i-th choice point takes the i-th C (a bare
//                             number) or the one named by I=V; every other one the default 0
//   schedule show             the choice points met since the last `schedule`
//   schedule off              end the window (nothing more is recorded or steered)
// No Go counterpart (CHESS-style schedule replay).

#include <cstdlib>
#include <map>

#include "core/lab/command.h"

namespace lab {
namespace {

constexpr const char* kScheduleUsage =
    "error: usage: schedule [--lag D] [CHOICE…] | schedule show | schedule off "
    "(CHOICE is N for the next choice point or I=N for choice point I)";
constexpr base::Duration kDefaultLag = 10 * base::kMillisecond;

// ParseIndex reads a non-negative decimal number; false on anything else.
bool ParseIndex(const std::string& text, size_t* out) {
  if (text.empty() || text.size() > 9) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  *out = static_cast<size_t>(std::strtoull(text.c_str(), nullptr, 10));
  return true;
}

CommandResult Show(const sim::Steering& steering) {
  CommandResult result;
  const auto& points = steering.points();
  result.out = std::to_string(points.size()) + " choice points" +
               (steering.active() ? "" : " (schedule off)") + "\n";
  for (size_t i = 0; i < points.size(); ++i) {
    const sim::ChoicePoint& p = points[i];
    result.out += "#" + std::to_string(i) + " t=" + base::FormatDuration(p.at) + " " +
                  sim::ChoiceKindName(p.kind) + " " + std::to_string(p.chosen) + "/" +
                  std::to_string(p.options.size()) + ": " + p.options[p.chosen] + "\n";
  }
  if (steering.mismatches() > 0) {
    result.out += "warning: " + std::to_string(steering.mismatches()) +
                  " pinned choices were out of range (took the default)\n";
  }
  return result;
}

}  // namespace

CommandResult RunSchedule(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args.size() == 1 && args[0] == "show") return Show(ctx.sim.steering());
  if (args.size() == 1 && args[0] == "off") {
    ctx.sim.StopSteering();
    return {};
  }
  base::Duration lag = kDefaultLag;
  std::map<size_t, size_t> pins;
  size_t next = 0;  // the index a bare number pins
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--lag" || a.rfind("--lag=", 0) == 0) {
      std::string value;
      if (a == "--lag") {
        if (i + 1 == args.size()) return CommandResult::Error("error: flag needs an argument: --lag");
        value = args[++i];
      } else {
        value = a.substr(6);
      }
      auto d = base::ParseDuration(value);
      if (!d.ok()) return CommandResult::Error("error: invalid --lag: " + d.status().message());
      if (*d <= 0) return CommandResult::Error("error: --lag must be positive");
      lag = *d;
      continue;
    }
    size_t index = next;
    size_t value = 0;
    const size_t eq = a.find('=');
    const bool ok = eq == std::string::npos
                        ? ParseIndex(a, &value)
                        : ParseIndex(a.substr(0, eq), &index) && ParseIndex(a.substr(eq + 1), &value);
    if (!ok) return CommandResult::Error("error: invalid choice \"" + a + "\"\n" + kScheduleUsage);
    if (pins.count(index) != 0) {
      return CommandResult::Error("error: choice point " + std::to_string(index) +
                                  " is pinned twice");
    }
    pins[index] = value;
    next = index + 1;
  }
  ctx.sim.Steer(std::move(pins), lag);
  return {};
}

}  // namespace lab
