#include "core/check/scenario.h"

#include "core/api/object.h"
#include "core/lab/simulation.h"

namespace check {

namespace {

std::string N(uint64_t v) { return std::to_string(v); }

}  // namespace

ScenarioGenerator::ScenarioGenerator(uint64_t seed, ScenarioOptions options)
    : prng_(seed), options_(options) {}

std::string ScenarioGenerator::Run(int max_seconds) {
  // Mostly short runs so faults and actions interleave with reconciles; sometimes a few steps.
  if (prng_.Below(4) == 0) return "step " + N(prng_.UniformInclusive(1, 40)) + "\n";
  return "run " + N(prng_.UniformInclusive(100, static_cast<uint64_t>(max_seconds) * 1000)) +
         "ms\n";
}

std::string ScenarioGenerator::RayClusterManifest(const std::string& name) {
  return RayClusterIn(name, "");
}

std::string ScenarioGenerator::RayClusterIn(const std::string& name, const std::string& ns) {
  std::string m = "apply -f - <<EOF\napiVersion: ray.io/v1\nkind: RayCluster\nmetadata:\n  name: " +
                  name + (ns.empty() ? "" : "\n  namespace: " + ns) +
                  "\nspec:\n  rayVersion: \"2.52.0\"\n";
  if (prng_.Below(8) == 0) m += "  suspend: true\n";
  m += "  headGroupSpec:\n    rayStartParams: {}\n    template:\n      spec:\n        containers:\n"
       "        - name: ray-head\n          image: rayproject/ray:2.52.0\n"
       "          resources:\n            requests: {cpu: 500m, memory: 1Gi}\n";
  m += "  workerGroupSpecs:\n";
  const uint64_t groups = prng_.UniformInclusive(1, 2);
  for (uint64_t g = 0; g < groups; ++g) {
    const uint64_t min_replicas = prng_.Below(2);
    const uint64_t replicas = prng_.UniformInclusive(min_replicas, 3);
    const uint64_t max_replicas = replicas + prng_.Below(3);
    m += "  - groupName: g" + N(g) + "\n    replicas: " + N(replicas) + "\n    minReplicas: " +
         N(min_replicas) + "\n    maxReplicas: " + N(max_replicas) + "\n";
    if (prng_.Below(10) == 0) m += "    suspend: true\n";
    m += "    rayStartParams: {}\n    template:\n      spec:\n        containers:\n"
         "        - name: ray-worker\n          image: rayproject/ray:2.52.0\n"
         "          resources:\n            requests: {cpu: 250m, memory: 512Mi}\n";
  }
  return m + "EOF\n";
}

std::string ScenarioGenerator::RayJobManifest(const std::string& name) {
  static const std::vector<std::string> outcomes = {"SUCCEEDED", "SUCCEEDED", "FAILED"};
  const uint64_t runtime = prng_.UniformInclusive(2, 15);
  const std::string& outcome = prng_.Pick(outcomes);
  std::string m = "apply -f - <<EOF\napiVersion: ray.io/v1\nkind: RayJob\nmetadata:\n  name: " +
                  name + "\n  annotations:\n    sim.reconcile-lab.io/job-runtime: " + N(runtime) +
                  "s\n    sim.reconcile-lab.io/job-outcome: " + outcome +
                  "\nspec:\n  entrypoint: python /home/ray/samples/job.py\n";
  if (prng_.Below(2) == 0) m += "  shutdownAfterJobFinishes: true\n";
  m += "  rayClusterSpec:\n    rayVersion: \"2.52.0\"\n    headGroupSpec:\n      rayStartParams: {}\n"
       "      template:\n        spec:\n          containers:\n          - name: ray-head\n"
       "            image: rayproject/ray:2.52.0\n"
       "            resources:\n              requests: {cpu: 500m, memory: 1Gi}\n"
       "    workerGroupSpecs:\n    - groupName: cpu\n      replicas: 1\n      minReplicas: 1\n"
       "      maxReplicas: 1\n      rayStartParams: {}\n      template:\n        spec:\n"
       "          containers:\n          - name: ray-worker\n            image: rayproject/ray:2.52.0\n"
       "            resources:\n              requests: {cpu: 250m, memory: 512Mi}\n";
  return m + "EOF\n";
}

std::string ScenarioGenerator::DeploymentManifest(const std::string& name) {
  return DeploymentIn(name, "");
}

std::string ScenarioGenerator::DeploymentIn(const std::string& name, const std::string& ns) {
  return "apply -f - <<EOF\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
         (ns.empty() ? "" : "\n  namespace: " + ns) + "\nspec:\n  replicas: " + N(prng_.UniformInclusive(1, 3)) +
         "\n  selector:\n    matchLabels: {app: " + name + "}\n  template:\n    metadata:\n"
         "      labels: {app: " + name + "}\n    spec:\n      containers:\n      - name: web\n"
         "        image: nginx:1.27\n        resources:\n          requests: {cpu: 100m}\n"
         "EOF\n";
}

std::string ScenarioGenerator::InferenceServiceManifest(const std::string& name) {
  return "apply -f - <<EOF\napiVersion: inference.io/v1\nkind: InferenceService\nmetadata:\n"
         "  name: " + name + "\nspec:\n  replicas: " + N(prng_.UniformInclusive(1, 3)) +
         "\n  image: vllm:0.6.3\nEOF\n";
}

std::string ScenarioGenerator::Setup() {
  std::string s;
  // Sometimes run KubeRay as two replicas with leader election (so leader loss can happen),
  // with more workers or on the classic queue.
  std::string settings;
  if (prng_.Below(3) == 0) settings += " replicas=2 leader-election=true";
  if (prng_.Below(3) == 0) settings += " reconcile-concurrency=" + N(prng_.UniformInclusive(2, 4));
  if (prng_.Below(3) == 0) settings += " queue=classic";
  if (!settings.empty()) s += "operator set" + settings + "\noperator restart\n";
  const uint64_t objects = prng_.UniformInclusive(1, 3);
  for (uint64_t i = 0; i < objects; ++i) {
    const std::string name = "o" + N(static_cast<uint64_t>(next_object_++));
    switch (prng_.Below(6)) {
      case 0: case 1: case 2:
        s += RayClusterManifest("rc-" + name);
        rayclusters_.push_back("rc-" + name);
        break;
      case 3:
        s += RayJobManifest("job-" + name);
        rayjobs_.push_back("job-" + name);
        break;
      case 4:
        s += DeploymentManifest("web-" + name);
        deployments_.push_back("web-" + name);
        break;
      default:
        s += InferenceServiceManifest("isvc-" + name);
        isvcs_.push_back("isvc-" + name);
        break;
    }
    s += Run(3);
  }
  return s;
}

std::string ScenarioGenerator::Fault(lab::Simulation& sim) {
  static const std::vector<std::string> verbs = {"create", "update", "patch", "delete", "get",
                                                 "list"};
  static const std::vector<std::string> kinds = {"Pod", "RayCluster", "Service", "RayJob",
                                                 "Deployment", "InferenceService"};
  switch (prng_.Below(9)) {
    case 8:
      return SubmissionWatchDrop();
    case 0: {
      const std::string& verb = prng_.Pick(verbs);
      const std::string& kind = prng_.Pick(kinds);
      const uint64_t times = prng_.UniformInclusive(1, 4);
      return "fault api --verb " + verb + " --kind " + kind + " --times " + N(times) + "\n";
    }
    case 1: {  // a 409 storm on status writes and updates
      const std::string& kind = prng_.Pick(kinds);
      const uint64_t times = prng_.UniformInclusive(2, 10);
      return "fault api --verb update --kind " + kind + " --code 409 --times " + N(times) + "\n";
    }
    case 2:
      return prng_.Below(2) == 0 ? "fault watch-drop\n"
                                 : "fault watch-drop --kind " + prng_.Pick(kinds) + "\n";
    case 3: {
      const std::string& kind = prng_.Pick(kinds);
      const uint64_t delay = prng_.UniformInclusive(100, 3000);
      return "fault cache-lag --kind " + kind + " --delay " + N(delay) + "ms\n";
    }
    case 4:
      return prng_.Below(2) == 0 ? "operator restart\n" : "operator inference-operator restart\n";
    case 5: {  // leader loss: the KubeRay operator Pod holding (or waiting for) the Lease dies
      std::vector<std::string> pods;
      for (const api::ObjectPtr& p : sim.apiserver().PeekAll("Pod")) {
        if (api::Labels(*p).count("app.kubernetes.io/name") != 0 &&
            api::Labels(*p).at("app.kubernetes.io/name") == "kuberay-operator" &&
            !api::IsBeingDeleted(*p)) {
          pods.push_back(api::Name(*p));
        }
      }
      if (pods.empty()) return "operator restart\n";
      return "delete pod " + prng_.Pick(pods) + " --wait=false\n";
    }
    case 6: {
      const std::string node = "node-" + N(prng_.UniformInclusive(1, 3));
      for (auto it = nodes_down_.begin(); it != nodes_down_.end(); ++it) {
        if (*it == node) {
          nodes_down_.erase(it);
          return "fault node " + node + " up\n";
        }
      }
      nodes_down_.push_back(node);
      return "fault node " + node + " down\n";
    }
    default: {
      const std::string& verb = prng_.Pick(verbs);
      const std::string& kind = prng_.Pick(kinds);
      const uint64_t latency = prng_.UniformInclusive(10, 500);
      const uint64_t times = prng_.UniformInclusive(1, 5);
      return "fault api --verb " + verb + " --kind " + kind + " --latency " + N(latency) +
             "ms --times " + N(times) + "\n";
    }
  }
}

std::string ScenarioGenerator::SubmissionWatchDrop() {
  const std::string name = "job-o" + N(static_cast<uint64_t>(next_object_++));
  rayjobs_.push_back(name);
  // The drop lands while the submitter Job's Pod pulls its image: every watch that learns of
  // that Pod's start (the kubelet's, the Job controller's, the submitter runtime's) must relist.
  const bool pods_only = prng_.Below(2) == 0;
  return RayJobManifest(name) + "wait --for=jsonpath='{.status.jobDeploymentStatus}'=Running rayjob/" +
         name + " --timeout=120s\n" + (pods_only ? "fault watch-drop --kind Pod\n" : "fault watch-drop\n");
}

std::string ScenarioGenerator::NamespaceWithWorkloads() {
  const std::string ns = "team-o" + N(static_cast<uint64_t>(next_object_++));
  namespaces_.push_back(ns);
  // One draw per statement: the operands of + have no evaluation order (g++ and clang differ).
  const std::string deployment = DeploymentIn("web", ns);
  const std::string raycluster = RayClusterIn("rc", ns);
  return "create namespace " + ns + "\n" + deployment + raycluster;
}

std::string ScenarioGenerator::DeleteNamespace() {
  if (namespaces_.empty()) return NamespaceWithWorkloads();
  const size_t i = static_cast<size_t>(prng_.Below(namespaces_.size()));
  const std::string ns = namespaces_[i];
  namespaces_.erase(namespaces_.begin() + static_cast<std::ptrdiff_t>(i));
  return "delete namespace " + ns + " --wait=false\n";
}

std::string ScenarioGenerator::UserAction(lab::Simulation& sim) {
  switch (prng_.Below(11)) {
    case 9:
      return NamespaceWithWorkloads();
    case 10:
      return DeleteNamespace();
    case 0:
      if (!rayclusters_.empty()) {
        const std::string rc = prng_.Pick(rayclusters_);
        return "patch raycluster " + rc + " --type json -p '[{\"op\":\"replace\",\"path\":" +
               "\"/spec/workerGroupSpecs/0/replicas\",\"value\":" + N(prng_.Below(4)) + "}]'\n";
      }
      break;
    case 1:
      if (!rayclusters_.empty()) {
        const std::string& rc = prng_.Pick(rayclusters_);
        const bool suspend = prng_.Below(2) == 0;
        return "patch raycluster " + rc + " --type merge -p '{\"spec\":{\"suspend\":" +
               (suspend ? "true" : "false") + "}}'\n";
      }
      break;
    case 2:
      if (!deployments_.empty()) {
        const std::string& deploy = prng_.Pick(deployments_);
        const uint64_t replicas = prng_.Below(4);
        return "scale deploy/" + deploy + " --replicas=" + N(replicas) + "\n";
      }
      break;
    case 3:
      if (!isvcs_.empty()) {
        const std::string& isvc = prng_.Pick(isvcs_);
        const uint64_t replicas = prng_.UniformInclusive(1, 3);
        return "patch isvc " + isvc + " --type merge -p '{\"spec\":{\"replicas\":" +
               N(replicas) + "}}'\n";
      }
      break;
    case 4: {  // delete something the learner made
      std::vector<std::string> all;
      for (const auto& n : rayclusters_) all.push_back("raycluster " + n);
      for (const auto& n : rayjobs_) all.push_back("rayjob " + n);
      for (const auto& n : deployments_) all.push_back("deploy " + n);
      for (const auto& n : isvcs_) all.push_back("isvc " + n);
      if (all.empty()) break;
      static const std::vector<std::string> cascades = {"background", "background",
                                                        "foreground", "orphan"};
      const std::string& object = prng_.Pick(all);
      const std::string& cascade = prng_.Pick(cascades);
      return "delete " + object + " --wait=false --cascade=" + cascade + "\n";
    }
    case 5:
    case 6: {  // kill or delete a workload Pod that exists now
      std::vector<std::string> pods;
      for (const api::ObjectPtr& p : sim.apiserver().PeekAll("Pod")) {
        if (api::Namespace(*p) == "default" && !api::IsBeingDeleted(*p) &&
            api::Labels(*p).count("app.kubernetes.io/name") == 0) {
          pods.push_back(api::Name(*p));
        }
      }
      if (pods.empty()) break;
      const std::string pod = prng_.Pick(pods);
      if (prng_.Below(2) == 0) return "delete pod " + pod + " --wait=false\n";
      return "kill pod " + pod + (prng_.Below(2) == 0 ? " --reason=OOMKilled\n" : "\n");
    }
    default:
      break;
  }
  // Nothing fitting: a new object.
  const std::string name = "o" + N(static_cast<uint64_t>(next_object_++));
  if (prng_.Below(2) == 0) {
    rayclusters_.push_back("rc-" + name);
    return RayClusterManifest("rc-" + name);
  }
  isvcs_.push_back("isvc-" + name);
  return InferenceServiceManifest("isvc-" + name);
}

std::string ScenarioGenerator::NextAction(lab::Simulation& sim) {
  if (actions_done_ >= options_.actions) return "";
  ++actions_done_;
  const std::string action = prng_.Below(5) < 2 ? Fault(sim) : UserAction(sim);
  return action + Run(5);
}

std::string ScenarioGenerator::Quiet() {
  std::string s = "# quiet: faults cleared, nodes back, time to settle\nfault clear\n";
  for (const std::string& node : nodes_down_) s += "fault node " + node + " up\n";
  nodes_down_.clear();
  s += "run " + N(static_cast<uint64_t>(options_.quiet_seconds)) + "s\n";
  return s;
}

}  // namespace check
