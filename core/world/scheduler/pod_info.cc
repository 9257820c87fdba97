#include "core/world/scheduler/pod_info.h"

#include <tuple>

#include "core/api/pointer.h"
#include "core/world/workloads/pod_util.h"

namespace world {

using api::Json;

PodInfo BuildPodInfo(const Json& pod) {
  PodInfo info;
  std::tie(info.requests, info.nonzero_requests) = PodRequestsWithNonzero(pod);
  const Json& tolerations = JsonAt(pod, "/spec/tolerations");
  if (tolerations.is_array()) {
    for (const Json& t : tolerations) {
      if (!t.is_object()) continue;
      info.tolerations.push_back(
          Toleration{api::MemberString(t, "key"), api::MemberString(t, "operator"),
                     api::MemberString(t, "value"), api::MemberString(t, "effect")});
    }
  }
  const Json& selector = JsonAt(pod, "/spec/nodeSelector");
  if (selector.is_object()) {
    for (const auto& [k, v] : selector.items()) {
      info.node_selector.push_back(
          NodeSelectorTerm{k, v.is_string(), v.is_string() ? v.get<std::string>() : ""});
    }
  }
  return info;
}

bool Tolerates(const PodInfo& pod, const Taint& taint) {
  for (const Toleration& t : pod.tolerations) {
    if (!t.effect.empty() && t.effect != taint.effect) continue;
    if (!t.key.empty() && t.key != taint.key) continue;
    if (t.op == "Exists") return true;
    if ((t.op.empty() || t.op == "Equal") && t.value == taint.value && !t.key.empty()) {
      return true;
    }
  }
  return false;
}

std::string UntoleratedTaint(const PodInfo& pod, const NodeInfo& node) {
  for (const Taint& taint : node.scheduling_taints) {
    if (Tolerates(pod, taint)) continue;
    return "{" + taint.key + ": " + taint.value + "}";
  }
  // A node whose Ready condition is not True carries the not-ready/unreachable taint in a real
  // cluster (TaintNodesByCondition); treat it so even before the taint is written.
  if (node.ready != NodeReady::kTrue) {
    Taint synthetic;
    synthetic.key = node.ready == NodeReady::kFalse ? "node.kubernetes.io/not-ready"
                                                    : "node.kubernetes.io/unreachable";
    synthetic.effect = "NoSchedule";
    if (!Tolerates(pod, synthetic)) return "{" + synthetic.key + ": }";
  }
  return "";
}

bool MatchesNodeSelector(const PodInfo& pod, const NodeInfo& node) {
  for (const NodeSelectorTerm& term : pod.node_selector) {
    auto it = node.labels.find(term.key);
    if (it == node.labels.end() || !term.value_is_string || it->second != term.value) {
      return false;
    }
  }
  return true;
}

}  // namespace world
