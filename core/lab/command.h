#pragma once
// The lab language's command plumbing: what a command receives and what it returns.
// No Go counterpart; the output shapes follow kubectl (see DESIGN.md "The lab language").
// Single-threaded; commands act at the current virtual instant unless they advance time
// (run, step, wait, a waiting delete).

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/api/kind.h"
#include "core/base/status.h"
#include "core/lab/advance.h"
#include "core/lab/file_system.h"
#include "core/lab/simulation.h"

namespace lab {

// CommandResult is what one command printed; ok=false when it failed.
struct CommandResult {
  bool ok = true;
  std::string out;  // stdout, each line ending in "\n"
  std::string err;  // stderr, kubectl-style ("error: …", "Error from server (…): …")
  // goals is what a time-moving command still has to wait for (advance.h); the Lab drives them
  // under the command's budget after the command function returns, and empties the list.
  std::vector<Goal> goals;

  static CommandResult Error(std::string message);
  void AddError(const std::string& message);
};

// CommandContext is the state a command may read and change.
struct CommandContext {
  Simulation& sim;
  std::string base_dir;                    // folder `-f` paths are relative to
  std::map<std::string, int64_t>& marks;   // mark name -> last trace seq at the mark
  std::optional<std::string> heredoc;      // the command's `<<EOF` body, if any
  FileSystem& files;                       // what `-f` reads and `export` writes
  std::string language = "en";             // "en" or "zh": what `why` speaks without --lang
};

using CommandFn = CommandResult (*)(CommandContext& ctx, const std::vector<std::string>& args);

// SplitJsonPathCondition splits "{.status.state}=ready" into the template and the wanted value
// (has_value=false for a bare "{…}"). Returns false when the braces do not balance.
bool SplitJsonPathCondition(const std::string& text, std::string* tmpl, std::string* value,
                            bool* has_value);

// Registered commands, by first word (args exclude the command word itself).
CommandResult RunApply(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunCreate(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunGet(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunDescribe(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunPatch(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunDelete(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunLabel(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunAnnotate(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunRun(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunStep(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunTime(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunEcho(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunMark(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunTrace(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunExpect(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunWait(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunFault(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunOperator(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunQueue(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunMetrics(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunLogs(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunScale(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunKill(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunExport(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunSchedule(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunReplace(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunWhy(CommandContext& ctx, const std::vector<std::string>& args);

}  // namespace lab
