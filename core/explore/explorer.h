#pragma once
// Explorer: the race explorer (issue 7). It runs a scenario (a lab script) again and again, each
// time under another schedule — which choice points (core/sim/steering.h: same-instant order,
// worker slots, operator replicas, cache lag) leave their default — checks invariants after every
// scheduler step, and stops at the first schedule that breaks one. It reports that schedule as
// a replayable lab script (the scenario with its `schedule` line pinned) and as a share URL.
// No Go counterpart; follows CHESS (Musuvathi et al., OSDI 2008): systematic search over
// explicit choice points, bounded by the number of non-default choices (iterative context
// bounding: every schedule with k deviations before any with k+1), plus state deduplication.
// Simplified: deviations are only tried after the last pinned one (a schedule is grown at its
// end); deduplication compares Simulation::StateFingerprint at the choice point plus the label
// of the option taken (look-alike options are tried once), a heuristic (caches are summarised
// by the trace records that filled them).
// Single-threaded; each run is a fresh Lab with the same seed, so runs are reproducible.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/time.h"
#include "core/check/invariant.h"

namespace explore {

struct ExploreOptions {
  // bound is K: the most non-default choices a schedule may make. Defaults to 2.
  int bound = 2;
  // max_runs stops the search after this many runs. Defaults to 500.
  int max_runs = 500;
  // lag is how late a lagged delivery arrives, unless the scenario's `schedule` line says
  // --lag. Defaults to 10ms.
  base::Duration lag = 10 * base::kMillisecond;
  uint64_t seed = 1;                     // Defaults to 1.
  std::string base_dir;                  // resolves the scenario's `-f` paths
  std::string page = "http://127.0.0.1:8080/";  // the share URL's page (scripts/run.sh's)
  // machinery also checks core/check's per-step invariants (watch order and completeness,
  // objects intact, owner alive, queue unique, one worker per key) after every step. Off by
  // default: it costs ~0.3 ms per step, and the scenario's own invariants are what a lesson asks.
  bool machinery = false;
};

// Violation is the first broken invariant of a run.
struct Violation {
  std::string invariant;
  std::string detail;
  base::SimTime at = 0;
  uint64_t step = 0;  // Scheduler::executed() when found
};

struct ExploreResult {
  int runs = 0;
  int choice_points = 0;      // choice points met, summed over runs
  int max_choice_points = 0;  // in the longest run
  int pruned = 0;             // schedules skipped as already explored (deduplication)
  std::map<std::string, int> by_kind;  // choice points per kind, summed over runs
  std::optional<Violation> violation;
  std::map<size_t, size_t> schedule;  // the violating schedule: choice point -> option
  std::vector<std::string> deviations;  // each non-default choice, described
  std::string script;                 // replays the violation
  std::string url;                    // the same script as a share link
  bool exhausted = false;             // every schedule within the bound was run
};

// Invariants makes a fresh set of the scenario's invariants for one run (an invariant may keep
// cursors between its checks, so runs never share one).
using Invariants = std::function<std::vector<std::unique_ptr<check::Invariant>>()>;

// DefaultInvariants is what `rlab explore` checks: OneDeploymentPerInferenceService.
std::vector<std::unique_ptr<check::Invariant>> DefaultInvariants();

// Explore searches scenario (a lab script holding at most one bare `schedule [--lag D]` line
// where the window starts; without one the window is the whole script). The invariants are
// checked after every step, through a check::Checker. Errors: the scenario does not parse, its
// marker pins choices, or the default schedule already fails a command before any choice point
// (kInvalid).
base::StatusOr<ExploreResult> Explore(const std::string& scenario, const Invariants& invariants,
                                      const ExploreOptions& options);

// PinnedScript is scenario with its marker replaced by `schedule --lag D I=V …` (or that line
// prepended), headed by comment lines.
std::string PinnedScript(const std::string& scenario, const std::map<size_t, size_t>& schedule,
                         base::Duration lag, const std::vector<std::string>& comments);

// FormatReport renders a result as `rlab explore` prints it.
std::string FormatReport(const ExploreResult& result, const ExploreOptions& options);

}  // namespace explore
