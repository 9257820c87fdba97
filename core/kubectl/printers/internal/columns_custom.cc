// Printer columns of custom resources: the CRDs' additionalPrinterColumns and their evaluation.
// Mirrors apiextensions-apiserver pkg/registry/customresource/tableconvertor (cellForJSONValue)
// and the +kubebuilder:printcolumn markers of ray-project/kuberay v1.7.0
// (ray-operator/apis/ray/v1/{raycluster,rayjob,rayservice,raycronjob}_types.go).
#include "core/kubectl/printers/internal/columns.h"

namespace kubectl::printers::internal {
namespace {

using api::Json;

// JsonPathLookup follows a simple JSONPath (".status.head.podIP"); null when any step is missing.
const Json* JsonPathLookup(const Json& obj, const std::string& path) {
  const Json* cur = &obj;
  size_t pos = 0;
  while (pos < path.size() && cur != nullptr) {
    if (path[pos] != '.') return nullptr;
    const size_t next = path.find('.', pos + 1);
    const std::string key =
        path.substr(pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1);
    cur = Field(cur, key.c_str());
    pos = next == std::string::npos ? path.size() : next;
  }
  return cur;
}

}  // namespace

std::vector<CustomColumn> CustomColumnsFor(const api::KindInfo& kind) {
  const CustomColumn age{"age", "date", ".metadata.creationTimestamp", 0};
  if (kind.group == "ray.io" && kind.kind == "RayCluster") {
    return {{"desired workers", "integer", ".status.desiredWorkerReplicas", 0},
            {"available workers", "integer", ".status.availableWorkerReplicas", 0},
            {"cpus", "string", ".status.desiredCPU", 0},
            {"memory", "string", ".status.desiredMemory", 0},
            {"gpus", "string", ".status.desiredGPU", 0},
            {"tpus", "string", ".status.desiredTPU", 1},
            {"status", "string", ".status.state", 0},
            age,
            {"head pod IP", "string", ".status.head.podIP", 1},
            {"head service IP", "string", ".status.head.serviceIP", 1}};
  }
  if (kind.group == "ray.io" && kind.kind == "RayJob") {
    return {{"job status", "string", ".status.jobStatus", 0},
            {"deployment status", "string", ".status.jobDeploymentStatus", 0},
            {"ray cluster name", "string", ".status.rayClusterName", 0},
            {"start time", "string", ".status.startTime", 0},
            {"end time", "string", ".status.endTime", 0},
            age};
  }
  if (kind.group == "ray.io" && kind.kind == "RayService") {
    // KubeRay declares no age column here, so `kubectl get rayservice` prints none.
    return {{"service status", "string", ".status.serviceStatus", 0},
            {"num serve endpoints", "string", ".status.numServeEndpoints", 0}};
  }
  if (kind.group == "ray.io" && kind.kind == "RayCronJob") {
    return {{"schedule", "string", ".spec.schedule", 0},
            {"timezone", "string", ".spec.timeZone", 0},
            {"last schedule", "date", ".status.lastScheduleTime", 0},
            age,
            {"suspend", "boolean", ".spec.suspend", 0}};
  }
  if (kind.kind == "InferenceService") {
    // Ours (no Go counterpart): the columns an operator tutorial would declare.
    return {{"ready", "integer", ".status.readyReplicas", 0},
            {"replicas", "integer", ".spec.replicas", 0},
            {"image", "string", ".spec.image", 0},
            age};
  }
  // A CRD without additionalPrinterColumns gets the API server's single Age column.
  return {CustomColumn{"Age", "date", ".metadata.creationTimestamp", 0}};
}

// mirrors tableconvertor.go ConvertToTable + cellForJSONValue; a nil cell prints as "".
std::string CustomCell(const CustomColumn& column, const Json& obj, base::SimTime now) {
  const Json* v = JsonPathLookup(obj, column.json_path);
  if (v == nullptr || v->is_null()) return "";
  if (column.type == "string") {
    // The jsonpath printer writes any value type in a string column.
    if (v->is_string() || v->is_number() || v->is_boolean()) return GoValue(*v);
    return v->dump(-1, ' ', false, Json::error_handler_t::replace);
  }
  if (column.type == "integer") return v->is_number() ? std::to_string(Int(v, 0)) : "";
  if (column.type == "number") return v->is_number() ? GoValue(*v) : "";
  if (column.type == "boolean") return v->is_boolean() ? GoValue(*v) : "";
  if (column.type == "date") {
    if (!v->is_string()) return "";
    if (!ParseRfc3339(Str(v))) return "<invalid>";
    return TimestampSince(Str(v), now);
  }
  return "";
}

}  // namespace kubectl::printers::internal
