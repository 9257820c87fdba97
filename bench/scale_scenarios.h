#pragma once
// Scale scenarios: the workloads issue 4 and 7 measure (1,000 RayClusters of 10 workers, one
// Deployment of N replicas, a 10,000-step session replayed for a rewind), built as ordinary lab
// scripts and run to "all ready" on one Simulation (core/lab). The `rlab bench` subcommand wraps
// them with a wall clock and a memory probe, so the native binary and the WebAssembly one under
// Node measure the very same code; nothing here reads a wall clock.
// No Go counterpart (kubectl apply of many manifests, then watching until everything is ready).
// Teaching: the clusters are sized so capacity never limits readiness (nodes scale with the Pod
// count), because the figure is the machinery's cost, not the scheduler's packing.
// Single-threaded; deterministic like every lab script (same seed → same trace hash).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/lab/lab.h"

namespace bench {

// ScaleScenario is a prepared workload: options for the simulation, a setup script (operators
// up; not measured), the measured script (the apply) and the objects whose readiness ends it.
struct ScaleScenario {
  std::string name;  // "rayclusters", "deployment", "rewind" or "rewind-checkpoints"
  int n = 0;         // the size argument (clusters, replicas, steps)
  int64_t pods = 0;  // Pods the workload asks for
  lab::SimulationOptions options;
  std::string setup_script;
  std::string measured_script;
  // ready_kind/ready_names: every one of these objects must be ready at the end ("" = none).
  std::string ready_kind;
  std::vector<std::string> ready_names;
};

// ScaleScenarioNames lists the scenarios ScaleScenarioFor knows, for usage messages.
const char* ScaleScenarioNames();

// ScaleScenarioFor builds scenario `name` of size n (n <= 0 picks the default: 1,000 clusters,
// 100 replicas, 10,000 steps). Errors name the bad argument.
base::StatusOr<ScaleScenario> ScaleScenarioFor(const std::string& name, int n, uint64_t seed);

// ScaleFigures are the simulation-side figures of one run (wall time and memory are the
// caller's, measured around RunScaleScenario's phases).
struct ScaleFigures {
  bool ok = false;          // the scripts ran and every ready object became ready
  std::string error;        // why not, when !ok
  int64_t ready = 0;        // ready objects at the end
  base::Duration virtual_time = 0;  // from the measured script's start to the last object ready
  uint64_t api_writes = 0;          // persisted writes during the measured phase
  int64_t reconciles = 0;           // reconcile.start records during the measured phase (Tally)
  int64_t trace_events = 0;         // trace records during the measured phase
  int64_t scheduler_events = 0;     // kernel events run during the measured phase
  std::string trace_hash;           // the whole trace's hash at the end (Tally; determinism)
};

// ScaleRun runs one scenario in two phases so a caller can time the second alone.
class ScaleRun {
 public:
  explicit ScaleRun(ScaleScenario scenario);
  // Setup runs the setup script (operators installed and available).
  base::Status Setup();
  // Measure runs the measured script, then advances virtual time until every ready object is
  // ready (at most `timeout` of virtual time). For "rewind" it replays the session's command log
  // into a fresh Lab instead (what the browser's rewind does without checkpoints) and checks the
  // trace is identical. "rewind-checkpoints" is not measured here but by bench::RewindProbe.
  ScaleFigures Measure(base::Duration timeout = 10 * base::kMinute);
  // Tally completes the figures of Measure with what only the bench needs, read off the trace
  // once the clock has stopped: the reconciles counted and the trace hash (for "rewind", also
  // whether the replay's trace is the session's). The page computes neither.
  void Tally(ScaleFigures* figures) const;
  lab::Lab& lab() { return *lab_; }
  const ScaleScenario& scenario() const { return scenario_; }

 private:
  bool IsReady(const std::string& name) const;
  ScaleFigures MeasureRewind();

  ScaleScenario scenario_;
  std::unique_ptr<lab::Lab> lab_;
  std::unique_ptr<lab::Lab> replayed_;  // the rewind scenario's fresh session
  int64_t measured_from_seq_ = 0;  // the last trace record before the measured phase
};

}  // namespace bench
