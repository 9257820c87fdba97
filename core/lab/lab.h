#pragma once
// Lab: runs the lab language against one Simulation — the one contract shared by the console,
// lessons, the rlab CLI and tests. Keeps the command log a session can be replayed from.
// No Go counterpart (kubectl plus the sandbox's own commands; DESIGN.md "The lab language").
// Simplified: one cluster and one kubeconfig user (kubernetes-admin).
// Single-threaded; commands act at the current virtual instant unless they advance time.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/lab/command.h"
#include "core/lab/script.h"
#include "core/lab/simulation.h"

namespace lab {

// LoggedCommand is one executed command, enough to replay it.
struct LoggedCommand {
  std::vector<std::string> argv;
  std::optional<std::string> heredoc;
  bool ok = true;
  // events is how many scheduler events the command ran and time_after the virtual time it left
  // (rewind.h counts steps and replays partial commands from them).
  uint64_t events = 0;
  base::SimTime time_after = 0;
};

class Lab {
 public:
  explicit Lab(const SimulationOptions& options);
  Lab(const Lab&) = delete;
  Lab& operator=(const Lab&) = delete;

  // Execute runs one parsed command to its end; `base_dir` resolves `-f` paths.
  CommandResult Execute(const ScriptLine& line, const std::string& base_dir);
  // Start and Continue run one command a slice at a time, so a long one (a share link's `run 1h`)
  // leaves the page responsive between slices. Start runs the command's immediate part and
  // returns true when it has finished; otherwise Continue drives its time-moving part for at most
  // `slice` scheduler events (the command's own budget still applies) and returns true once it
  // has finished. TakeResult then hands over its result; the command is logged when it finishes.
  // Execute is Start, Continue without a slice limit, TakeResult.
  // REQUIRES: no command is running (running() is false) for Start and Execute.
  bool Start(const ScriptLine& line, const std::string& base_dir);
  bool Continue(uint64_t slice);
  CommandResult TakeResult();
  // Interrupt ends the running command between two slices (the page's Stop). A command that only
  // moves time (run, step, wait) ends where it is and is logged as `step N`, the N scheduler
  // events it ran (not at all when it ran none), so replaying the log repeats exactly what
  // happened; TakeResult then hands over its result. Any other command (a waiting delete, whose
  // immediate part already changed the cluster) is left running: returns false.
  bool Interrupt();
  // running is true between a Start that did not finish and the Continue that finishes it.
  // Execute refuses to run another command meanwhile (an error, nothing changes).
  bool running() const { return running_ != nullptr && !running_->finished; }
  // ExecuteText parses and runs one console line (no heredoc).
  CommandResult ExecuteText(const std::string& line, const std::string& base_dir = "");
  // Evaluate runs one read-only check — `expect get|count|trace …` — without logging it, so a
  // lesson engine can re-evaluate a checklist whenever the simulation moves while the log stays
  // what the learner did (a share link replays the log). Anything else is an error.
  CommandResult Evaluate(const std::string& line, const std::string& base_dir = "");

  struct ScriptOutcome {
    bool parsed = true;     // false: the script did not parse (nothing ran)
    bool ok = true;         // every command succeeded
    int commands_run = 0;
    std::string parse_error;
  };
  // RunScript parses text and runs its commands in order, stopping at the first failure unless
  // keep_going. on_result sees each command's output as it completes.
  ScriptOutcome RunScript(const std::string& text, const std::string& base_dir, bool keep_going,
                          const std::function<void(const ScriptLine&, const CommandResult&)>&
                              on_result);

  Simulation& sim() { return *sim_; }
  // set_file_system replaces the host's files (the default, LocalFileSystem) for `-f` and
  // `export`; the browser and tests pass a MemoryFileSystem. REQUIRES: files outlives this Lab.
  void set_file_system(kubectl::FileSystem* files) { files_ = files; }
  const std::vector<LoggedCommand>& command_log() const { return log_; }
  // set_language sets what `why` speaks when no --lang is given: "en" (the default) or "zh" (the
  // page passes its language). Output only: the trace and the simulation do not depend on it.
  void set_language(std::string language) { language_ = std::move(language); }
  const std::string& language() const { return language_; }
  // set_module_operator_loader registers what `operator load` builds a learner's module with
  // (module_operator.h; core/learner's InstallModuleOperators does it). Without one, `operator
  // load` answers that this build has no JavaScript engine.
  void set_module_operator_loader(ModuleOperatorLoader loader) {
    module_loader_ = std::move(loader);
  }
  // marks maps each `mark` name to the last trace seq when it was set.
  const std::map<std::string, int64_t>& marks() const { return marks_; }
  // ReplayScript renders the command log as a script that rebuilds this session.
  std::string ReplayScript() const;

 private:
  std::unique_ptr<Simulation> sim_;
  kubectl::LocalFileSystem local_files_;
  kubectl::FileSystem* files_ = &local_files_;  // Invariant: never null.
  ModuleOperatorLoader module_loader_;          // empty: no JavaScript engine
  // RunningCommand is a command between Start and its end.
  struct RunningCommand {
    ScriptLine line;
    CommandResult result;            // what its immediate part printed, then its goals' reports
    std::vector<Goal> goals;
    size_t goal = 0;                 // the goal being driven
    std::unique_ptr<GoalRun> run;    // that goal's progress (null between goals)
    uint64_t budget_left = 0;        // events the command may still run
    uint64_t executed_before = 0;    // the scheduler's count when it started
    base::SimTime time_before = 0;   // the clock when its immediate part ended
    bool finished = false;
  };
  // Finish logs the running command; its result waits for TakeResult.
  void Finish();
  // BudgetMessage explains a budget stop: what was reached and the command that continues.
  std::string BudgetMessage(const RunningCommand& c) const;

  std::map<std::string, int64_t> marks_;
  std::vector<LoggedCommand> log_;
  std::string language_ = "en";
  std::unique_ptr<RunningCommand> running_;
};

}  // namespace lab
