#include "core/world/kubelet/pod_conditions.h"

#include <iterator>
#include <optional>
#include <vector>

#include "core/api/object.h"
#include "core/api/pointer.h"
#include "core/api/well_known_keys.h"
#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

using api::Json;

constexpr std::string_view kKubeletOrder[] = {"PodReadyToStartContainers", "Initialized", "Ready",
                                              "ContainersReady", "PodScheduled"};
constexpr size_t kOthers = std::size(kKubeletOrder);

// StoredType is an entry's type, or nullopt when it is not an object with a string type.
std::optional<std::string_view> StoredType(const Json& entry) {
  if (!entry.is_object()) return std::nullopt;
  const Json* type = api::MemberAt(entry, api::keys::Type());
  if (type == nullptr || !type->is_string()) return std::nullopt;
  return std::string_view(type->get_ref<const std::string&>());
}

// ConditionTextIs: obj's member `key` is the string `want`, or is absent when `want` is empty.
bool ConditionTextIs(const Json& obj, const api::InternedKey& key, std::string_view want) {
  const Json* field = api::MemberAt(obj, key);
  if (field == nullptr) return want.empty();
  return !want.empty() && field->is_string() && field->get_ref<const std::string&>() == want;
}

// Unchanged reports whether Build would give exactly `prior` back: the same status, reason and
// message, its lastTransitionTime kept, a null lastProbeTime and nothing else. Most of a Pod's
// conditions stay as they are from one status write to the next, and a copy costs less than a
// build.
bool Unchanged(const KubeletCondition& c, const Json& prior, const char* status) {
  if (!prior.is_object()) return false;
  const size_t members = 4 + (c.message.empty() ? 0 : 1) + (c.reason.empty() ? 0 : 1);
  const Json* probe = api::MemberAt(prior, api::keys::LastProbeTime());
  return prior.size() == members && probe != nullptr && probe->is_null() &&
         api::MemberAt(prior, api::keys::LastTransitionTime()) != nullptr &&
         ConditionTextIs(prior, api::keys::Status(), status) && ConditionTextIs(prior, api::keys::Type(), c.type) &&
         ConditionTextIs(prior, api::keys::Reason(), c.reason) &&
         ConditionTextIs(prior, api::keys::Message(), c.message);
}

// Build writes one condition with its members in key order (each insertion appends).
Json Build(const KubeletCondition& c, const Json* prior, const std::string& stamp) {
  const char* status = c.ok ? "True" : "False";
  // An unchanged entry views the stored one's members (api::ShareStored): the list goes into a
  // status patch the API server stores, and most entries stay as they were.
  if (prior != nullptr && Unchanged(c, *prior, status)) return api::ShareStored(*prior);
  Json out = api::ObjectWithRoom(6);
  out[api::keys::LastProbeTime()] = nullptr;
  const Json* kept = prior != nullptr && FieldIs(*prior, "status", status)
                         ? api::MemberAt(*prior, api::keys::LastTransitionTime())
                         : nullptr;
  out[api::keys::LastTransitionTime()] = kept != nullptr ? *kept : Json(stamp);
  if (!c.message.empty()) out[api::keys::Message()] = std::string(c.message);
  if (!c.reason.empty()) out[api::keys::Reason()] = std::string(c.reason);
  out[api::keys::Status()] = status;
  out[api::keys::Type()] = std::string(c.type);
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
  std::vector<std::optional<std::string_view>> types(n);
  std::vector<size_t> order(n);
  std::vector<const KubeletCondition*> replaced_by(n, nullptr);
  for (size_t i = 0; i < n; ++i) {
    types[i] = StoredType(stored[i]);
    order[i] = types[i].has_value() ? KubeletConditionOrder(*types[i]) : kOthers;
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
    const std::optional<std::string_view> type = StoredType(entry);
    const size_t order = type.has_value() ? KubeletConditionOrder(*type) : kOthers;
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
