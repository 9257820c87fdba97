#include "core/check/invariants/one_deployment_per_owner.h"

#include <map>
#include <string>
#include <vector>

namespace check {

void OneDeploymentPerInferenceService::Check(const State& state, std::vector<Violation>* out) {
  // owner uid -> the Deployments it controls, in the store's order (kind, namespace, name)
  std::map<std::string, std::vector<std::string>> by_owner;
  std::map<std::string, std::string> owner_name;
  for (const api::ObjectPtr& o : state.objects) {
    if (o->value("kind", std::string()) != "Deployment") continue;
    const std::optional<api::OwnerReference> ref = api::GetControllerOf(*o);
    if (!ref.has_value() || ref->kind != "InferenceService") continue;
    by_owner[ref->uid].push_back(api::Name(*o));
    owner_name[ref->uid] = api::Namespace(*o) + "/" + ref->name;
  }
  for (const auto& [uid, names] : by_owner) {
    if (names.size() < 2) continue;
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    out->push_back({name(), state.step,
                    "InferenceService " + owner_name[uid] + " controls " +
                        std::to_string(names.size()) + " Deployments: " + list});
    return;  // the explorer stops at the first; one line per check keeps the report short
  }
}

}  // namespace check
