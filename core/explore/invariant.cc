#include "core/explore/invariant.h"

#include <map>

#include "core/lab/simulation.h"

namespace explore {
namespace {

class OneDeploymentPerOwner final : public Invariant {
 public:
  std::string name() const override { return "one-deployment-per-inferenceservice"; }
  std::string statement() const override {
    return "an InferenceService controls at most one Deployment";
  }
  std::optional<std::string> Check(lab::Simulation& sim) override {
    // owner uid -> the Deployments it controls, in the store's (name) order
    std::map<std::string, std::vector<std::string>> by_owner;
    std::map<std::string, std::string> owner_name;
    for (const api::ObjectPtr& d : sim.apiserver().PeekAll("Deployment")) {
      const api::Json* refs = d->contains("metadata") && (*d)["metadata"].contains("ownerReferences")
                                  ? &(*d)["metadata"]["ownerReferences"]
                                  : nullptr;
      if (refs == nullptr || !refs->is_array()) continue;
      for (const api::Json& ref : *refs) {
        if (!ref.is_object() || ref.value("kind", "") != "InferenceService" ||
            !ref.value("controller", false)) {
          continue;
        }
        const std::string uid = ref.value("uid", "");
        by_owner[uid].push_back(api::Name(*d));
        owner_name[uid] = api::Namespace(*d) + "/" + ref.value("name", "");
      }
    }
    for (const auto& [uid, names] : by_owner) {
      if (names.size() < 2) continue;
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      return "InferenceService " + owner_name[uid] + " controls " + std::to_string(names.size()) +
             " Deployments: " + list;
    }
    return std::nullopt;
  }
};

}  // namespace

std::unique_ptr<Invariant> OneDeploymentPerInferenceService() {
  return std::make_unique<OneDeploymentPerOwner>();
}

std::vector<std::unique_ptr<Invariant>> DefaultInvariants() {
  std::vector<std::unique_ptr<Invariant>> all;
  all.push_back(OneDeploymentPerInferenceService());
  return all;
}

}  // namespace explore
