#pragma once
// Sweep: random scenarios over many seeds with the checker attached. RunSeed plays one seed's
// scenario (scenario.h) in a fresh Lab, checking every scheduler step, then the settled-state
// invariants after the quiet phase; CheckScript does the same for a given lab script (the
// replay of a failure). Behind `rlab sweep` and `rlab check`.
// No Go counterpart (TigerBeetle's VOPR: a seed in, a reproducible failure out).
// Teaching: the simulation always runs with seed 1; the sweep's seed only drives the scenario,
// so a failing seed's script replays as-is with `rlab check FILE` (or `rlab --keep-going FILE`).
// Single-threaded.

#include <cstdint>
#include <string>
#include <vector>

#include "core/check/scenario.h"
#include "core/check/violation.h"

namespace check {

struct SeedResult {
  uint64_t seed = 0;
  std::vector<Violation> violations;  // empty = every invariant held
  uint64_t steps = 0;                 // scheduler events run
  uint64_t steps_checked = 0;         // per-step checks run
  std::string trace_hash;
  std::string script;                 // the session as a lab script that replays it
  bool ok() const { return violations.empty(); }
};

// RunSeed generates and plays one scenario with the checker attached.
SeedResult RunSeed(uint64_t seed, const ScenarioOptions& options);

// CheckScript runs a lab script (keep-going) with the checker attached, then checks the
// settled-state invariants. base_dir resolves `-f` paths.
SeedResult CheckScript(const std::string& text, const std::string& base_dir);

// FailureReport renders a failing seed for a person: seed, violations, how to replay, script.
std::string FailureReport(const SeedResult& result, const std::string& script_path);

}  // namespace check
