#include "core/lab/lab.h"

#include <limits>
#include <utility>

#include "core/base/assert.h"
#include "core/sim/cause_scope.h"

namespace lab {
namespace {

struct CommandEntry {
  const char* name;
  CommandFn fn;
};

// Kubectl runs a kubectl command (core/kubectl) with the narrow objects it uses: the learner's
// client, the API server's read-only view, the clock and the files.
template <kubectl::CommandFn F>
CommandResult Kubectl(CommandContext& ctx, const std::vector<std::string>& args) {
  kubectl::Context k{ctx.sim.learner(), ctx.sim.apiserver(), ctx.sim.clock(), ctx.files,
                     ctx.base_dir, ctx.heredoc, QuoteWord};
  return F(k, args);
}

// The dispatch table: first word -> command. `kubectl` in front is optional.
const CommandEntry kCommands[] = {
    {"apply", Kubectl<kubectl::RunApply>},
    {"create", Kubectl<kubectl::RunCreate>},
    {"get", Kubectl<kubectl::RunGet>},
    {"describe", Kubectl<kubectl::RunDescribe>},
    {"patch", Kubectl<kubectl::RunPatch>},
    {"delete", Kubectl<kubectl::RunDelete>},
    {"label", Kubectl<kubectl::RunLabel>},
    {"annotate", Kubectl<kubectl::RunAnnotate>},
    {"run", RunRun},
    {"step", RunStep},
    {"time", RunTime},
    {"echo", RunEcho},
    {"mark", RunMark},
    {"budget", RunBudget},
    {"trace", RunTrace},
    {"expect", RunExpect},
    {"wait", Kubectl<kubectl::RunWait>},
    {"fault", RunFault},
    {"operator", RunOperator},
    {"queue", RunQueue},
    {"metrics", RunMetrics},
    {"logs", RunLogs},
    {"scale", RunScale},
    {"kill", RunKill},
    {"export", RunExport},
    {"schedule", RunSchedule},
    {"replace", Kubectl<kubectl::RunReplace>},
    {"why", RunWhy},
};

}  // namespace

Lab::Lab(const SimulationOptions& options)
    : sim_(std::make_unique<Simulation>(options)), module_loader_(DefaultModuleOperatorLoader()) {}

CommandResult Lab::Execute(const ScriptLine& line, const std::string& base_dir) {
  if (running()) {
    return CommandResult::Error("error: \"" + running_->line.text +
                                "\" is still running (a shared script is being replayed); "
                                "wait for it or stop it first");
  }
  if (!Start(line, base_dir)) {
    while (!Continue(std::numeric_limits<uint64_t>::max())) {
    }
  }
  return TakeResult();
}

bool Lab::Start(const ScriptLine& line, const std::string& base_dir) {
  RLAB_ASSERT(!running(), "a command is still running");
  std::vector<std::string> words = CommandWords(line);
  const std::string command = words.empty() ? "" : words[0];
  std::vector<std::string> args(words.begin() + (words.empty() ? 0 : 1), words.end());
  CommandResult result;
  const CommandEntry* entry = nullptr;
  for (const CommandEntry& e : kCommands) {
    if (command == e.name) entry = &e;
  }
  const uint64_t executed_before = sim_->scheduler().executed();
  {
    // Every command's API requests are the learner's: cause 0.
    const sim::CauseScope learner_cause(sim_->trace(), sim::kNoCause);
    if (words.empty()) {
      // nothing to run (the line held only words the parser dropped)
    } else if (command == "expect" && args.size() >= 2 && args[0] == "error") {
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
      ctx.module_loader = &module_loader_;
      result = entry->fn(ctx, args);
    }
  }
  running_ = std::make_unique<RunningCommand>();
  running_->line = line;
  running_->goals = std::move(result.goals);
  result.goals.clear();
  running_->result = std::move(result);
  running_->budget_left = sim_->budget().events;
  running_->executed_before = executed_before;
  running_->time_before = sim_->clock().Now();
  if (words.empty()) {  // an empty line is not logged, as before
    running_->finished = true;
    return true;
  }
  if (running_->goals.empty()) {
    Finish();
    return true;
  }
  return false;
}

bool Lab::Continue(uint64_t slice) {
  RLAB_ASSERT(running_ != nullptr, "Continue without a running command");
  RunningCommand& c = *running_;
  if (c.finished) return true;
  bool done = true;
  {
    // The goals' own steps run the scheduler, whose events carry their causes; what the command
    // does between them is the learner's.
    const sim::CauseScope learner_cause(sim_->trace(), sim::kNoCause);
    while (c.goal < c.goals.size()) {
      if (c.run == nullptr) c.run = std::make_unique<GoalRun>(*sim_, c.goals[c.goal]);
      const uint64_t before = c.run->ran();
      const bool ended = c.run->Advance(slice, &c.budget_left);
      slice -= c.run->ran() - before;
      if (!ended) {
        done = false;
        break;
      }
      const GoalOutcome outcome = c.run->outcome();
      if (outcome == GoalOutcome::kBudget) {
        // The goal reports what it did (`step` lists its events); the budget says where it stopped.
        if (c.goals[c.goal].report) c.goals[c.goal].report(outcome, c.result);
        c.result.AddError(BudgetMessage(c));
        c.goal = c.goals.size();  // the goals after it are not waited for
        break;
      }
      if (c.goals[c.goal].report) c.goals[c.goal].report(outcome, c.result);
      c.run.reset();
      ++c.goal;
    }
  }
  if (done) Finish();
  return done;
}

bool Lab::Interrupt() {
  if (!running()) return false;
  RunningCommand& c = *running_;
  const std::vector<std::string> words = CommandWords(c.line);
  const std::string command = words.empty() ? "" : words[0];
  if (command != "run" && command != "step" && command != "wait") return false;
  const uint64_t ran = sim_->scheduler().executed() - c.executed_before;
  c.run.reset();
  c.result.out += "interrupted after " + std::to_string(ran) + " event" + (ran == 1 ? "" : "s") +
                  ", at t=" + base::FormatDuration(sim_->clock().Now()) + " (logged as `step " +
                  std::to_string(ran) + "`)\n";
  if (ran > 0) {
    log_.push_back(LoggedCommand{{"step", std::to_string(ran)}, std::nullopt, true, ran,
                                 sim_->clock().Now()});
  }
  c.finished = true;
  return true;
}

void Lab::Finish() {
  RunningCommand& c = *running_;
  c.run.reset();
  log_.push_back(LoggedCommand{c.line.argv, c.line.heredoc, c.result.ok,
                               sim_->scheduler().executed() - c.executed_before,
                               sim_->clock().Now()});
  c.finished = true;
}

CommandResult Lab::TakeResult() {
  RLAB_ASSERT(running_ != nullptr && running_->finished, "TakeResult before the command finished");
  CommandResult result = std::move(running_->result);
  running_.reset();
  return result;
}

std::string Lab::BudgetMessage(const RunningCommand& c) const {
  const Goal& goal = c.goals[c.goal];
  const uint64_t ran = sim_->scheduler().executed() - c.executed_before;
  const size_t queued = sim_->scheduler().pending();
  std::string message = "error: stopped at the budget of " + std::to_string(sim_->budget().events) +
                        " scheduler events per command, after " + std::to_string(ran) +
                        " events, at t=" + base::FormatDuration(sim_->clock().Now()) + " with " +
                        std::to_string(queued) + " event" + (queued == 1 ? "" : "s") +
                        " still queued (nothing was lost; the simulation is usable)";
  const std::string resume = goal.resume ? goal.resume() : "";
  if (!resume.empty()) message += ". Continue with: " + resume;
  return message;
}

CommandResult Lab::ExecuteText(const std::string& text, const std::string& base_dir) {
  auto line = ParseCommandLine(text);
  if (!line.ok()) return CommandResult::Error(line.status().message());
  return Execute(*line, base_dir);
}

CommandResult Lab::Evaluate(const std::string& text, const std::string& base_dir) {
  auto line = ParseCommandLine(text);
  if (!line.ok()) return CommandResult::Error(line.status().message());
  const std::vector<std::string> words = CommandWords(*line);
  if (words.size() < 2 || words[0] != "expect" ||
      (words[1] != "get" && words[1] != "count" && words[1] != "trace")) {
    return CommandResult::Error("error: a check is `expect get|count|trace …`, not \"" + text +
                                "\"");
  }
  const std::vector<std::string> args(words.begin() + 1, words.end());
  const sim::CauseScope learner_cause(sim_->trace(), sim::kNoCause);
  CommandContext ctx{*sim_, base_dir, marks_, line->heredoc, *files_, language_};
  ctx.module_loader = &module_loader_;
  CommandResult result = RunExpect(ctx, args);
  RLAB_ASSERT(result.goals.empty(), "expect get|count|trace never waits");
  return result;
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
