#include "core/world/workloads/replicaset_controller.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/api/pointer.h"
#include "core/api/selector.h"
#include "core/api/well_known_keys.h"
#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

using api::Json;

const char kController[] = "replicaset-controller";

// IsAvailable mirrors podutil.IsPodAvailable: Ready for at least minReadySeconds. When a Ready
// Pod is not available yet, *wait is lowered to the time until it will be.
bool IsAvailable(const Json& pod, int64_t min_ready_seconds, base::SimTime now,
                 base::Duration* wait) {
  if (!IsPodReady(pod)) return false;
  if (min_ready_seconds <= 0) return true;
  auto since = ReadySince(pod);
  if (!since.has_value()) return false;
  const base::SimTime at = *since + min_ready_seconds * base::kSecond;
  if (at <= now) return true;
  if (*wait == 0 || at - now < *wait) *wait = at - now;
  return false;
}

// OrNull renders a count the way an omitempty int32 field is stored: absent when zero.
Json OrNull(int64_t v) { return v == 0 ? Json(nullptr) : Json(v); }

}  // namespace

void EnqueueControllerOf(const api::ObjectPtr& obj, const std::string& kind, SyncQueue& queue) {
  if (obj == nullptr) return;
  // Read in place: the workload controllers call this for every delivery of their watches.
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
  EnqueueControllerOf(new_obj, "ReplicaSet", queue_);
  EnqueueControllerOf(old_obj, "ReplicaSet", queue_);
}

// mirrors replica_set.go syncReplicaSet: list owned Pods, manageReplicas, then the status.
bool ReplicaSetController::Sync(const std::string& key) {
  api::ObjectPtr rs = replicasets_.GetByKey(key);
  if (rs == nullptr) return true;
  sim::Trace& trace = scheduler_.trace();
  const std::string ns = api::Namespace(*rs);
  const std::string object = "ReplicaSet/" + key;
  std::vector<api::ObjectPtr> active;
  for (const api::ObjectPtr& pod : pods_.ControlledBy(api::Uid(*rs))) {
    if (api::MetaText(*pod, api::keys::Namespace()) == ns && IsPodActive(*pod)) {
      active.push_back(pod);
    }
  }
  const int64_t replicas = IntAt(*rs, "/spec/replicas", 1);
  bool ok = true;
  if (!api::IsBeingDeleted(*rs)) {
    // mirrors replica_set.go manageReplicas
    const int64_t diff = static_cast<int64_t>(active.size()) - replicas;
    if (diff < 0) {
      const int64_t n = std::min<int64_t>(-diff, options_.burst_replicas);
      ScopedCause cause(
          trace, EmitAction(trace, kController, object, "create-pods",
                            "want " + std::to_string(replicas) + ", have " +
                                std::to_string(active.size()) + ": creating " + std::to_string(n)));
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
      std::vector<api::ObjectPtr> victims = active;
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
      ScopedCause cause(trace,
                        EmitAction(trace, kController, object, "delete-pods",
                                   "want " + std::to_string(replicas) + ", have " +
                                       std::to_string(active.size()) + ": deleting " + names));
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
  active.clear();
  for (const api::ObjectPtr& pod : pods_.ControlledBy(api::Uid(*rs))) {
    if (api::MetaText(*pod, api::keys::Namespace()) == ns && IsPodActive(*pod)) {
      active.push_back(pod);
    }
  }
  // fullyLabeledReplicas: the template's labels as a selector (labels.Set(…).AsSelectorPreValidated
  // upstream), matched against each Pod's labels in place: every sync reads every Pod.
  const api::LabelSelector template_labels =
      api::LabelSelector::FromSet(api::Labels(JsonAt(*rs, "/spec/template")));
  const int64_t min_ready = IntAt(*rs, "/spec/minReadySeconds", 0);
  const base::SimTime now = scheduler_.clock().Now();
  int64_t fully_labeled = 0, ready = 0, available = 0;
  base::Duration recheck = 0;
  for (const api::ObjectPtr& pod : active) {
    if (template_labels.MatchesObject(*pod)) ++fully_labeled;
    if (IsPodReady(*pod)) ++ready;
    if (IsAvailable(*pod, min_ready, now, &recheck)) ++available;
  }
  Json status = {{"replicas", static_cast<int64_t>(active.size())},
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
