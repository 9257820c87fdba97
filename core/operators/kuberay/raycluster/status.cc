#include "core/operators/kuberay/raycluster/status.h"

#include <string_view>

#include "core/api/fields.h"
#include "core/api/pointer.h"
#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/utils.h"

namespace kuberay {
namespace {

using api::Json;

// A missing or non-string field reads as "".
bool PhaseIs(const Json& pod, std::string_view phase) {
  return api::PodStatus(pod).Phase() == phase;
}
const Json* PodConditions(const Json& pod) {
  const Json* conditions = api::PodStatus(pod).Conditions();
  return conditions != nullptr && conditions->is_array() ? conditions : nullptr;
}

// Condition's members are set in key order.
Json Condition(const std::string& type, const std::string& status, const std::string& reason,
               const std::string& message) {
  Json out = api::ObjectWithRoom(5);  // and lastTransitionTime, when SetStatusCondition adds it
  api::ConditionBuilder condition(out);
  condition.SetMessage(message);
  condition.SetReason(reason);
  condition.SetStatus(status);
  condition.SetType(type);
  return out;
}

bool IsRunningAndReady(const Json& pod) {
  if (!PhaseIs(pod, "Running")) return false;
  const Json* conditions = PodConditions(pod);
  if (conditions == nullptr) return false;
  for (const Json& c : *conditions) {
    const api::Condition condition(c);
    if (c.is_object() && condition.Type() == "Ready") return condition.Status() == "True";
  }
  return false;
}

// NodeTypeIs: the Pod's ray.io/node-type label is node_type (absent when node_type is empty).
bool NodeTypeIs(const Json& pod, const std::string& node_type) {
  const Json* labels = api::ObjectMeta(pod).Labels();
  if (labels == nullptr || !labels->is_object()) return node_type.empty();
  auto it = labels->find(kRayNodeTypeLabelKey);
  if (it == labels->end() || !it->is_string()) return node_type.empty();
  return it->get_ref<const std::string&>() == node_type;
}

bool IsWorker(const Json& pod) { return NodeTypeIs(pod, kWorkerNode); }

const Json* HeadPod(const std::vector<api::ObjectPtr>& pods) {
  for (const api::ObjectPtr& p : pods) {
    if (NodeTypeIs(*p, kHeadNode)) return p.get();
  }
  return nullptr;
}

}  // namespace

void SetStatusCondition(Json& conditions, const Json& condition, base::SimTime now) {
  if (!conditions.is_array()) conditions = Json::array();
  for (Json& c : conditions) {
    if (!c.is_object() || api::Condition(c).Type() != api::Condition(condition).Type()) continue;
    if (api::Condition(c).Status() != api::Condition(condition).Status()) {
      c["status"] = condition["status"];
      c["lastTransitionTime"] = base::FormatRfc3339(now);
    }
    c["reason"] = condition["reason"];
    c["message"] = condition["message"];
    return;
  }
  Json added = condition;
  added["lastTransitionTime"] = base::FormatRfc3339(now);
  conditions.push_back(added);
}

std::string FindRayClusterSuspendStatus(const Json& cluster) {
  const Json* conditions = At(cluster, "/status/conditions");
  if (conditions == nullptr || !conditions->is_array()) return "";
  for (const Json& c : *conditions) {
    if (!c.is_object()) continue;
    const std::string_view type = api::Condition(c).Type();
    if ((type == kRayClusterSuspending || type == kRayClusterSuspended) &&
        api::Condition(c).Status() == "True") {
      return std::string(type);
    }
  }
  return "";
}

// mirrors utils/util.go CheckAllPodsRunning
bool CheckAllPodsRunning(const std::vector<api::ObjectPtr>& pods) {
  if (pods.empty()) return false;
  for (const api::ObjectPtr& p : pods) {
    if (!PhaseIs(*p, "Running")) return false;
    const Json* conditions = PodConditions(*p);
    if (conditions == nullptr) continue;
    for (const Json& c : *conditions) {
      const api::Condition condition(c);
      if (c.is_object() && condition.Type() == "Ready" && condition.Status() != "True") {
        return false;
      }
    }
  }
  return true;
}

// mirrors utils/util.go FindHeadPodReadyCondition + firstNotReadyContainerStatus
Json FindHeadPodReadyCondition(const Json& head_pod) {
  Json cond = Condition(kHeadPodReady, "False", kUnknownReason, "");
  const Json* conditions = At(head_pod, "/status/conditions");
  if (conditions == nullptr || !conditions->is_array()) return cond;
  for (const Json& c : *conditions) {
    if (!c.is_object() || api::Condition(c).Type() != "Ready") continue;
    const std::string status = c.value("status", std::string());
    cond["status"] = status;
    cond["message"] = c.value("message", std::string());
    std::string reason = c.value("reason", std::string());
    if (status == "True" && reason.empty()) reason = kHeadPodRunningAndReady;
    if (!reason.empty()) cond["reason"] = reason;
    if (reason == "ContainersNotReady") {
      const Json* statuses = At(head_pod, "/status/containerStatuses");
      for (const Json& s : statuses != nullptr && statuses->is_array() ? *statuses : Json::array()) {
        const Json* state = At(s, "/state/waiting");
        if (state == nullptr) state = At(s, "/state/terminated");
        if (state == nullptr || !state->is_object()) continue;
        std::string message = cond["message"].get<std::string>();
        if (!message.empty()) message += "; ";
        message += s.value("name", std::string()) + ": " + state->value("message", std::string());
        cond["message"] = message;
        cond["reason"] = state->value("reason", std::string());
        break;
      }
    }
    break;
  }
  return cond;
}

// mirrors raycluster_controller.go calculateStatus
base::StatusOr<Json> CalculateStatus(const Json& cluster, const ReconcileError& err,
                                     const StatusInputs& in, const FeatureGates& features,
                                     base::SimTime now) {
  Json updated = cluster;
  if (!updated.contains("status") || !updated["status"].is_object()) updated["status"] = Json::object();
  Json& status = updated["status"];
  const bool gate = features.Enabled(kRayClusterStatusConditions);
  if (gate) {
    if (!err.ok()) {
      if (!err.replica_failure_reason.empty()) {
        SetStatusCondition(status["conditions"],
                           Condition(kRayClusterReplicaFailure, "True", err.replica_failure_reason,
                                     err.Message()),
                           now);
      }
    } else if (status.contains("conditions") && status["conditions"].is_array()) {
      Json kept = Json::array();
      for (const Json& c : status["conditions"]) {
        if (!(c.is_object() && c.value("type", Json()) == kRayClusterReplicaFailure)) kept.push_back(c);
      }
      status["conditions"] = kept;
    }
  }
  status["observedGeneration"] = api::Generation(cluster);
  int64_t ready = 0, available = 0;
  for (const api::ObjectPtr& p : in.pods) {
    if (!IsWorker(*p)) continue;
    if (IsRunningAndReady(*p)) ++ready;
    if (PhaseIs(*p, "Running")) ++available;
  }
  status["readyWorkerReplicas"] = ready;
  status["availableWorkerReplicas"] = available;
  const int64_t desired = CalculateDesiredReplicas(updated);
  status["desiredWorkerReplicas"] = desired;
  status["minWorkerReplicas"] = CalculateMinReplicas(updated);
  status["maxWorkerReplicas"] = CalculateMaxReplicas(updated);
  ResourceList summed;
  if (in.desired_resources == nullptr) summed = CalculateDesiredResources(updated);
  const ResourceList& resources = in.desired_resources != nullptr ? *in.desired_resources : summed;
  auto quantity = [&](const std::string& name) {
    auto it = resources.find(name);
    return it == resources.end() ? std::string("0") : it->second.String();
  };
  status["desiredCPU"] = quantity("cpu");
  status["desiredMemory"] = quantity("memory");
  // mirrors raycluster_controller.go sumGPUs: every resource whose name ends in "gpu".
  Quantity gpus;
  for (const auto& [name, q] : resources) {
    if (name.size() >= 3 && name.compare(name.size() - 3, 3, "gpu") == 0) gpus.Add(q);
  }
  status["desiredGPU"] = gpus.String();
  status["desiredTPU"] = quantity("google.com/tpu");

  const std::string old_state = StringAt(cluster, "/status/state");
  if (err.ok() && static_cast<int64_t>(in.pods.size()) == desired + 1 && CheckAllPodsRunning(in.pods)) {
    status["state"] = kReady;
    status.erase("reason");
  }
  const Json* head_pod = HeadPod(in.pods);
  if (gate) {
    Json& conditions = status["conditions"];
    if (head_pod == nullptr) {
      SetStatusCondition(conditions, Condition(kHeadPodReady, "False", kHeadPodNotFound, "Head Pod not found"), now);
    } else {
      SetStatusCondition(conditions, FindHeadPodReadyCondition(*head_pod), now);
    }
    const std::string suspend = FindRayClusterSuspendStatus(updated);
    if (!IsConditionTrue(updated, kRayClusterProvisioned) && suspend != kRayClusterSuspended) {
      if (CheckAllPodsRunning(in.pods)) {
        SetStatusCondition(conditions,
                           Condition(kRayClusterProvisioned, "True", kAllPodRunningAndReadyFirstTime,
                                     "All Ray Pods are ready for the first time"),
                           now);
      } else {
        SetStatusCondition(conditions,
                           Condition(kRayClusterProvisioned, "False", kRayClusterPodsProvisioning,
                                     "RayCluster Pods are being provisioned for first time"),
                           now);
      }
    }
    const bool spec_suspend = BoolAt(cluster, "/spec/suspend", false);
    if (suspend == kRayClusterSuspending) {
      if (in.pods.empty()) {
        SetStatusCondition(conditions,
                           Condition(kRayClusterProvisioned, "False", kRayClusterPodsProvisioning,
                                     "RayCluster has been suspended"),
                           now);
        SetStatusCondition(conditions, Condition(kRayClusterSuspending, "False", kRayClusterSuspending, ""), now);
        SetStatusCondition(conditions, Condition(kRayClusterSuspended, "True", kRayClusterSuspended, ""), now);
      }
    } else if (suspend == kRayClusterSuspended) {
      const Json* s = At(cluster, "/spec/suspend");
      if (s != nullptr && s->is_boolean() && !s->get<bool>()) {
        SetStatusCondition(conditions, Condition(kRayClusterSuspended, "False", kRayClusterSuspended, ""), now);
      }
    } else {
      SetStatusCondition(conditions, Condition(kRayClusterSuspended, "False", kRayClusterSuspended, ""), now);
      SetStatusCondition(conditions,
                         Condition(kRayClusterSuspending, spec_suspend ? "True" : "False",
                                   kRayClusterSuspending, ""),
                         now);
    }
  }
  if (BoolAt(cluster, "/spec/suspend", false) && in.pods.empty()) status["state"] = kSuspended;

  // updateEndpoints: the first head Service's named ports.
  if (!in.head_services.empty()) {
    const Json* ports = At(*in.head_services[0], "/spec/ports");
    if (!status.contains("endpoints") || !status["endpoints"].is_object()) status["endpoints"] = Json::object();
    for (const Json& p : ports != nullptr && ports->is_array() ? *ports : Json::array()) {
      const std::string name = p.value("name", std::string());
      if (name.empty()) continue;
      const Json node_port = p.value("nodePort", Json());
      const Json target = p.value("targetPort", Json());
      if (node_port.is_number_integer() && node_port.get<int64_t>() != 0) {
        status["endpoints"][name] = std::to_string(node_port.get<int64_t>());
      } else if (target.is_number_integer() && target.get<int64_t>() != 0) {
        status["endpoints"][name] = std::to_string(target.get<int64_t>());
      } else if (target.is_string() && !target.get<std::string>().empty()) {
        status["endpoints"][name] = target;
      }
    }
  }
  // updateHeadInfo + getHeadServiceIPAndName
  Json head = Json::object();
  if (head_pod != nullptr) {
    const std::string ip = StringAt(*head_pod, "/status/podIP");
    if (!ip.empty()) head["podIP"] = ip;
    head["podName"] = api::Name(*head_pod);
  }
  const std::string filter = "map[" + kRayClusterLabelKey + ":" + api::Name(cluster) + " " +
                             kRayNodeTypeLabelKey + ":" + kHeadNode + "]";
  if (in.head_services.empty()) {
    return base::Status(base::StatusCode::kNotFound, "unable to find head service. cluster name " +
                                                         api::Name(cluster) + ", filter labels " + filter);
  }
  if (in.head_services.size() > 1) {
    return base::Status(base::StatusCode::kInternal, "found multiple head services. cluster name " +
                                                         api::Name(cluster) + ", filter labels " + filter);
  }
  const Json& svc = *in.head_services[0];
  const std::string cluster_ip = StringAt(svc, "/spec/clusterIP");
  if (cluster_ip.empty()) {
    return base::Status(base::StatusCode::kInternal, "head service IP is empty. cluster name " +
                                                         api::Name(cluster) + ", filter labels " + filter);
  }
  const std::string service_ip =
      cluster_ip == "None" ? (head_pod != nullptr ? StringAt(*head_pod, "/status/podIP") : "") : cluster_ip;
  if (!service_ip.empty()) head["serviceIP"] = service_ip;
  head["serviceName"] = api::Name(svc);
  status["head"] = head;

  status["lastUpdateTime"] = base::FormatRfc3339(now);
  const std::string new_state = StringAt(updated, "/status/state");
  if (old_state != new_state) status["stateTransitionTimes"][new_state] = base::FormatRfc3339(now);
  return updated;
}

// mirrors utils/consistency.go InconsistentRayClusterStatus
bool InconsistentRayClusterStatus(const Json& old_status, const Json& new_status) {
  // The fields are read in place (references), never copied.
  auto str = [&](const Json& s, const char* key) {
    const Json& v = MemberOrNull(s, key);
    return v.is_string() ? v.get<std::string>() : std::string();
  };
  auto num = [&](const Json& s, const char* key) {
    const Json& v = MemberOrNull(s, key);
    return v.is_number_integer() ? v.get<int64_t>() : 0;
  };
  auto obj = [&](const Json& s, const char* key) -> const Json& {
    const Json& v = MemberOrNull(s, key);
    return v.is_null() || (v.is_object() && v.empty()) ? EmptyObject() : v;
  };
  if (str(old_status, "state") != str(new_status, "state") ||
      str(old_status, "reason") != str(new_status, "reason")) {
    return true;
  }
  for (const char* k : {"readyWorkerReplicas", "availableWorkerReplicas", "desiredWorkerReplicas",
                        "minWorkerReplicas", "maxWorkerReplicas"}) {
    if (num(old_status, k) != num(new_status, k)) return true;
  }
  if (obj(old_status, "endpoints") != obj(new_status, "endpoints") ||
      obj(old_status, "head") != obj(new_status, "head")) {
    return true;
  }
  const Json& oc = MemberOrNull(old_status, "conditions");
  const Json& nc = MemberOrNull(new_status, "conditions");
  const bool old_empty = oc.is_null() || (oc.is_array() && oc.empty());
  const bool new_empty = nc.is_null() || (nc.is_array() && nc.empty());
  if (old_empty && new_empty) return false;
  return oc != nc;
}

}  // namespace kuberay
