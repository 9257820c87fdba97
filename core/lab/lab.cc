#include "core/lab/lab.h"

#include <utility>

namespace lab {
namespace {

struct CommandEntry {
  const char* name;
  CommandFn fn;
};

// The dispatch table: first word -> command. `kubectl` in front is optional.
const CommandEntry kCommands[] = {
    {"apply", RunApply},       {"create", RunCreate},     {"get", RunGet},
    {"describe", RunDescribe}, {"patch", RunPatch},       {"delete", RunDelete},
    {"label", RunLabel},       {"annotate", RunAnnotate}, {"run", RunRun},
    {"step", RunStep},         {"time", RunTime},         {"echo", RunEcho},
    {"mark", RunMark},         {"trace", RunTrace},       {"expect", RunExpect},
    {"wait", RunWait},         {"fault", RunFault},       {"operator", RunOperator},
    {"queue", RunQueue},       {"metrics", RunMetrics},   {"logs", RunLogs},
    {"scale", RunScale},       {"kill", RunKill},         {"export", RunExport},
    {"schedule", RunSchedule}, {"replace", RunReplace},   {"why", RunWhy},
};

}  // namespace

CommandResult CommandResult::Error(std::string message) {
  CommandResult result;
  result.ok = false;
  result.err = std::move(message);
  if (!result.err.empty() && result.err.back() != '\n') result.err += "\n";
  return result;
}

void CommandResult::AddError(const std::string& message) {
  ok = false;
  err += message;
  if (err.empty() || err.back() != '\n') err += "\n";
}

Lab::Lab(const SimulationOptions& options) : sim_(std::make_unique<Simulation>(options)) {}

CommandResult Lab::Execute(const ScriptLine& line, const std::string& base_dir) {
  std::vector<std::string> words = CommandWords(line);
  if (words.empty()) return {};
  const std::string command = words[0];
  std::vector<std::string> args(words.begin() + 1, words.end());
  CommandResult result;
  const CommandEntry* entry = nullptr;
  for (const CommandEntry& e : kCommands) {
    if (command == e.name) entry = &e;
  }
  // Every command's API requests are the learner's: cause 0.
  const int64_t saved_cause = sim_->trace().current_cause();
  const uint64_t executed_before = sim_->scheduler().executed();
  sim_->trace().set_current_cause(sim::kNoCause);
  if (command == "expect" && args.size() >= 2 && args[0] == "error") {
    // `expect error CMD…` succeeds only when CMD fails; its error text is shown on stdout so a
    // lesson can display the message the learner is meant to read.
    ScriptLine inner = line;
    inner.argv.assign(args.begin() + 1, args.end());
    CommandResult failed = Execute(inner, base_dir);
    log_.pop_back();
    if (failed.ok) {
      result = CommandResult::Error("expect failed: \"" + inner.argv[0] +
                                    "\" succeeded, want an error");
      result.out = failed.out;
    } else {
      result.out = failed.out + failed.err;
    }
  } else if (entry == nullptr) {
    result = CommandResult::Error("error: unknown command \"" + command + "\"");
  } else {
    CommandContext ctx{*sim_, base_dir, marks_, line.heredoc, *files_, language_};
    result = entry->fn(ctx, args);
  }
  sim_->trace().set_current_cause(saved_cause);
  log_.push_back(LoggedCommand{line.argv, line.heredoc, result.ok,
                               sim_->scheduler().executed() - executed_before,
                               sim_->clock().Now()});
  return result;
}

CommandResult Lab::ExecuteText(const std::string& text, const std::string& base_dir) {
  auto line = ParseCommandLine(text);
  if (!line.ok()) return CommandResult::Error(line.status().message());
  return Execute(*line, base_dir);
}

Lab::ScriptOutcome Lab::RunScript(
    const std::string& text, const std::string& base_dir, bool keep_going,
    const std::function<void(const ScriptLine&, const CommandResult&)>& on_result) {
  ScriptOutcome outcome;
  auto lines = ParseScript(text);
  if (!lines.ok()) {
    outcome.parsed = false;
    outcome.ok = false;
    outcome.parse_error = lines.status().message();
    return outcome;
  }
  for (const ScriptLine& line : *lines) {
    CommandResult result = Execute(line, base_dir);
    ++outcome.commands_run;
    if (on_result) on_result(line, result);
    if (!result.ok) {
      outcome.ok = false;
      if (!keep_going) break;
    }
  }
  return outcome;
}

std::string Lab::ReplayScript() const {
  std::string out = "# replay of a Reconcile Lab session (seed " + std::to_string(sim_->seed()) +
                    ")\n";
  for (const LoggedCommand& cmd : log_) out += FormatCommand(cmd.argv, cmd.heredoc);
  return out;
}

}  // namespace lab
