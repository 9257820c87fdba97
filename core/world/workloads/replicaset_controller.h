#pragma once
// ReplicaSetController: keeps spec.replicas Pods running for each ReplicaSet — creates Pods from
// the template when there are too few, deletes the "cheapest" ones when there are too many
// (unscheduled, then pending, then not ready, then the newest), and reports replicas,
// fullyLabeledReplicas, readyReplicas, availableReplicas and observedGeneration.
// Mirrors: kubernetes pkg/controller/replicaset/replica_set.go (syncReplicaSet, manageReplicas,
// getPodsToDelete), replica_set_utils.go (calculateStatus), controller_utils.go (ActivePods,
// GetPodFromTemplate, CreatePods).
// Simplified: Pods are found by controller ownerReference only, of kind ReplicaSet with the
// ReplicaSet's uid (upstream's claim compares the uid alone; no adoption of orphans that
// match the selector, no release); no slow-start batches (all missing Pods in one sync, up to
// burst_replicas); no ReplicaFailure condition; status is computed after the sync's own creates
// and deletes (the real one counts the Pods listed before them and catches up a sync later).
// Teaching: upstream lists the ReplicaSet's Pods on every sync; here the counts a sync needs are
// kept per ReplicaSet as the Pod informer delivers each change (OwnedPods), and only a scale-down
// lists the Pods, to rank them. Same figures, without the walk: creating N Pods takes
// N / burst_replicas syncs, and walking up to N Pods in each would make a rollout O(N^2).
// The cache does not hold the sync's own creates and deletes until the informer delivers them;
// expectations (controller_expectations.h) keep the next syncs from acting again meanwhile.
// Single-threaded; a sync runs `sync_delay` after its key is queued (worker_queue.h).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/time.h"
#include "core/client/client.h"
#include "core/informer/shared_informer.h"
#include "core/sim/scheduler.h"
#include "core/world/workloads/controller_expectations.h"
#include "core/world/workloads/informer_factory.h"
#include "core/world/workloads/worker_queue.h"

namespace world {

// kReplicaSetControllerUser is the controller's identity in kube-controller-manager.
inline const std::string kReplicaSetControllerUser =
    "system:serviceaccount:kube-system:replicaset-controller";

// ReplicaSetControllerOptions tunes the controller.
struct ReplicaSetControllerOptions {
  // sync_delay is the time from a key being queued to a worker syncing it. Defaults to 5ms.
  base::Duration sync_delay = 5 * base::kMillisecond;
  // burst_replicas caps creations or deletions per sync (BurstReplicas). Defaults to 500.
  int burst_replicas = 500;
  // watcher names its informers. Defaults to "replicaset-controller".
  std::string watcher = "replicaset-controller";
  // traced_watches puts its informers' deliveries in the trace (watch.event). Defaults to false:
  // the trace follows the operators' informers; this component's steps have their own records.
  bool traced_watches = false;
};

// ReplicaSetController acts through `client` (as kReplicaSetControllerUser in a World).
// client and scheduler must outlive this object. Not copyable.
class ReplicaSetController {
 public:
  using Options = ReplicaSetControllerOptions;

  // This constructor gives the controller informers of its own (a controller tested alone).
  ReplicaSetController(client::Client& client, sim::Scheduler& scheduler, Options options);
  // This one registers its handlers on kube-controller-manager's shared informers (which must
  // outlive it); options.watcher and traced_watches are then theirs.
  ReplicaSetController(client::Client& client, SharedInformerFactory& informers,
                       sim::Scheduler& scheduler, Options options);
  ReplicaSetController(const ReplicaSetController&) = delete;
  ReplicaSetController& operator=(const ReplicaSetController&) = delete;

  // Start starts the ReplicaSet and Pod informers (a no-op for ones already started).
  void Start();

  // queue is the work queue (the UI's metrics read its depth and counters).
  const WorkerQueue& queue() const { return queue_; }

 private:
  ReplicaSetController(client::Client& client, sim::Scheduler& scheduler, Options options,
                       SharedInformerFactory* shared);

  // OwnedPods is what a sync reads of the active Pods that one ReplicaSet controls (ActivePods:
  // controller reference of kind ReplicaSet with its uid, its namespace, IsPodActive), kept as
  // counts.
  struct OwnedPods {
    int64_t active = 0;
    int64_t ready = 0;
    // Active Pods per distinct metadata.labels (null: none), in no particular order: a
    // ReplicaSet's Pods share one or a few label sets, so fullyLabeledReplicas matches each set
    // once, not each Pod, and a set is found by equality (ordering them costs more).
    std::vector<std::pair<api::Json, int64_t>> labels;
    // Ready Pods per Ready transition time (ReadySince; a ready Pod without one is never
    // available), in time order: availableReplicas counts a prefix of it.
    std::map<base::SimTime, int64_t> ready_since;

    // Available mirrors podutil.IsPodAvailable over the counted Pods: a ready Pod is available
    // once Ready for min_ready_seconds. *wait becomes the time until the next one will be.
    int64_t Available(int64_t min_ready_seconds, base::SimTime now, base::Duration* wait) const;
  };

  // The informers' handlers (replica_set.go addPod/updatePod/deletePod, addRS/deleteRS).
  void OnPod(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj);
  void OnReplicaSet(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj);
  // Count adds delta (+1 or -1) times pod's share to its controller's OwnedPods.
  void Count(const api::ObjectPtr& pod, int64_t delta);
  // Owned returns the counts for the ReplicaSet with uid in ns, or null when it has no active Pod.
  const OwnedPods* Owned(const std::string& ns, const std::string& uid) const;
  // ActivePods lists those Pods themselves, in key order (a scale-down ranks them).
  std::vector<api::ObjectPtr> ActivePods(const std::string& ns, const std::string& uid) const;
  bool Sync(const std::string& key);

  client::Client& client_;
  sim::Scheduler& scheduler_;
  Options options_;
  std::unique_ptr<SharedInformerFactory> own_informers_;  // null when given shared ones
  SharedInformerFactory& informers_;
  // controller uid -> namespace -> counts; filled by the Pod handler.
  // Invariant: equals what ActivePods would count; an entry leaves with its last active Pod.
  std::unordered_map<std::string, std::map<std::string, OwnedPods>> owned_;
  ControllerExpectations expectations_;
  WorkerQueue queue_;
  informer::SharedIndexInformer& replicasets_;
  informer::SharedIndexInformer& pods_;
};

// ControllerKeyOf is the queue key of obj's controller when it is of kind `kind`, or "".
std::string ControllerKeyOf(const api::ObjectPtr& obj, const std::string& kind);
// EnqueueControllerOf queues the owner of obj (its controller reference, when of kind `kind`).
void EnqueueControllerOf(const api::ObjectPtr& obj, const std::string& kind, WorkerQueue& queue);

}  // namespace world
