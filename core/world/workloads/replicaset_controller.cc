#include "core/world/workloads/replicaset_controller.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/api/fields.h"
#include "core/api/pointer.h"
#include "core/api/selector.h"
#include "core/sim/cause_scope.h"
#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

using api::Json;

const char kReplicaSetControllerName[] = "replicaset-controller";

// OrNull renders a count the way an omitempty int32 field is stored: absent when zero.
Json OmitZero(int64_t v) { return v == 0 ? Json(nullptr) : Json(v); }

}  // namespace

std::string ControllerKeyOf(const api::ObjectPtr& obj, const std::string& kind) {
  if (obj == nullptr) return "";
  const api::Json* ref = api::ControllerRef(*obj);
  if (ref == nullptr || !FieldIs(*ref, "kind", kind)) return "";
  return api::ObjectKey(api::Namespace(*obj), api::MemberString(*ref, "name"));
}

void EnqueueControllerOf(const api::ObjectPtr& obj, const std::string& kind, WorkerQueue& queue) {
  std::string key = ControllerKeyOf(obj, kind);
  if (!key.empty()) queue.Add(key);
}

ReplicaSetController::ReplicaSetController(client::Client& client, sim::Scheduler& scheduler,
                                           Options options)
    : ReplicaSetController(client, scheduler, std::move(options), nullptr) {}

ReplicaSetController::ReplicaSetController(client::Client& client, SharedInformerFactory& informers,
                                           sim::Scheduler& scheduler, Options options)
    : ReplicaSetController(client, scheduler, std::move(options), &informers) {}

ReplicaSetController::ReplicaSetController(client::Client& client, sim::Scheduler& scheduler,
                                           Options options, SharedInformerFactory* shared)
    : client_(client),
      scheduler_(scheduler),
      options_(std::move(options)),
      own_informers_(shared != nullptr
                         ? nullptr
                         : std::make_unique<SharedInformerFactory>(
                               client, scheduler, options_.watcher, options_.traced_watches)),
      informers_(shared != nullptr ? *shared : *own_informers_),
      expectations_(scheduler.clock()),
      queue_(scheduler, WorkerQueue::Options{kReplicaSetControllerName, options_.sync_delay},
             [this](const std::string& key) { return Sync(key); }),
      replicasets_(informers_.InformerFor("ReplicaSet")),
      pods_(informers_.InformerFor("Pod")) {
  replicasets_.AddEventHandler(
      OnChange([this](const api::ObjectPtr& o, const api::ObjectPtr& n) { OnReplicaSet(o, n); }));
  pods_.AddEventHandler(
      OnChange([this](const api::ObjectPtr& o, const api::ObjectPtr& n) { OnPod(o, n); }));
}

void ReplicaSetController::Start() {
  replicasets_.Start();
  pods_.Start();
}

// mirrors replica_set.go addRS/updateRS (queue it) and deleteRS (forget its expectations).
void ReplicaSetController::OnReplicaSet(const api::ObjectPtr& old_obj,
                                        const api::ObjectPtr& new_obj) {
  if (new_obj == nullptr) {
    expectations_.DeleteExpectations(api::ObjectKey(*old_obj));
    queue_.Add(api::ObjectKey(*old_obj));
    return;
  }
  queue_.Add(api::ObjectKey(*new_obj));
}

// mirrors replica_set.go addPod (a creation observed), updatePod (a deletionTimestamp is a
// deletion observed) and deletePod, each queueing the Pod's controller.
void ReplicaSetController::OnPod(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
  // The counts follow the cache exactly: the new version's share in, the old one's out. In that
  // order an update keeps its entries above zero instead of dropping and copying them again.
  Count(new_obj, +1);
  Count(old_obj, -1);
  const std::string key = ControllerKeyOf(new_obj != nullptr ? new_obj : old_obj, "ReplicaSet");
  expectations_.ObserveChange(key, old_obj, new_obj);
  if (!key.empty()) queue_.Add(key);
  if (old_obj != nullptr && new_obj != nullptr) {
    const std::string old_key = ControllerKeyOf(old_obj, "ReplicaSet");
    if (old_key != key && !old_key.empty()) queue_.Add(old_key);
  }
}

