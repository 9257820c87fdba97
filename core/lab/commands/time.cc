// run, step, time, echo, mark and budget: the commands that move or name virtual time, or bound
// how far one command may move it.
// No Go counterpart (DESIGN.md "What moves time").

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "core/kubectl/flags.h"
#include "core/lab/command.h"

namespace lab {
namespace {

// DescribeEvent renders a trace record on one line for humans: "#12 t=1.5ms watch.event k=v …".
std::string DescribeEvent(const sim::TraceEvent& e) {
  std::string line = "#" + std::to_string(e.seq) + " t=" + base::FormatDuration(e.t) + " ";
  line += e.type;
  for (const auto& [key, value] : e.fields) {
    if (!value.is_int && !value.is_bool && value.s.empty()) continue;
    line += ' ';
    line += key;
    line += '=';
    line += value.Text();
  }
  return line + "\n";
}

// kMaxDescribedEvents bounds what one `step` prints: the trace keeps every record, so a long
// step's output is capped instead of growing with the budget.
constexpr int64_t kMaxDescribedEvents = 10'000;

// DescribeEventsSince renders the trace records after seq `before`, one a line, capped.
std::string DescribeEventsSince(const sim::Trace& trace, int64_t before) {
  std::string out;
  const auto& events = trace.events();
  const int64_t last = trace.last_seq();
  const int64_t shown_last = std::min(last, before + kMaxDescribedEvents);
  for (int64_t seq = before + 1; seq <= shown_last; ++seq) {
    out += DescribeEvent(events[static_cast<size_t>(seq - 1)]);
  }
  if (shown_last < last) {
    out += "... and " + std::to_string(last - shown_last) +
           " more trace records (`trace` lists every record)\n";
  }
  return out;
}

}  // namespace

std::string HumanTraceLine(const sim::TraceEvent& e) { return DescribeEvent(e); }

CommandResult RunRun(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args.size() != 1) return CommandResult::Error("error: usage: run DURATION (e.g. run 5s)");
  auto d = base::ParseDuration(args[0]);
  if (!d.ok()) return CommandResult::Error("error: " + d.status().message());
  if (*d < 0) return CommandResult::Error("error: run needs a positive duration");
  Simulation& sim = ctx.sim;
  Goal goal;
  goal.deadline = AddSaturating(sim.clock().Now(), *d);
  goal.resume = [&sim, deadline = goal.deadline] {
    return "run " + base::FormatDuration(deadline - sim.clock().Now());
  };
  CommandResult result;
  result.goals.push_back(std::move(goal));
  return result;
}

CommandResult RunStep(CommandContext& ctx, const std::vector<std::string>& args) {
  int64_t n = 1;
  if (args.size() > 1) return CommandResult::Error("error: usage: step [N]");
  if (args.size() == 1) {
    char* end = nullptr;
    errno = 0;
    n = std::strtoll(args[0].c_str(), &end, 10);
    if (end == args[0].c_str() || *end != '\0' || n <= 0 || errno == ERANGE) {
      return CommandResult::Error("error: invalid step count \"" + args[0] + "\"");
    }
  }
  Simulation& sim = ctx.sim;
  const int64_t before = sim.trace().last_seq();
  const uint64_t executed_before = sim.scheduler().executed();
  Goal goal;
  goal.max_events = static_cast<uint64_t>(n);
  goal.report = [&sim, before, executed_before](GoalOutcome, CommandResult& result) {
    result.out += DescribeEventsSince(sim.trace(), before);
    if (sim.scheduler().executed() == executed_before) {
      result.out += "nothing to do: no events are pending\n";
    }
  };
  goal.resume = [&sim, n, executed_before] {
    return "step " + std::to_string(static_cast<uint64_t>(n) -
                                    (sim.scheduler().executed() - executed_before));
  };
  CommandResult result;
  result.goals.push_back(std::move(goal));
  return result;
}

CommandResult RunTime(CommandContext& ctx, const std::vector<std::string>& args) {
  if (!args.empty()) return CommandResult::Error("error: usage: time");
  CommandResult result;
  const base::SimTime now = ctx.sim.clock().Now();
  result.out = base::FormatDuration(now) + " (" + base::FormatRfc3339(now) + ")\n";
  return result;
}

CommandResult RunEcho(CommandContext&, const std::vector<std::string>& args) {
  CommandResult result;
  for (size_t i = 0; i < args.size(); ++i) result.out += (i ? " " : "") + args[i];
  result.out += "\n";
  return result;
}

CommandResult RunMark(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args.size() != 1) return CommandResult::Error("error: usage: mark NAME");
  ctx.marks[args[0]] = ctx.sim.trace().last_seq();
  return {};
}

// `budget` prints what one command may run and what the sandbox may hold; `budget --events N`
// lowers the events per command for the rest of the session (a lesson or a test that shows a
// command stopping at the budget needs no million events for it). It never raises the budget:
// a share link or a pasted script must stay bounded by the sandbox's own.
CommandResult RunBudget(CommandContext& ctx, const std::vector<std::string>& args) {
  const Budget& budget = ctx.sim.budget();
  auto flags = kubectl::ParseFlags(args, {{"events", 0, kubectl::FlagSpec::kInt, ""}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  if (!flags->positional.empty()) return CommandResult::Error("error: usage: budget [--events N]");
  CommandResult result;
  if (!flags->Has("events")) {
    result.out = "events per command: " + std::to_string(budget.events) +
                 "\npods: " + std::to_string(budget.pods) +
                 "\nobjects: " + std::to_string(budget.objects) + "\n";
    return result;
  }
  const int64_t n = flags->GetInt("events");
  if (n <= 0) return CommandResult::Error("error: --events must be a positive count of events");
  if (static_cast<uint64_t>(n) > budget.events) {
    return CommandResult::Error("error: the budget can only be lowered: at most " +
                                std::to_string(budget.events) + " events per command");
  }
  ctx.sim.LowerEventBudget(static_cast<uint64_t>(n));
  result.out = "budget: " + std::to_string(n) + " scheduler events per command\n";
  return result;
}

}  // namespace lab
