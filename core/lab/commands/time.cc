// run, step, time, echo and mark: the commands that move or name virtual time.
// No Go counterpart (DESIGN.md "What moves time").

#include "core/lab/command.h"
#include "core/lab/flags.h"

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

}  // namespace

std::string HumanTraceLine(const sim::TraceEvent& e) { return DescribeEvent(e); }

CommandResult RunRun(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args.size() != 1) return CommandResult::Error("error: usage: run DURATION (e.g. run 5s)");
  auto d = base::ParseDuration(args[0]);
  if (!d.ok()) return CommandResult::Error("error: " + d.status().message());
  if (*d < 0) return CommandResult::Error("error: run needs a positive duration");
  if (!ctx.sim.RunFor(*d)) {
    return CommandResult::Error("error: event budget exhausted before " + args[0] +
                                " elapsed (a reconcile loop that never settles?)");
  }
  return {};
}

CommandResult RunStep(CommandContext& ctx, const std::vector<std::string>& args) {
  int64_t n = 1;
  if (args.size() > 1) return CommandResult::Error("error: usage: step [N]");
  if (args.size() == 1) {
    char* end = nullptr;
    n = std::strtoll(args[0].c_str(), &end, 10);
    if (end == args[0].c_str() || *end != '\0' || n <= 0) {
      return CommandResult::Error("error: invalid step count \"" + args[0] + "\"");
    }
  }
  const int64_t before = ctx.sim.trace().last_seq();
  const uint64_t ran = ctx.sim.Step(static_cast<uint64_t>(n));
  CommandResult result;
  const auto& events = ctx.sim.trace().events();
  for (int64_t seq = before + 1; seq <= ctx.sim.trace().last_seq(); ++seq) {
    result.out += DescribeEvent(events[static_cast<size_t>(seq - 1)]);
  }
  if (ran == 0) result.out += "nothing to do: no events are pending\n";
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

}  // namespace lab
