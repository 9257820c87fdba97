#pragma once
// DeploymentController: rolls a Deployment's Pod template out through ReplicaSets. Each distinct
// template gets a ReplicaSet named `<deployment>-<pod-template-hash>`; RollingUpdate scales the
// new one up and the old ones down within maxSurge / maxUnavailable, Recreate scales the old ones
// to zero and waits for their Pods to go before starting the new one. It keeps the revision
// annotation, prunes old ReplicaSets beyond revisionHistoryLimit, and reports replicas,
// updatedReplicas, readyReplicas, availableReplicas, unavailableReplicas, observedGeneration and
// the Available and Progressing conditions.
// Mirrors: kubernetes pkg/controller/deployment/deployment_controller.go (syncDeployment),
// sync.go (getNewReplicaSet, scaleReplicaSet, calculateStatus, cleanupDeployment), rolling.go
// (rolloutRolling, reconcileNewReplicaSet, reconcileOldReplicaSets, cleanupUnhealthyReplicas,
// scaleDownOldReplicaSetsForRollingUpdate), recreate.go (rolloutRecreate, oldPodsRunning),
// progress.go (syncRolloutStatus), util/deployment_util.go.
// Simplified: no proportional scaling of several active ReplicaSets mid-rollout (the new one
// absorbs a scale change), no rollback spec, no progress deadline (Progressing never turns
// False), no adoption of orphaned ReplicaSets; a name collision is retried, not resolved with
// collisionCount.
// Teaching: a real controller writes the revision annotation through UpdateStatus, whose
// Deployment strategy keeps annotation changes, so it does not bump metadata.generation; our
// API server's /status takes only status, so the annotation goes through the main endpoint and
// the first rollout leaves generation 2 (observedGeneration follows).
// Single-threaded; a sync runs `sync_delay` after its key is queued (worker_queue.h).

#include <memory>
#include <string>
#include <vector>

#include "core/base/time.h"
#include "core/client/client.h"
#include "core/informer/shared_informer.h"
#include "core/sim/scheduler.h"
#include "core/world/workloads/informer_factory.h"
#include "core/world/workloads/worker_queue.h"

namespace world {

// kDeploymentControllerUser is the controller's identity in kube-controller-manager.
inline const std::string kDeploymentControllerUser =
    "system:serviceaccount:kube-system:deployment-controller";

// DeploymentControllerOptions tunes the controller.
struct DeploymentControllerOptions {
  // sync_delay is the time from a change to the sync it triggers. Defaults to 5ms.
  base::Duration sync_delay = 5 * base::kMillisecond;
  // watcher names its watches. Defaults to "deployment-controller".
  std::string watcher = "deployment-controller";
  // traced_watches puts its watch deliveries in the trace (watch.event). Defaults to false:
  // the trace follows the operators' informers; this component's steps have their own records.
  bool traced_watches = false;
};

// DeploymentController acts through `client` (as kDeploymentControllerUser in a World).
// client and scheduler must outlive this object. Not copyable.
class DeploymentController {
 public:
  using Options = DeploymentControllerOptions;

  // This constructor gives the controller informers of its own (a controller tested alone).
  DeploymentController(client::Client& client, sim::Scheduler& scheduler, Options options);
  // This one registers its handlers on kube-controller-manager's shared informers (which
  // must outlive it); options.watcher and traced_watches are then theirs.
  DeploymentController(client::Client& client, SharedInformerFactory& informers,
                       sim::Scheduler& scheduler, Options options);
  DeploymentController(const DeploymentController&) = delete;
  DeploymentController& operator=(const DeploymentController&) = delete;

  // Start watches Deployments, ReplicaSets and Pods.
  void Start();

  // queue is the work queue (the UI's metrics read its depth and counters).
  const WorkerQueue& queue() const { return queue_; }

 private:
  DeploymentController(client::Client& client, sim::Scheduler& scheduler, Options options,
                       SharedInformerFactory* shared);

  // Rollout is one sync's view of a Deployment and its ReplicaSets (latest known versions).
  struct Rollout {
    api::ObjectPtr deployment;
    api::ObjectPtr new_rs;                // null until created
    std::vector<api::ObjectPtr> old_rss;  // oldest first
    bool created_new = false;
  };

  void OnReplicaSet(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj);
  void OnPod(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj);
  bool Sync(const std::string& key);
  // Classify finds the new ReplicaSet (template equal to the Deployment's) and the old ones.
  Rollout Classify(const api::ObjectPtr& deployment) const;
  // EnsureNewReplicaSet creates the new ReplicaSet (or fixes its revision); false on error.
  bool EnsureNewReplicaSet(Rollout& r, int64_t replicas);
  // Scale sets a ReplicaSet's spec.replicas (and its replica annotations); false on error.
  bool Scale(Rollout& r, api::ObjectPtr& rs, int64_t replicas);
  bool RolloutRolling(Rollout& r, bool* changed);
  bool RolloutRecreate(Rollout& r, bool* changed);
  bool OldPodsRunning(const Rollout& r) const;
  bool Cleanup(const Rollout& r);
  bool SyncStatus(const Rollout& r);
  int64_t MaxRevision(const std::vector<api::ObjectPtr>& rss) const;

  client::Client& client_;
  sim::Scheduler& scheduler_;
  Options options_;
  std::unique_ptr<SharedInformerFactory> own_informers_;  // null when given shared ones
  SharedInformerFactory& informers_;
  informer::SharedIndexInformer& deployments_;
  informer::SharedIndexInformer& replicasets_;
  informer::SharedIndexInformer& pods_;
  WorkerQueue queue_;
};

}  // namespace world