void ReplicaSetController::Count(const api::ObjectPtr& pod, int64_t delta) {
  if (pod == nullptr) return;
  // Only Pods a ReplicaSet controls: the shared cache also holds every other controller's.
  const api::Json* ref = api::ControllerRef(*pod);
  if (ref == nullptr || !FieldIs(*ref, "kind", "ReplicaSet")) return;
  const std::string& uid = api::OwnerRef(*ref).Uid();
  if (uid.empty() || !IsPodActive(*pod)) return;
  auto by_ns = owned_.find(uid);
  if (by_ns == owned_.end()) by_ns = owned_.emplace(uid, std::map<std::string, OwnedPods>()).first;
  const std::string& ns = api::ObjectMeta(*pod).Namespace();
  auto entry = by_ns->second.find(ns);
  if (entry == by_ns->second.end()) entry = by_ns->second.emplace(ns, OwnedPods()).first;
  OwnedPods& owned = entry->second;
  owned.active += delta;
  static const api::Json kNoLabels;
  const api::Json* found = api::ObjectMeta(*pod).Labels();
  const api::Json& labels = found != nullptr ? *found : kNoLabels;
  auto set = std::find_if(owned.labels.begin(), owned.labels.end(),
                          [&](const auto& entry) { return entry.first == labels; });
  if (set == owned.labels.end()) set = owned.labels.insert(set, {labels, 0});
  set->second += delta;
  if (set->second == 0) owned.labels.erase(set);
  if (IsPodReady(*pod)) {
    owned.ready += delta;
    if (auto since = ReadySince(*pod)) {
      auto at = owned.ready_since.try_emplace(*since, 0).first;
      at->second += delta;
      if (at->second == 0) owned.ready_since.erase(at);
    }
  }
  if (owned.active == 0) {
    by_ns->second.erase(entry);
    if (by_ns->second.empty()) owned_.erase(by_ns);
  }
}

int64_t ReplicaSetController::OwnedPods::Available(int64_t min_ready_seconds, base::SimTime now,
                                                   base::Duration* wait) const {
  if (min_ready_seconds <= 0) return ready;
  int64_t available = 0;
  for (const auto& [since, count] : ready_since) {
    const base::SimTime at = since + min_ready_seconds * base::kSecond;
    if (at > now) {
      *wait = at - now;  // the earliest: the tally is in time order
      break;
    }
    available += count;
  }
  return available;
}

const ReplicaSetController::OwnedPods* ReplicaSetController::Owned(const std::string& ns,
                                                                   const std::string& uid) const {
  auto by_ns = owned_.find(uid);
  if (by_ns == owned_.end()) return nullptr;
  auto entry = by_ns->second.find(ns);
  return entry == by_ns->second.end() ? nullptr : &entry->second;
}

std::vector<api::ObjectPtr> ReplicaSetController::ActivePods(const std::string& ns,
                                                             const std::string& uid) const {
  std::vector<api::ObjectPtr> active;
  for (const api::ObjectPtr& pod : ControlledBy(pods_, uid)) {
    const api::Json* ref = api::ControllerRef(*pod);  // the uid matched, so there is one
    if (FieldIs(*ref, "kind", "ReplicaSet") &&
        api::ObjectMeta(*pod).Namespace() == ns && IsPodActive(*pod)) {
      active.push_back(pod);
    }
  }
  return active;
}

