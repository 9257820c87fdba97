#include "core/world/scheduler/node_info.h"

#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

using api::Json;

std::string StringField(const Json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

NodeInfo BuildNodeInfo(const api::ObjectPtr& node) {
  NodeInfo info;
  info.node = node;
  const Json& obj = *node;
  info.unschedulable = JsonAt(obj, "/spec/unschedulable"_json_pointer) == Json(true);
  const Json& taints = JsonAt(obj, "/spec/taints"_json_pointer);
  if (taints.is_array()) {
    for (const Json& taint : taints) {
      if (!taint.is_object()) continue;
      Taint t{StringField(taint, "key"), StringField(taint, "value"), StringField(taint, "effect")};
      if (t.effect != "NoSchedule" && t.effect != "NoExecute") continue;
      info.scheduling_taints.push_back(std::move(t));
    }
  }
  info.ready = ConditionIs(obj, "Ready", "True")    ? NodeReady::kTrue
               : ConditionIs(obj, "Ready", "False") ? NodeReady::kFalse
                                                    : NodeReady::kUnknown;
  info.labels = api::Labels(obj);
  info.allocatable = NodeAllocatable(obj);
  return info;
}

}  // namespace world
