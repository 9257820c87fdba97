#include "core/world/scheduler/node_info.h"

#include "core/api/pointer.h"
#include "core/world/workloads/pod_util.h"

namespace world {

using api::Json;

NodeInfo BuildNodeInfo(const api::ObjectPtr& node) {
  NodeInfo info;
  info.node = node;
  const Json& obj = *node;
  info.unschedulable = JsonAt(obj, "/spec/unschedulable") == Json(true);
  const Json& taints = JsonAt(obj, "/spec/taints");
  if (taints.is_array()) {
    for (const Json& taint : taints) {
      if (!taint.is_object()) continue;
      Taint t{api::MemberString(taint, "key"), api::MemberString(taint, "value"),
              api::MemberString(taint, "effect")};
      if (t.effect != "NoSchedule" && t.effect != "NoExecute") continue;
      info.scheduling_taints.push_back(std::move(t));
    }
  }
  info.ready = ConditionIs(obj, "Ready", "True")    ? NodeReady::kTrue
               : ConditionIs(obj, "Ready", "False") ? NodeReady::kFalse
                                                    : NodeReady::kUnknown;
  info.nothing_to_tolerate = info.scheduling_taints.empty() && info.ready == NodeReady::kTrue;
  info.labels = api::Labels(obj);
  info.allocatable = NodeAllocatable(obj);
  return info;
}

}  // namespace world
