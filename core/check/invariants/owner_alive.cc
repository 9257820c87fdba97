#include "core/check/invariants/owner_alive.h"

#include <map>

namespace check {

void OwnerAlive::Check(const State& state, std::vector<Violation>* out) {
  const int64_t rv = state.recorder->last_resource_version();
  if (!state.quiet && rv == checked_at_rv_) return;
  checked_at_rv_ = rv;
  std::map<std::string, api::ObjectPtr> by_uid;
  for (const api::ObjectPtr& o : state.objects) by_uid[api::Uid(*o)] = o;
  for (const api::ObjectPtr& o : state.objects) {
    const std::optional<api::OwnerReference> ref = api::GetControllerOf(*o);
    if (!ref.has_value()) continue;
    const std::string kind = o->value("kind", std::string());
    const std::string key = KeyOf(kind, *o);
    const std::string owner = ref->kind + "/" + ref->name + " (uid " + ref->uid + ")";
    if (state.recorder->ever_stored().count(ref->uid) == 0) {
      out->push_back({name(), state.step,
                      key + " has controller " + owner + ", a uid that was never stored"});
      continue;
    }
    // The collector ignores Events (graph_builder.go ignoredResources): one may outlive its owner.
    if (!state.quiet || api::IsBeingDeleted(*o) || kind == "Event") continue;
    auto it = by_uid.find(ref->uid);
    if (it == by_uid.end()) {
      out->push_back({name(), state.step,
                      key + " outlived its controller " + owner + " and is not being deleted"});
    } else if (api::Namespace(*it->second) != api::Namespace(*o) &&
               !api::Namespace(*it->second).empty()) {
      out->push_back({name(), state.step,
                      key + " has controller " + owner + " in another namespace"});
    }
  }
}

}  // namespace check