// mirrors replica_set.go syncReplicaSet: list owned Pods, manageReplicas, then the status.
bool ReplicaSetController::Sync(const std::string& key) {
  api::ObjectPtr rs = replicasets_.GetStore().GetByKey(key);
  if (rs == nullptr) {
    expectations_.DeleteExpectations(key);
    return true;
  }
  const bool needs_sync = expectations_.SatisfiedExpectations(key);
  sim::Trace& trace = scheduler_.trace();
  const std::string ns = api::Namespace(*rs);
  const std::string uid = api::Uid(*rs);
  const std::string object = "ReplicaSet/" + key;
  const OwnedPods* owned = Owned(ns, uid);
  const int64_t active = owned != nullptr ? owned->active : 0;
  const int64_t replicas = IntAt(*rs, "/spec/replicas", 1);
  bool ok = true;
  if (needs_sync && !api::IsBeingDeleted(*rs)) {
    // mirrors replica_set.go manageReplicas
    const int64_t diff = active - replicas;
    if (diff < 0) {
      const int64_t n = std::min<int64_t>(-diff, options_.burst_replicas);
      const sim::CauseScope cause(
          trace,
          EmitAction(trace, kReplicaSetControllerName, object, "create-pods",
                     "want " + std::to_string(replicas) + ", have " + std::to_string(active) +
                         ": creating " + std::to_string(n)),
          sim::CauseScope::kIfKnown);
      expectations_.ExpectCreations(key, n);
      for (int64_t i = 0; i < n; ++i) {
        auto created = client_.Create(
            PodFromTemplate(JsonAt(*rs, "/spec/template"), *rs, api::Name(*rs) + "-"));
        if (!created.ok()) {
          // The informer will not see the creations that did not happen.
          for (int64_t skipped = i; skipped < n; ++skipped) expectations_.CreationObserved(key);
          ok = false;
          break;
        }
      }
    } else if (diff > 0) {
      std::vector<api::ObjectPtr> victims = ActivePods(ns, uid);
      std::stable_sort(victims.begin(), victims.end(),
                       [](const api::ObjectPtr& a, const api::ObjectPtr& b) {
                         // A total order (name breaks ties) so libstdc++ and libc++ agree.
                         if (DeleteFirst(*a, *b)) return true;
                         if (DeleteFirst(*b, *a)) return false;
                         return api::Name(*a) < api::Name(*b);
                       });
      const int64_t n = std::min<int64_t>(diff, options_.burst_replicas);
      std::string names;
      for (int64_t i = 0; i < n; ++i) names += (i ? "," : "") + api::Name(*victims[i]);
      const sim::CauseScope cause(
          trace,
          EmitAction(trace, kReplicaSetControllerName, object, "delete-pods",
                     "want " + std::to_string(replicas) + ", have " + std::to_string(active) +
                         ": deleting " + names),
          sim::CauseScope::kIfKnown);
      std::vector<std::string> victim_keys;
      for (int64_t i = 0; i < n; ++i) victim_keys.push_back(api::ObjectKey(*victims[i]));
      expectations_.ExpectDeletions(key, victim_keys);
      for (int64_t i = 0; i < n; ++i) {
        auto deleted = client_.Delete("Pod", ns, api::Name(*victims[i]));
        if (!deleted.ok()) {
          // The informer will not see this deletion.
          expectations_.DeletionObserved(key, victim_keys[i]);
          if (!base::IsNotFound(deleted.status())) ok = false;
        }
      }
    }
  }

  // mirrors replica_set_utils.go calculateStatus: from the Pods the cache held before
  // manageReplicas (its own creates and deletes show on a later sync, as the informer sees them).
  // fullyLabeledReplicas: the template's labels as a selector (labels.Set(…).AsSelectorPreValidated
  // upstream), matched against each distinct label set of the Pods, counted once per Pod.
  const api::LabelSelector template_labels =
      api::LabelSelector::FromSet(api::Labels(JsonAt(*rs, "/spec/template")));
  const int64_t min_ready = IntAt(*rs, "/spec/minReadySeconds", 0);
  const base::SimTime now = scheduler_.clock().Now();
  int64_t fully_labeled = 0, ready = 0, available = 0;
  base::Duration recheck = 0;
  if (owned != nullptr) {
    for (const auto& [labels, count] : owned->labels) {
      if (template_labels.MatchesLabels(labels.is_null() ? nullptr : &labels)) {
        fully_labeled += count;
      }
    }
    ready = owned->ready;
    available = owned->Available(min_ready, now, &recheck);
  }
  Json status = {{"replicas", owned != nullptr ? owned->active : 0},
                 {"fullyLabeledReplicas", OmitZero(fully_labeled)},
                 {"readyReplicas", OmitZero(ready)},
                 {"availableReplicas", OmitZero(available)},
                 {"observedGeneration", api::Generation(*rs)}};
  bool changed = false;
  for (const auto& [field, value] : status.items()) {
    if (JsonAt(*rs, "/status/" + field) != value) changed = true;
  }
  if (changed) {
    auto written = client_.PatchStatus("ReplicaSet", ns, api::Name(*rs),
                                       client::PatchType::kJsonMerge, Json{{"status", status}});
    if (!written.ok() && !base::IsNotFound(written.status())) ok = false;
  }
  if (recheck > 0) queue_.AddAfter(key, recheck);  // a Pod becomes available later
  return ok;
}

}  // namespace world
