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

  // Execute runs one parsed command; `base_dir` resolves `-f` paths.
  CommandResult Execute(const ScriptLine& line, const std::string& base_dir);
  // ExecuteText parses and runs one console line (no heredoc).
  CommandResult ExecuteText(const std::string& line, const std::string& base_dir = "");

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
  void set_file_system(FileSystem* files) { files_ = files; }
  const std::vector<LoggedCommand>& command_log() const { return log_; }
  // set_language sets what `why` speaks when no --lang is given: "en" (the default) or "zh" (the
  // page passes its language). Output only: the trace and the simulation do not depend on it.
  void set_language(std::string language) { language_ = std::move(language); }
  const std::string& language() const { return language_; }
  // ReplayScript renders the command log as a script that rebuilds this session.
  std::string ReplayScript() const;

 private:
  std::unique_ptr<Simulation> sim_;
  LocalFileSystem local_files_;
  FileSystem* files_ = &local_files_;  // Invariant: never null.
  std::map<std::string, int64_t> marks_;
  std::vector<LoggedCommand> log_;
  std::string language_ = "en";
};

}  // namespace lab
