#include "bench/scale_scenarios.h"

#include <utility>

#include "core/api/object.h"

namespace bench {
namespace {

constexpr int kDefaultClusters = 1000;
constexpr int kWorkersPerCluster = 10;
constexpr int kDefaultReplicas = 100;
constexpr int kDefaultRewindSteps = 10000;
// The rewind session's workload: enough RayClusters that 10,000 steps never run out of events.
constexpr int kRewindClusters = 20;
constexpr int kMaxSize = 100000;

// NodesFor sizes the cluster so `pods` Pods fit with room to spare (100 per node of 110).
void SizeNodes(lab::SimulationOptions* options, int64_t pods) {
  const int64_t nodes = pods / 100 + 1;
  options->world.nodes.count = static_cast<int>(nodes < 3 ? 3 : nodes);
  options->world.nodes.cpu = "64";
  options->world.nodes.memory = "256Gi";
}

// RayClusterManifest is a RayCluster shaped like KubeRay's ray-cluster.sample.yaml: one head and
// one worker group of `workers` replicas, with small requests so 100 Pods fit a node.
std::string RayClusterManifest(const std::string& name, int workers) {
  const std::string w = std::to_string(workers);
  return "---\napiVersion: ray.io/v1\nkind: RayCluster\nmetadata:\n  name: " + name +
         "\nspec:\n  rayVersion: \"2.52.0\"\n  headGroupSpec:\n    rayStartParams: {}\n"
         "    template:\n      spec:\n        containers:\n        - name: ray-head\n"
         "          image: rayproject/ray:2.52.0\n"
         "          resources:\n            requests: {cpu: 500m, memory: 1Gi}\n"
         "            limits: {cpu: 500m, memory: 1Gi}\n"
         "  workerGroupSpecs:\n  - groupName: workers\n    replicas: " + w +
         "\n    minReplicas: " + w + "\n    maxReplicas: " + w +
         "\n    rayStartParams: {}\n    template:\n      spec:\n        containers:\n"
         "        - name: ray-worker\n          image: rayproject/ray:2.52.0\n"
         "          resources:\n            requests: {cpu: 500m, memory: 1Gi}\n"
         "            limits: {cpu: 500m, memory: 1Gi}\n";
}

std::string ApplyHeredoc(const std::string& yaml) {
  return "apply -f - <<EOF\n" + yaml + "EOF\n";
}

const char* kKubeRaySetup =
    "wait --for=condition=Available deploy/kuberay-operator --timeout=60s\n";

ScaleScenario RayClusters(int n, uint64_t seed) {
  ScaleScenario s;
  s.name = "rayclusters";
  s.n = n;
  s.pods = static_cast<int64_t>(n) * (1 + kWorkersPerCluster);
  s.options.seed = seed;
  SizeNodes(&s.options, s.pods);
  s.setup_script = kKubeRaySetup;
  std::string yaml;
  for (int i = 0; i < n; ++i) {
    const std::string name = "rc-" + std::to_string(i);
    yaml += RayClusterManifest(name, kWorkersPerCluster);
    s.ready_names.push_back(name);
  }
  s.ready_kind = "RayCluster";
  s.measured_script = ApplyHeredoc(yaml);
  return s;
}

ScaleScenario Deployment(int n, uint64_t seed) {
  ScaleScenario s;
  s.name = "deployment";
  s.n = n;
  s.pods = n;
  s.options.seed = seed;
  SizeNodes(&s.options, s.pods);
  // No operator is needed; the setup only lets the installed ones settle, as in every session.
  s.setup_script = kKubeRaySetup;
  s.measured_script = ApplyHeredoc(
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: " +
      std::to_string(n) +
      "\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n"
      "      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n"
      "        image: nginx:1.27\n");
  s.ready_kind = "Deployment";
  s.ready_names = {"web"};
  return s;
}

// Rewind: a learner's session of `n` single `step` commands after applying a few RayClusters.
// "rewind" replays its whole command log into a fresh simulation; "rewind-checkpoints" is the same
// session rewound through the page's checkpoints (core/lab/rewind_probe.h).
ScaleScenario Rewind(const std::string& name, int n, uint64_t seed) {
  ScaleScenario s;
  s.name = name;
  s.n = n;
  s.pods = static_cast<int64_t>(kRewindClusters) * (1 + kWorkersPerCluster);
  s.options.seed = seed;
  SizeNodes(&s.options, s.pods);
  std::string yaml;
  for (int i = 0; i < kRewindClusters; ++i) {
    yaml += RayClusterManifest("rc-" + std::to_string(i), kWorkersPerCluster);
  }
  s.setup_script = std::string(kKubeRaySetup) + ApplyHeredoc(yaml);
  for (int i = 0; i < n; ++i) s.setup_script += "step\n";
  return s;
}

int64_t CountSince(const sim::Trace& trace, int64_t after_seq, const char* type) {
  int64_t count = 0;
  const auto& events = trace.events();
  for (size_t i = static_cast<size_t>(after_seq); i < events.size(); ++i) {
    if (events[i].type == type) ++count;
  }
  return count;
}

}  // namespace

const char* ScaleScenarioNames() {
  return "rayclusters, deployment, rewind, rewind-checkpoints";
}

base::StatusOr<ScaleScenario> ScaleScenarioFor(const std::string& name, int n, uint64_t seed) {
  if (n > kMaxSize) {
    return base::Status(base::StatusCode::kBadRequest,
                        "size " + std::to_string(n) + " is above " + std::to_string(kMaxSize));
  }
  base::StatusOr<ScaleScenario> s = base::Status(
      base::StatusCode::kNotFound,
      "unknown scenario \"" + name + "\" (known: " + ScaleScenarioNames() + ")");
  if (name == "rayclusters") s = RayClusters(n > 0 ? n : kDefaultClusters, seed);
  if (name == "deployment") s = Deployment(n > 0 ? n : kDefaultReplicas, seed);
  if (name == "rewind" || name == "rewind-checkpoints") {
    s = Rewind(name, n > 0 ? n : kDefaultRewindSteps, seed);
  }
  // A scale scenario is bigger than anything a learner runs: its budget is raised for it
  // (`rlab bench` says so on stderr).
  if (s.ok()) s->options.budget = lab::Budget::ForScale(s->pods);
  return s;
}

ScaleRun::ScaleRun(ScaleScenario scenario)
    : scenario_(std::move(scenario)), lab_(std::make_unique<lab::Lab>(scenario_.options)) {}

base::Status ScaleRun::Setup() {
  auto outcome = lab_->RunScript(scenario_.setup_script, ".", false, nullptr);
  if (!outcome.parsed) return base::Status(base::StatusCode::kInvalid, outcome.parse_error);
  if (!outcome.ok) return base::Status(base::StatusCode::kInternal, "the setup script failed");
  return base::Status::OK();
}

bool ScaleRun::IsReady(const std::string& name) const {
  api::ObjectPtr obj = lab_->sim().apiserver().Peek(scenario_.ready_kind, "default", name);
  if (obj == nullptr) return false;
  const api::Json& o = *obj;
  if (scenario_.ready_kind == "RayCluster") {
    auto status = o.find("status");
    if (status == o.end()) return false;
    auto state = status->find("state");
    return state != status->end() && state->is_string() && *state == "ready";
  }
  // Deployment: every desired replica ready (kubectl rollout status's last condition).
  auto Int = [&](const char* parent, const char* field, int64_t fallback) {
    auto p = o.find(parent);
    if (p == o.end() || !p->is_object()) return fallback;
    auto v = p->find(field);
    return v != p->end() && v->is_number_integer() ? v->get<int64_t>() : fallback;
  };
  return Int("status", "readyReplicas", 0) == Int("spec", "replicas", 1);
}

ScaleFigures ScaleRun::Measure(base::Duration timeout) {
  if (scenario_.name == "rewind") return MeasureRewind();
  ScaleFigures f;
  if (scenario_.name == "rewind-checkpoints") {
    f.error = "rewind-checkpoints is measured rewind by rewind with bench::RewindProbe";
    return f;
  }
  lab::Simulation& sim = lab_->sim();
  const base::SimTime start = sim.clock().Now();
  const int64_t start_seq = sim.trace().last_seq();
  measured_from_seq_ = start_seq;
  const uint64_t start_writes = sim.apiserver().writes();
  const uint64_t start_events = sim.scheduler().executed();
  auto outcome = lab_->RunScript(scenario_.measured_script, ".", false, nullptr);
  if (!outcome.ok) {
    f.error = outcome.parsed ? "the measured script failed" : outcome.parse_error;
    return f;
  }
  // Objects become ready in no particular order, but each stays ready here, so one cursor over
  // the names keeps the per-event check O(1) amortised; a final pass confirms them all.
  // Readiness is read from the store, which only a write changes, so the check is skipped
  // after events that wrote nothing (most of them: deliveries, queue steps, timers).
  size_t next = 0;
  uint64_t checked_at_writes = UINT64_MAX;
  auto all_ready = [&] {
    const uint64_t writes = sim.apiserver().writes();
    if (writes == checked_at_writes) return false;
    checked_at_writes = writes;
    while (next < scenario_.ready_names.size() && IsReady(scenario_.ready_names[next])) ++next;
    return next == scenario_.ready_names.size();
  };
  const base::SimTime deadline = start + timeout;
  bool done = false;
  while (!done) {
    if (!sim.AdvanceUntil(all_ready, deadline, UINT64_MAX)) break;
    next = 0;
    while (next < scenario_.ready_names.size() && IsReady(scenario_.ready_names[next])) ++next;
    done = next == scenario_.ready_names.size();
  }
  f.virtual_time = sim.clock().Now() - start;
  f.ready = static_cast<int64_t>(next);
  f.ok = done;
  if (!done) f.error = "not every " + scenario_.ready_kind + " was ready within the timeout";
  f.api_writes = sim.apiserver().writes() - start_writes;
  f.scheduler_events = static_cast<int64_t>(sim.scheduler().executed() - start_events);
  f.trace_events = sim.trace().last_seq() - start_seq;
  return f;
}

ScaleFigures ScaleRun::MeasureRewind() {
  ScaleFigures f;
  replayed_ = std::make_unique<lab::Lab>(scenario_.options);
  auto outcome = replayed_->RunScript(lab_->ReplayScript(), ".", false, nullptr);
  lab::Simulation& sim = replayed_->sim();
  f.virtual_time = sim.clock().Now();
  f.api_writes = sim.apiserver().writes();
  f.scheduler_events = static_cast<int64_t>(sim.scheduler().executed());
  f.trace_events = sim.trace().last_seq();
  f.ready = replayed_->command_log().size();
  f.ok = outcome.ok;
  if (!outcome.ok) f.error = "the replay failed";
  return f;
}

void ScaleRun::Tally(ScaleFigures* f) const {
  if (replayed_ != nullptr) {  // rewind: the replay is what was measured
    const sim::Trace& replay = replayed_->sim().trace();
    f->reconciles = CountSince(replay, 0, "reconcile.start");
    f->trace_hash = replay.Hash();
    if (f->ok && f->trace_hash != lab_->sim().trace().Hash()) {
      f->ok = false;
      f->error = "the replay's trace differs from the session's";
    }
    return;
  }
  const sim::Trace& trace = lab_->sim().trace();
  f->reconciles = CountSince(trace, measured_from_seq_, "reconcile.start");
  f->trace_hash = trace.Hash();
}

}  // namespace bench
