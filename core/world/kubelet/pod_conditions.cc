#include "core/world/kubelet/pod_conditions.h"

#include <iterator>
#include <vector>

#include "core/api/fields.h"
#include "core/api/object.h"
#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

using api::Json;

constexpr std::string_view kKubeletOrder[] = {"PodReadyToStartContainers", "Initialized", "Ready",
                                              "ContainersReady", "PodScheduled"};
constexpr size_t kOthers = std::size(kKubeletOrder);

// StoredType is an entry's type, "" when it is not an object with a string type: no kubelet
// condition has an empty type, so such an entry matches none of them.
std::string_view StoredType(const Json& entry) { return api::Condition(entry).Type(); }

// Unchanged reports whether Build would give exactly `prior` back: the same status, reason and
// message, its lastTransitionTime kept, a null lastProbeTime and nothing else. Most of a Pod's
// conditions stay as they are from one status write to the next, and a copy costs less than a
// build.
bool Unchanged(const KubeletCondition& c, const Json& prior, const char* status) {
  if (!prior.is_object()) return false;
  // With lastProbeTime, lastTransitionTime, status and type present, the count of members
  // leaves room for exactly the non-empty ones of message and reason, and an empty string
  // member there would not equal a non-empty want.
  const size_t members = 4 + (c.message.empty() ? 0 : 1) + (c.reason.empty() ? 0 : 1);
  const api::Condition was(prior);
  const Json* probe = was.LastProbeTime();
  return prior.size() == members && probe != nullptr && probe->is_null() &&
         was.LastTransitionTime() != nullptr && was.Status() == status &&
         was.Type() == c.type && was.Reason() == c.reason && was.Message() == c.message;
}

// Build writes one condition with its members in key order (each insertion appends).
Json Build(const KubeletCondition& c, const Json* prior, const std::string& stamp) {
  const char* status = c.ok ? "True" : "False";
  // An unchanged entry views the stored one's members (api::ShareStored): the list goes into a
  // status patch the API server stores, and most entries stay as they were.
  if (prior != nullptr && Unchanged(c, *prior, status)) return api::ShareStored(*prior);
  Json out = api::ObjectWithRoom(6);
  api::ConditionBuilder condition(out);
  condition.SetLastProbeTime(nullptr);
  const Json* kept = prior != nullptr && FieldIs(*prior, "status", status)
                         ? api::Condition(*prior).LastTransitionTime()
                         : nullptr;
  condition.SetLastTransitionTime(kept != nullptr ? *kept : Json(stamp));
  if (!c.message.empty()) condition.SetMessage(std::string(c.message));
  if (!c.reason.empty()) condition.SetReason(std::string(c.reason));
  condition.SetStatus(status);
  condition.SetType(std::string(c.type));
  return out;
}

}  // namespace

size_t KubeletConditionOrder(std::string_view type) {
  for (size_t order = 0; order < kOthers; ++order) {
    if (kKubeletOrder[order] == type) return order;
  }
  return kOthers;
}

Json KubeletConditions(const Json& stored, const KubeletCondition* set, size_t count,
                       const std::string& stamp) {
  const size_t n = stored.is_array() ? stored.size() : 0;
  // Each stored entry's place, and which of `set` replaces it; then the ones added.
  // Each entry's type is read once; one without a string type matches none of `set` and is
  // listed with the other types.
  std::vector<std::string_view> types(n);
  std::vector<size_t> order(n);
  std::vector<const KubeletCondition*> replaced_by(n, nullptr);
  for (size_t i = 0; i < n; ++i) {
    types[i] = StoredType(stored[i]);
    order[i] = KubeletConditionOrder(types[i]);
  }
  std::vector<const KubeletCondition*> added;
  for (size_t k = 0; k < count; ++k) {
    const KubeletCondition& c = set[k];
    size_t i = 0;
    while (i < n && types[i] != c.type) ++i;
    if (i < n) {
      replaced_by[i] = &c;
    } else {
      added.push_back(&c);
    }
  }
  Json out = Json::array();
  out.get_ref<Json::array_t&>().reserve(n + added.size());
  for (size_t place = 0; place <= kOthers; ++place) {
    for (size_t i = 0; i < n; ++i) {
      if (order[i] != place) continue;
      out.push_back(replaced_by[i] != nullptr ? Build(*replaced_by[i], &stored[i], stamp)
                                              : api::ShareStored(stored[i]));
    }
    for (const KubeletCondition* c : added) {
      if (KubeletConditionOrder(c->type) == place) out.push_back(Build(*c, nullptr, stamp));
    }
  }
  return out;
}

bool KubeletConditionsUnchanged(const Json& stored, const KubeletCondition* set, size_t count) {
  if (!stored.is_array()) return false;  // KubeletConditions answers an array
  size_t previous_order = 0;
  for (const Json& entry : stored) {  // already in the kubelet's order (ties keep their places)
    const size_t order = KubeletConditionOrder(StoredType(entry));
    if (order < previous_order) return false;
    previous_order = order;
  }
  for (size_t k = 0; k < count; ++k) {
    const KubeletCondition& c = set[k];
    const Json* first = nullptr;  // the stored entry c replaces: the first of its type
    for (const Json& entry : stored) {
      if (StoredType(entry) == c.type) {
        first = &entry;
        break;
      }
    }
    if (first == nullptr || !Unchanged(c, *first, c.ok ? "True" : "False")) return false;
  }
  return true;
}

}  // namespace world
