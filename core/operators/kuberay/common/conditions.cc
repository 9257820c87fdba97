#include "core/operators/kuberay/common/conditions.h"

#include "core/operators/kuberay/common/utils.h"

namespace kuberay {

using api::Json;

// mirrors meta.IsStatusConditionTrue
bool IsConditionTrue(const Json& obj, const std::string& type) {
  return api::ConditionIs(obj, type, "True");
}

// mirrors meta.SetStatusCondition
bool SetCondition(Json& conditions, const std::string& type, const std::string& status,
                  const std::string& reason, const std::string& message, base::SimTime now) {
  if (!conditions.is_array()) conditions = Json::array();
  for (Json& c : conditions) {
    if (!c.is_object() || c.value("type", Json()) != type) continue;
    bool changed = false;
    if (c.value("status", Json()) != status) {
      c["status"] = status;
      c["lastTransitionTime"] = base::FormatRfc3339(now);
      changed = true;
    }
    if (c.value("reason", Json()) != reason) {
      c["reason"] = reason;
      changed = true;
    }
    if (c.value("message", Json()) != message) {
      c["message"] = message;
      changed = true;
    }
    return changed;
  }
  conditions.push_back(Json{{"type", type},
                            {"status", status},
                            {"reason", reason},
                            {"message", message},
                            {"lastTransitionTime", base::FormatRfc3339(now)}});
  return true;
}

}  // namespace kuberay
