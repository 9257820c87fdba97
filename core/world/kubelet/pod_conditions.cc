#include "core/world/kubelet/pod_conditions.h"

#include <iterator>
#include <vector>

#include "core/api/pointer.h"
#include "core/api/well_known_keys.h"
#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

using api::Json;

constexpr std::string_view kKubeletOrder[] = {"PodReadyToStartContainers", "Initialized", "Ready",
                                              "ContainersReady", "PodScheduled"};
constexpr size_t kOthers = std::size(kKubeletOrder);

size_t StoredOrder(const Json& entry) {
  if (!entry.is_object()) return kOthers;
  const Json* type = api::MemberAt(entry, api::keys::Type());
  if (type == nullptr || !type->is_string()) return kOthers;
  return KubeletConditionOrder(type->get_ref<const std::string&>());
}

// Build writes one condition with its members in key order (each insertion appends).
Json Build(const KubeletCondition& c, const Json* prior, const std::string& stamp) {
  const char* status = c.ok ? "True" : "False";
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
  std::vector<size_t> order(n);
  std::vector<const KubeletCondition*> replaced_by(n, nullptr);
  for (size_t i = 0; i < n; ++i) order[i] = StoredOrder(stored[i]);
  std::vector<const KubeletCondition*> added;
  for (size_t k = 0; k < count; ++k) {
    const KubeletCondition& c = set[k];
    size_t i = 0;
    while (i < n && !(stored[i].is_object() && FieldIs(stored[i], "type", c.type))) ++i;
    if (i < n) {
      replaced_by[i] = &c;
    } else {
      added.push_back(&c);
    }
  }
  Json out = Json::array();
  for (size_t place = 0; place <= kOthers; ++place) {
    for (size_t i = 0; i < n; ++i) {
      if (order[i] != place) continue;
      out.push_back(replaced_by[i] != nullptr ? Build(*replaced_by[i], &stored[i], stamp)
                                              : stored[i]);
    }
    for (const KubeletCondition* c : added) {
      if (KubeletConditionOrder(c->type) == place) out.push_back(Build(*c, nullptr, stamp));
    }
  }
  return out;
}

}  // namespace world
