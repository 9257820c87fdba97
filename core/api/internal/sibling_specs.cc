#include "core/api/sibling_specs.h"

#include "core/api/fields.h"
#include "core/api/internal/member_at.h"

namespace api {
namespace {

// Enough for every worker group and ReplicaSet of a large session; a full map is cleared, which
// only costs the next Pod of each group its sharing.
constexpr size_t kMaxEntries = 4096;
// Kept views of arrived specs are checked every this many Pods: a template lives for one
// reconcile, so only the views of the last few stay.
constexpr size_t kSweepEvery = 256;

}  // namespace

std::string SiblingSpecs::KeyOf(const Json& pod) {
  const std::string& prefix = ObjectMeta(pod).GenerateName();
  if (prefix.empty()) return std::string();
  const std::string& ns = ObjectMeta(pod).Namespace();
  std::string key;
  key.reserve(ns.size() + 1 + prefix.size());
  key.append(ns).append(1, '/').append(prefix);
  return key;
}

bool SiblingSpecs::TakeDefaultedSpec(Json& pod, Json* arrived) const {
  auto spec = pod.find("spec");
  if (spec == pod.end() || !spec->is_object()) return false;
  const Json::object_t& members = spec->get_ref<const Json::object_t&>();
  if (!members.shared()) return false;  // the Pod's own: nothing to match, nothing to protect
  const std::string key = last_.empty() ? std::string() : KeyOf(pod);
  auto it = key.empty() ? last_.end() : last_.find(key);
  if (it != last_.end() && it->second.arrived.is_object() &&
      it->second.arrived.get_ref<const Json::object_t&>().SameMembers(members)) {
    const ObjectPtr sibling = it->second.pod.lock();
    const Json* theirs = sibling ? SpecOf(*sibling) : nullptr;
    if (theirs != nullptr && theirs->is_object()) {
      *arrived = ShareStored(it->second.arrived);  // a plain copy would copy the members
      *spec = ShareStored(*theirs);
      return true;
    }
  }
  *arrived = ShareStored(*spec);
  *spec = Json(*spec);  // members of its own (a copy never shares)
  return false;
}

void SiblingSpecs::Share(Json& pod) const {
  if (last_.empty()) return;
  const std::string key = KeyOf(pod);
  if (key.empty()) return;
  auto it = last_.find(key);
  if (it == last_.end()) return;
  const ObjectPtr sibling = it->second.pod.lock();
  if (sibling == nullptr) return;
  const Json* theirs = SpecOf(*sibling);
  auto mine = pod.find("spec");
  if (theirs == nullptr || !theirs->is_object() || mine == pod.end() || !mine->is_object()) return;
  Json::object_t& spec = mine->get_ref<Json::object_t&>();
  if (spec.shared()) return;  // its members are another document's: nothing may be set in them
  for (auto& [name, value] : spec) {
    if (!value.is_structured()) continue;
    const Json* same = internal::MemberAt(*theirs, name);
    if (same == nullptr || *same != value) continue;
    value = ShareStored(*same);  // a value viewing another document's members lets go
  }
}

void SiblingSpecs::Remember(const ObjectPtr& stored, Json arrived) {
  if (stored == nullptr) return;
  std::string key = KeyOf(*stored);
  if (key.empty()) return;
  if (last_.size() >= kMaxEntries && last_.count(key) == 0) last_.clear();
  Last& last = last_[std::move(key)];
  last.pod = stored;
  last.arrived = std::move(arrived);
  if (++remembered_ % kSweepEvery == 0) ForgetUnsharedArrivals();
}

void SiblingSpecs::ForgetUnsharedArrivals() {
  for (auto& [key, last] : last_) {
    if (last.arrived.is_object() && !last.arrived.get_ref<const Json::object_t&>().shared()) {
      last.arrived = nullptr;
    }
  }
}

}  // namespace api
