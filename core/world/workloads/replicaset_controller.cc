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

const char kController[] = "replicaset-controller";

// OrNull renders a count the way an omitempty int32 field is stored: absent when zero.
Json OrNull(int64_t v) { return v == 0 ? Json(nullptr) : Json(v); }

}  // namespace

void EnqueueControllerOf(const api::ObjectPtr& obj, const std::string& kind, SyncQueue& queue) {
  if (obj == nullptr) return;
  const api::Json* ref = api::ControllerRef(*obj);
  if (ref == nullptr || !FieldIs(*ref, "kind", kind)) return;
  queue.Add(api::ObjectKey(api::Namespace(*obj), api::MemberString(*ref, "name")));
}

ReplicaSetController::ReplicaSetController(client::Client& client, sim::Scheduler& scheduler,
                                           Options options)
    : ReplicaSetController(client, scheduler, std::move(options), nullptr) {}

ReplicaSetController::ReplicaSetController(client::Client& client, SharedWatches& watches,
                                           sim::Scheduler& scheduler, Options options)
    : ReplicaSetController(client, scheduler, std::move(options), &watches) {}

ReplicaSetController::ReplicaSetController(client::Client& client, sim::Scheduler& scheduler,
                                           Options options, SharedWatches* shared)
    : client_(client),
      scheduler_(scheduler),
      options_(std::move(options)),
      own_watches_(shared != nullptr ? nullptr
                                     : SharedWatches::Make(client, scheduler, options_.watcher,
                                                           options_.traced_watches)),
      watches_(shared != nullptr ? *shared : *own_watches_),
      replicasets_(watches_.Watch("ReplicaSet",
                                  [this](const api::ObjectPtr&, const api::ObjectPtr& n) {
                                    if (n != nullptr) queue_.Add(api::ObjectKey(*n));
                                  })),
      pods_(watches_.Watch(
          "Pod", [this](const api::ObjectPtr& o, const api::ObjectPtr& n) { OnPod(o, n); })),
      queue_(scheduler,
             SyncQueue::Options{kController, options_.sync_delay, 50 * base::kMillisecond,
                                10 * base::kSecond},
             [this](const std::string& key) { return Sync(key); }) {}

void ReplicaSetController::Start() {
  replicasets_.Start();
  pods_.Start();
}

void ReplicaSetController::OnPod(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
  // The handler sees every change of the shared cache (add, update, delete, relist, Observe), so
  // the counts follow the cache exactly: the new version's share in, the old one's out. In that
  // order an update keeps its entries above zero instead of dropping and copying them again.
  Count(new_obj, +1);
  Count(old_obj, -1);
  EnqueueControllerOf(new_obj, "ReplicaSet", queue_);
  EnqueueControllerOf(old_obj, "ReplicaSet", queue_);
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
  for (const api::ObjectPtr& pod : pods_.ControlledBy(uid)) {
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
  api::ObjectPtr rs = replicasets_.GetByKey(key);
  if (rs == nullptr) return true;
  sim::Trace& trace = scheduler_.trace();
  const std::string ns = api::Namespace(*rs);
  const std::string uid = api::Uid(*rs);
  const std::string object = "ReplicaSet/" + key;
  const OwnedPods* owned = Owned(ns, uid);
  const int64_t active = owned != nullptr ? owned->active : 0;
  const int64_t replicas = IntAt(*rs, "/spec/replicas", 1);
  bool ok = true;
  if (!api::IsBeingDeleted(*rs)) {
    // mirrors replica_set.go manageReplicas
    const int64_t diff = active - replicas;
    if (diff < 0) {
      const int64_t n = std::min<int64_t>(-diff, options_.burst_replicas);
      const sim::CauseScope cause(
          trace,
          EmitAction(trace, kController, object, "create-pods",
                     "want " + std::to_string(replicas) + ", have " + std::to_string(active) +
                         ": creating " + std::to_string(n)),
          sim::CauseScope::kIfKnown);
      for (int64_t i = 0; i < n; ++i) {
        auto created = client_.Create(
            PodFromTemplate(JsonAt(*rs, "/spec/template"), *rs, api::Name(*rs) + "-"));
        if (!created.ok()) {
          ok = false;
          break;
        }
        pods_.Observe(created.value());
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
      const sim::CauseScope cause(trace,
                                  EmitAction(trace, kController, object, "delete-pods",
                                             "want " + std::to_string(replicas) + ", have " +
                                                 std::to_string(active) + ": deleting " + names),
                                  sim::CauseScope::kIfKnown);
      for (int64_t i = 0; i < n; ++i) {
        auto deleted = client_.Delete("Pod", ns, api::Name(*victims[i]));
        if (!deleted.ok() && !base::IsNotFound(deleted.status())) {
          ok = false;
          break;
        }
        if (deleted.ok()) pods_.ObserveDelete(deleted.value());
      }
    }
  }

  // mirrors replica_set_utils.go calculateStatus.
  // NOTE: computed from the cache after manageReplicas (it holds our own creates and deletes);
  // the real controller uses the Pods listed before and fixes the counts on the next sync, a
  // window in which a Deployment can scale an old ReplicaSet down once too often.
  // Read again: our own creates and deletes have changed the counts (or removed the entry).
  owned = Owned(ns, uid);
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
                 {"fullyLabeledReplicas", OrNull(fully_labeled)},
                 {"readyReplicas", OrNull(ready)},
                 {"availableReplicas", OrNull(available)},
                 {"observedGeneration", api::Generation(*rs)}};
  bool changed = false;
  for (const auto& [field, value] : status.items()) {
    if (JsonAt(*rs, "/status/" + field) != value) changed = true;
  }
  if (changed) {
    auto written = client_.PatchStatus("ReplicaSet", ns, api::Name(*rs),
                                       client::PatchType::kJsonMerge, Json{{"status", status}});
    if (written.ok()) {
      replicasets_.Observe(written.value());
    } else if (!base::IsNotFound(written.status())) {
      ok = false;
    }
  }
  if (recheck > 0) queue_.AddAfter(key, recheck);  // a Pod becomes available later
  return ok;
}

}  // namespace world
