#pragma once
// ScenarioGenerator: a seeded random scenario, produced one lab-language command at a time —
// random manifests (RayCluster with random groups/replicas/suspend, RayJob, Deployment,
// InferenceService, all within validation limits), random user actions (patch replicas,
// suspend, scale, delete, kill a Pod, a namespace with workloads created and deleted) and random
// faults (API errors, 409 storms, watch drops — also timed into a RayJob's submission, between
// its submitter Job's creation and its Pod's start — cache lag, operator restarts, leader loss,
// node failures), then a quiet phase that clears the faults, brings the nodes back and runs
// until the system settles.
// No Go counterpart (TigerBeetle's VOPR workload generator, FoundationDB's workloads).
// Teaching: the generator draws from its own PRNG and only *reads* the simulation (to pick a
// Pod that exists), so the commands it emits — the session's command log — replay the same run
// with `rlab FILE`.
// Every draw is its own statement: the operands of one `a + b + c` are evaluated in an order
// C++ leaves to the compiler (GCC and clang differ), so two draws in one expression made a seed
// a different scenario natively and in WebAssembly. scripts/determinism.sh compares a sweep.
// Single-threaded.

#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/prng.h"

namespace lab {
class Simulation;
}  // namespace lab

namespace check {

struct ScenarioOptions {
  // actions is how many random actions follow the initial manifests. Defaults to 12.
  int actions = 12;
  // quiet is how long the quiet phase runs, in seconds. Defaults to 330: past KubeRay's
  // unconditional 300 s requeue (RAYCLUSTER_DEFAULT_REQUEUE_SECONDS), the only thing that fixes
  // a status written from a stale cache (the reconcile compares against its cached RayCluster,
  // so a lagging cache can make it skip the write; sweep seed 1045 with --steps 30).
  int quiet_seconds = 330;
};

class ScenarioGenerator {
 public:
  ScenarioGenerator(uint64_t seed, ScenarioOptions options);

  // Setup returns the opening commands (settings and manifests) as lab-script text.
  std::string Setup();
  // NextAction returns one random action (a command and a `run`) as lab-script text; it may
  // read sim to pick an existing object. Returns "" when the actions are used up.
  std::string NextAction(lab::Simulation& sim);
  // Quiet returns the closing commands: clear faults, nodes up, run until settled.
  std::string Quiet();

 private:
  std::string RayClusterManifest(const std::string& name);
  // RayClusterIn and DeploymentIn place the object in namespace ns ("": the default namespace).
  std::string RayClusterIn(const std::string& name, const std::string& ns);
  std::string RayJobManifest(const std::string& name);
  std::string DeploymentManifest(const std::string& name);
  std::string DeploymentIn(const std::string& name, const std::string& ns);
  std::string InferenceServiceManifest(const std::string& name);
  std::string Run(int max_seconds);
  std::string Fault(lab::Simulation& sim);
  std::string UserAction(lab::Simulation& sim);
  // SubmissionWatchDrop applies a new RayJob, waits until KubeRay has created its submitter Job
  // (jobDeploymentStatus Running) and drops watches while that Job's Pod is still starting.
  std::string SubmissionWatchDrop();
  // NamespaceWithWorkloads creates a namespace holding a Deployment and a RayCluster;
  // DeleteNamespace deletes one created earlier (the namespace lifecycle: Terminating, contents
  // deleted, then gone).
  std::string NamespaceWithWorkloads();
  std::string DeleteNamespace();

  sim::Prng prng_;
  ScenarioOptions options_;
  int actions_done_ = 0;
  int next_object_ = 1;
  std::vector<std::string> rayclusters_, deployments_, isvcs_, rayjobs_;
  std::vector<std::string> namespaces_;  // created by NamespaceWithWorkloads, not yet deleted
  std::vector<std::string> nodes_down_;
};

}  // namespace check
