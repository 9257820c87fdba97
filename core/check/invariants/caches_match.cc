#include "core/check/invariants/caches_match.h"

#include <map>

#include "core/api/selector.h"

namespace check {

void CachesMatch::Check(const State& state, std::vector<Violation>* out) {
  for (const CacheState& c : state.caches) {
    auto selector = api::LabelSelector::Parse(c.label_selector);
    if (!selector.ok()) continue;
    std::map<std::string, std::string> want;  // key -> resourceVersion
    for (const api::ObjectPtr& o : state.objects) {
      if (o->value("kind", std::string()) != c.kind) continue;
      if (!c.namespace_.empty() && api::Namespace(*o) != c.namespace_) continue;
      if (!selector->MatchesObject(*o)) continue;
      want[KeyOf(c.kind, *o)] = api::ResourceVersion(*o);
    }
    std::map<std::string, std::string> have;
    for (const api::ObjectPtr& o : c.objects) {
      const std::string key = KeyOf(c.kind, *o);
      if (!have.emplace(key, api::ResourceVersion(*o)).second) {
        out->push_back({name(), state.step, c.informer + " holds " + key + " twice"});
      }
    }
    for (const auto& [key, rv] : want) {
      auto it = have.find(key);
      if (it == have.end()) {
        out->push_back({name(), state.step, c.informer + " lost " + key + "@" + rv});
      } else if (it->second != rv) {
        out->push_back({name(), state.step, c.informer + " holds " + key + "@" + it->second +
                                                " but the server has @" + rv});
      }
    }
    for (const auto& [key, rv] : have) {
      if (want.count(key) == 0) {
        out->push_back({name(), state.step,
                        c.informer + " still holds " + key + "@" + rv + ", gone from the server"});
      }
    }
  }
}

}  // namespace check
