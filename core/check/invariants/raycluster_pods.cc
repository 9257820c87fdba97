#include "core/check/invariants/raycluster_pods.h"

#include <map>

#include "core/api/pointer.h"

namespace check {

namespace {

int64_t IntOr(const api::Json& obj, const char* field, int64_t fallback) {
  auto it = obj.find(field);
  return it != obj.end() && it->is_number_integer() ? it->get<int64_t>() : fallback;
}

bool TrueAt(const api::Json& obj, std::string_view pointer) {
  const api::Json* v = api::FindPointer(obj, pointer);
  return v != nullptr && v->is_boolean() && v->get<bool>();
}

// DesiredWorkers re-derives a group's Pod count from its spec (see the header).
int64_t DesiredWorkers(const api::Json& group) {
  if (group.value("suspend", false) == true) return 0;
  const int64_t min_replicas = IntOr(group, "minReplicas", 0);
  const int64_t max_replicas = IntOr(group, "maxReplicas", 2147483647);
  auto r = group.find("replicas");
  int64_t replicas = 0;
  if (r == group.end() || !r->is_number_integer() || r->get<int64_t>() < min_replicas) {
    replicas = min_replicas;
  } else if (r->get<int64_t>() > max_replicas) {
    replicas = max_replicas;
  } else {
    replicas = r->get<int64_t>();
  }
  return replicas * IntOr(group, "numOfHosts", 1);
}

bool RunningAndReady(const api::Json& pod) {
  if (api::GetString(pod, "/status/phase") != "Running") return false;
  const api::Json* conditions = pod.contains("status") ? &pod["status"] : nullptr;
  if (conditions == nullptr || !conditions->contains("conditions")) return false;
  for (const api::Json& c : (*conditions)["conditions"]) {
    if (c.is_object() && c.value("type", std::string()) == "Ready") {
      return c.value("status", std::string()) == "True";
    }
  }
  return false;
}

}  // namespace

void RayClusterPods::Check(const State& state, std::vector<Violation>* out) {
  // Pods by (namespace, cluster label), not being deleted.
  std::map<std::pair<std::string, std::string>, std::vector<const api::Json*>> pods;
  for (const api::ObjectPtr& o : state.objects) {
    if (o->value("kind", std::string()) != "Pod" || api::IsBeingDeleted(*o)) continue;
    const auto labels = api::Labels(*o);
    auto it = labels.find("ray.io/cluster");
    if (it != labels.end()) pods[{api::Namespace(*o), it->second}].push_back(o.get());
  }
  for (const api::ObjectPtr& o : state.objects) {
    if (o->value("kind", std::string()) != "RayCluster" || api::IsBeingDeleted(*o)) continue;
    const api::Json& rc = *o;
    const std::string who = "RayCluster " + api::Namespace(rc) + "/" + api::Name(rc);
    if (TrueAt(rc, "/spec/enableInTreeAutoscaling")) continue;
    const bool suspended = TrueAt(rc, "/spec/suspend");
    const auto& mine = pods[{api::Namespace(rc), api::Name(rc)}];
    int64_t heads = 0;
    std::map<std::string, int64_t> workers;  // by group
    int64_t ready = 0, available = 0;
    for (const api::Json* p : mine) {
      const auto labels = api::Labels(*p);
      const std::string type = labels.count("ray.io/node-type") ? labels.at("ray.io/node-type") : "";
      if (type == "head") {
        ++heads;
      } else if (type == "worker") {
        ++workers[labels.count("ray.io/group") ? labels.at("ray.io/group") : ""];
        if (RunningAndReady(*p)) ++ready;
        if (api::GetString(*p, "/status/phase") == "Running") ++available;
      }
    }
    const int64_t want_heads = suspended ? 0 : 1;
    if (heads != want_heads) {
      out->push_back({name(), state.step, who + " has " + std::to_string(heads) +
                                              " head Pods, want " + std::to_string(want_heads)});
    }
    int64_t desired_total = 0;
    std::map<std::string, int64_t> want;
    if (rc.contains("spec") && rc["spec"].contains("workerGroupSpecs") &&
        rc["spec"]["workerGroupSpecs"].is_array()) {
      for (const api::Json& g : rc["spec"]["workerGroupSpecs"]) {
        if (!g.is_object()) continue;
        const int64_t d = DesiredWorkers(g);
        desired_total += d;
        want[g.value("groupName", std::string())] += suspended ? 0 : d;
      }
    }
    for (const auto& [group, n] : want) {
      const int64_t have = workers.count(group) ? workers[group] : 0;
      if (have != n) {
        out->push_back({name(), state.step, who + " group " + group + " has " +
                                                std::to_string(have) + " worker Pods, want " +
                                                std::to_string(n)});
      }
    }
    for (const auto& [group, n] : workers) {
      if (want.count(group) == 0) {
        out->push_back({name(), state.step, who + " has " + std::to_string(n) +
                                                " worker Pods of unknown group " + group});
      }
    }
    if (!rc.contains("status") || !rc["status"].is_object()) {
      out->push_back({name(), state.step, who + " has no status"});
      continue;
    }
    const api::Json& st = rc["status"];
    auto expect_field = [&](const char* field, int64_t value) {
      const int64_t got = IntOr(st, field, -1);
      if (got != value) {
        out->push_back({name(), state.step, who + " status." + field + " is " +
                                                std::to_string(got) + ", the world has " +
                                                std::to_string(value)});
      }
    };
    // Not observedGeneration == generation: KubeRay writes the status only when
    // inconsistentRayClusterStatus sees a change, and that comparison ignores observedGeneration,
    // so a spec change that moves no count (suspend:false on a running cluster) leaves it behind.
    // mirrors raycluster_controller.go inconsistentRayClusterStatus
    if (IntOr(st, "observedGeneration", 0) > api::Generation(rc)) {
      out->push_back({name(), state.step, who + " status.observedGeneration is ahead of "
                                              "metadata.generation"});
    }
    expect_field("desiredWorkerReplicas", desired_total);
    expect_field("readyWorkerReplicas", ready);
    expect_field("availableWorkerReplicas", available);
  }
}

}  // namespace check
