#pragma once
// The kubectl commands' plumbing: what a command receives (Context: the learner's client, the
// server's read-only view, the clock, the files) and what it returns (CommandResult: its output,
// and the Goals it still waits for). The lab (core/lab) dispatches these commands by their first
// word, alongside its own, and drives their goals under the command's event budget.
// Mirrors: kubectl pkg/cmd/util (cmdutil.Factory, what every command gets) and the
// `kubectl wait` / `kubectl delete --wait` loops, which watch until a condition holds.
// Simplified: one cluster and one kubeconfig user (kubernetes-admin); a command never moves time
// itself: it describes what it waits for as Goals, so the lab can drive them in slices.
// Single-threaded; commands act at the current virtual instant.

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/apiserver/api_server.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/kubectl/file_system.h"
#include "core/sim/clock.h"

namespace kubectl {

struct CommandResult;

// kNoDeadline is a goal without a deadline (step N).
constexpr base::SimTime kNoDeadline = std::numeric_limits<base::SimTime>::max();
// AddSaturating is t + d, clamped to kNoDeadline (a duration of up to 2^63 µs may follow any now).
base::SimTime AddSaturating(base::SimTime t, base::Duration d);

enum class GoalOutcome {
  kReached,   // `until` holds, `max_events` ran, or a goal without `until` reached its deadline
  kDeadline,  // the deadline came first (the clock is at the deadline)
  kIdle,      // nothing was pending before max_events ran (step)
  kBudget,    // the command's event budget ran out first (the clock is at the last event)
};

// Goal is one thing a time-moving command waits for (core/lab/advance.h drives it).
struct Goal {
  std::function<bool()> until;  // null: no condition
  base::SimTime deadline = kNoDeadline;
  uint64_t max_events = std::numeric_limits<uint64_t>::max();
  // report writes the goal's outcome into the command's result (called once, when it ends; at
  // kBudget the Lab then adds the budget's error).
  std::function<void(GoalOutcome, CommandResult&)> report;
  // resume is the command that continues this goal from where a budget stop left it
  // ("run 1h2m3s", "step 12", the wait again); shown in the budget message.
  std::function<std::string()> resume;
};

// CommandResult is what one command printed; ok=false when it failed.
struct CommandResult {
  bool ok = true;
  std::string out;  // stdout, each line ending in "\n"
  std::string err;  // stderr, kubectl-style ("error: …", "Error from server (…): …")
  // goals is what a time-moving command still has to wait for; the Lab drives them under the
  // command's budget after the command function returns, and empties the list.
  std::vector<Goal> goals;

  static CommandResult Error(std::string message);
  void AddError(const std::string& message);
};

// Context is what a kubectl command may use: the narrow objects of one simulated cluster.
struct Context {
  client::Client& client;          // the learner's client (user kubernetes-admin, never faulted)
  apiserver::ApiServer& server;    // read without a request (Peek): what a wait's goal checks
  sim::Clock& clock;               // the virtual now (ages, a wait's deadline)
  FileSystem& files;               // what `-f` reads
  std::string base_dir;            // folder `-f` paths are relative to
  std::optional<std::string> heredoc;  // the command's `<<EOF` body, if any (`-f -`)
  // quote_word spells one word in the console's syntax (lab::QuoteWord), for a goal's resume.
  std::string (*quote_word)(const std::string& word) = nullptr;
};

using CommandFn = CommandResult (*)(Context& ctx, const std::vector<std::string>& args);

// SplitJsonPathCondition splits "{.status.state}=ready" into the template and the wanted value
// (has_value=false for a bare "{…}"). Returns false when the braces do not balance.
bool SplitJsonPathCondition(const std::string& text, std::string* tmpl, std::string* value,
                            bool* has_value);

// The commands, by first word (args exclude the command word itself).
CommandResult RunApply(Context& ctx, const std::vector<std::string>& args);
CommandResult RunCreate(Context& ctx, const std::vector<std::string>& args);
CommandResult RunGet(Context& ctx, const std::vector<std::string>& args);
CommandResult RunDescribe(Context& ctx, const std::vector<std::string>& args);
CommandResult RunPatch(Context& ctx, const std::vector<std::string>& args);
CommandResult RunLabel(Context& ctx, const std::vector<std::string>& args);
CommandResult RunAnnotate(Context& ctx, const std::vector<std::string>& args);
CommandResult RunReplace(Context& ctx, const std::vector<std::string>& args);
CommandResult RunDelete(Context& ctx, const std::vector<std::string>& args);
CommandResult RunWait(Context& ctx, const std::vector<std::string>& args);

}  // namespace kubectl
