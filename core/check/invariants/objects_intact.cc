#include "core/check/invariants/objects_intact.h"

#include <cstdlib>
#include <map>

namespace check {

void ObjectsIntact::Check(const State& state, std::vector<Violation>* out) {
  const Recorder& rec = *state.recorder;
  for (size_t i = problems_reported_; i < rec.problems().size(); ++i) {
    out->push_back({name(), state.step, rec.problems()[i]});
  }
  problems_reported_ = rec.problems().size();
  if (!state.quiet && rec.last_resource_version() == compared_at_rv_ &&
      state.objects.size() == compared_size_) {
    return;
  }
  compared_at_rv_ = rec.last_resource_version();
  compared_size_ = state.objects.size();

  std::map<std::string, std::string> uid_owner;  // uid -> key of the first object holding it
  std::map<std::string, bool> seen;              // keys of the store
  for (const api::ObjectPtr& o : state.objects) {
    const std::string key = KeyOf(o->value("kind", std::string()), *o);
    if (seen.count(key) != 0) {
      out->push_back({name(), state.step, key + " is stored twice"});
    }
    seen[key] = true;
    const std::string uid = api::Uid(*o);
    auto [it, fresh] = uid_owner.emplace(uid, key);
    if (!fresh) {
      out->push_back({name(), state.step, key + " and " + it->second + " share uid " + uid});
    }
    auto model = rec.objects().find(key);
    if (model == rec.objects().end()) {
      out->push_back({name(), state.step,
                      key + " is stored but no commit created it (or it was deleted)"});
      continue;
    }
    const int64_t rv = std::strtoll(api::ResourceVersion(*o).c_str(), nullptr, 10);
    if (model->second.uid != uid || model->second.resource_version != rv) {
      out->push_back({name(), state.step,
                      key + " is stored as uid " + uid + " rv " + std::to_string(rv) +
                          " but the last commit wrote uid " + model->second.uid + " rv " +
                          std::to_string(model->second.resource_version)});
    }
  }
  for (const auto& [key, model] : rec.objects()) {
    if (seen.count(key) == 0) {
      out->push_back({name(), state.step,
                      key + " (uid " + model.uid + ") was committed and never deleted, but is "
                                                   "missing from the store"});
    }
  }
}

}  // namespace check
