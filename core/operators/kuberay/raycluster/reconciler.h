#pragma once
// RayClusterReconciler: turns a RayCluster into a head Pod, worker Pods and Services, and reports
// what it sees in status. One reconcile: read the cluster from the cache, validate (a failure is
// an event and nothing else), run the sequential reconcile functions (autoscaler
// ServiceAccount/Role/RoleBinding, head Service, headless Service, serve Service, Pods) until
// the first error, compute status, write it only when something that matters changed, and
// requeue after 2 s (error or status change) or 300 s.
// Mirrors: ray-operator/controllers/ray/raycluster_controller.go (Reconcile, rayClusterReconcile,
// reconcileAutoscalerServiceAccount/Role/RoleBinding, reconcileHeadService,
// reconcileHeadlessService, reconcileServeService, reconcilePods, shouldDeletePod,
// shouldRecreatePodsForUpgrade, createHeadPod, createWorkerPod(WithIndex), deleteAllPods,
// updateRayClusterStatus) and common/rbac.go (BuildServiceAccount, BuildRole, BuildRoleBinding).
// Simplified: no Ingress/Route, auth Secret, GCS fault tolerance (Redis finalizer and cleanup
// Job, RocksDB PVC), mTLS, batch schedulers or metrics; DeleteAllOf is a List then one Delete
// per Pod.
// Teaching: scale-down without the autoscaler deletes the first Pods of the cache's List, as
// upstream does ("randomly deleting"): upstream's informer indexer lists from a Go map, whose
// order changes from call to call; the sandbox's cache lists in key order, so the same Pods go
// first every time — and since worker names end in random characters, that order is still
// neither oldest-first nor newest-first. Multi-host groups (multi_host.cc) go by replica name.
// Single-threaded; time comes from ReconcileContext::now.

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/api/object.h"
#include "core/client/client.h"
#include "core/operators/kuberay/common/config.h"
#include "core/operators/kuberay/common/events.h"
#include "core/operators/kuberay/raycluster/expectations.h"
#include "core/operators/kuberay/raycluster/status.h"
#include "core/reconcile/reconcile.h"
#include "core/sim/prng.h"

namespace kuberay {

inline const std::string kRayClusterKind = "RayCluster";

// ShouldDeletePod: Failed or Succeeded Pods always; Running Pods whose Ray container terminated
// only with restartPolicy Never. reason, when not null, explains the decision (as upstream logs
// it).
bool ShouldDeletePod(const api::Json& pod, const std::string& node_type, std::string* reason);

class RayClusterReconciler final : public reconcile::Reconciler {
 public:
  // client is the manager's client (cache reads, API writes); events goes to the API server
  // directly (record.EventRecorder). Both and prng must outlive this object.
  RayClusterReconciler(client::Client& client, client::Client& events, sim::Prng& prng,
                       OperatorConfig config);

  reconcile::Outcome Reconcile(reconcile::ReconcileContext& ctx,
                               const reconcile::Request& req) override;

  const OperatorConfig& config() const { return config_; }
  ScaleExpectations& expectations() { return expectations_; }

 private:
  ReconcileError ReconcileAutoscalerServiceAccount(reconcile::ReconcileContext& ctx, const api::Json& c);
  ReconcileError ReconcileAutoscalerRole(reconcile::ReconcileContext& ctx, const api::Json& c);
  ReconcileError ReconcileAutoscalerRoleBinding(reconcile::ReconcileContext& ctx, const api::Json& c);
  ReconcileError ReconcileHeadService(reconcile::ReconcileContext& ctx, const api::Json& c);
  ReconcileError ReconcileHeadlessService(reconcile::ReconcileContext& ctx, const api::Json& c);
  ReconcileError ReconcileServeService(reconcile::ReconcileContext& ctx, const api::Json& c);
  ReconcileError ReconcilePods(reconcile::ReconcileContext& ctx, const api::Json& c);

  // CreateOwned creates obj owned by the cluster unless it exists; kind names the events.
  ReconcileError CreateIfAbsent(reconcile::ReconcileContext& ctx, const api::Json& cluster,
                                api::Json obj, const std::string& created_reason,
                                const std::string& noun);
  base::Status CreateService(reconcile::ReconcileContext& ctx, const api::Json& cluster, api::Json svc);
  base::Status CreateHeadPod(reconcile::ReconcileContext& ctx, const api::Json& cluster,
                             const std::string& hash);
  // CreateWorkerPod creates one worker: worker_template (BuildWorkerPodTemplate) stamped with
  // the replica's labels.
  base::Status CreateWorkerPod(reconcile::ReconcileContext& ctx, const api::Json& cluster,
                               const api::Json& group, const api::Json& worker_template,
                               int replica_index, const std::string& replica_name, int host_index);
  // ReconcileMultiHostWorkerGroup scales a numOfHosts > 1 group by whole replicas and replaces
  // a replica with a missing or unhealthy host atomically (multi_host.cc).
  ReconcileError ReconcileMultiHostWorkerGroup(reconcile::ReconcileContext& ctx,
                                               const api::Json& cluster, const api::Json& group,
                                               const std::vector<api::ObjectPtr>& workers);
  // DeleteReplicaPods deletes pods of group_name (deletePods): NotFound skipped, each deletion
  // expected and recorded with reason.
  ReconcileError DeleteReplicaPods(reconcile::ReconcileContext& ctx, const api::Json& cluster,
                                   const std::vector<api::ObjectPtr>& pods,
                                   const std::string& group_name, const std::string& reason);
  // DeleteAllPods deletes every Pod matching selector (DeleteAllOf).
  base::Status DeleteAllPods(const std::string& ns, const std::string& selector);
  bool ShouldRecreatePodsForUpgrade(reconcile::ReconcileContext& ctx, const api::Json& cluster,
                                    const std::string& hash);
  base::StatusOr<std::vector<api::ObjectPtr>> ListPods(const std::string& ns,
                                                       const std::string& selector);
  void Event(const api::Json& cluster, const std::string& type, const std::string& reason,
             const std::string& message, base::SimTime now);
  // ClusterHash is GenerateHashWithoutReplicasAndWorkersToDelete(cluster's spec) and
  // DesiredResources is CalculateDesiredResources(cluster), both remembered per uid and
  // generation: the API server bumps a custom resource's generation on every change outside
  // metadata and status, so one generation has one spec. Upstream derives them on every
  // reconcile; only the cost differs. DesiredResources answers null for a cluster that did not
  // come from the API server (no uid or generation): CalculateStatus then sums it itself.
  std::string ClusterHash(const api::Json& cluster);
  const ResourceList* DesiredResources(const api::Json& cluster);

  struct RememberedSpec {
    int64_t generation = 0;
    std::optional<std::string> hash;
    std::optional<ResourceList> desired_resources;
  };
  // SpecMemo is the cluster's entry, emptied when its generation moved; null without a uid or a
  // generation.
  RememberedSpec* SpecMemo(const api::Json& cluster);

  client::Client& client_;
  EventRecorder recorder_;
  sim::Prng& prng_;
  OperatorConfig config_;
  ScaleExpectations expectations_;
  std::unordered_map<std::string, RememberedSpec> cluster_specs_;  // by uid
};

}  // namespace kuberay
