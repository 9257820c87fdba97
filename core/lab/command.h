#pragma once
// The lab language's command plumbing: what a command receives and what it returns
// (CommandResult and the goals of advance.h are kubectl's, core/kubectl/command.h).
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
#include "core/kubectl/file_system.h"
#include "core/lab/advance.h"
#include "core/lab/module_operator.h"
#include "core/lab/simulation.h"

namespace lab {

// CommandContext is the state a command may read and change.
struct CommandContext {
  Simulation& sim;
  std::string base_dir;                    // folder `-f` paths are relative to
  std::map<std::string, int64_t>& marks;   // mark name -> last trace seq at the mark
  std::optional<std::string> heredoc;      // the command's `<<EOF` body, if any
  kubectl::FileSystem& files;              // what `-f` reads and `export` writes
  std::string language = "en";             // "en" or "zh": what `why` speaks without --lang
  // module_loader builds `operator load` operators (module_operator.h); null: no engine.
  const ModuleOperatorLoader* module_loader = nullptr;
};

using CommandFn = CommandResult (*)(CommandContext& ctx, const std::vector<std::string>& args);

// The lab language's own commands, by first word (args exclude the command word itself); the
// kubectl commands are core/kubectl/command.h's.
CommandResult RunRun(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunStep(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunTime(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunEcho(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunMark(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunBudget(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunTrace(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunExpect(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunFault(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunOperator(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunQueue(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunMetrics(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunLogs(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunScale(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunKill(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunExport(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunSchedule(CommandContext& ctx, const std::vector<std::string>& args);
CommandResult RunWhy(CommandContext& ctx, const std::vector<std::string>& args);

}  // namespace lab
