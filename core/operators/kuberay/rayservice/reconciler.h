#pragma once
// RayServiceReconciler: serves a Ray Serve application with zero-downtime upgrades. It keeps an
// active RayCluster and, while a spec change needs a new cluster, a pending one; it puts the
// Serve config on the cluster's dashboard, points the RayService's head and serve Services at a
// cluster whose applications all run, promotes pending to active, and deletes old clusters 60s
// after they were replaced.
// Mirrors: ray-operator/controllers/ray/rayservice_controller.go of KubeRay v1.7.0 (Reconcile,
// reconcileRayCluster, shouldPrepareNewCluster, shouldUpdateCluster, reconcileServe,
// reconcileServicesToReadyCluster, calculateStatus, cleanUpRayClusterInstance).
// Simplified: upgrade strategies NewCluster and None are modelled; NewClusterWithIncrementalUpgrade
// (Gateway/HTTPRoute traffic shifting) is treated as NewCluster; the
// ray.io/initializing-timeout annotation is not modelled; numServeEndpoints counts the ready
// addresses of the serve Service's Endpoints (the world keeps no EndpointSlices); the only event
// recorded is UpdatedHeadPodServeLabel (the others are log lines).
// The head Pods' ray.io/serve label follows their Serve proxy's health (serve_label.h).
// Teaching: For(RayService) carries Or(GenerationChanged, LabelChanged, AnnotationChanged), so
// the operator's status writes do not reconcile again — the 2s RequeueAfter is the clock.
// Single-threaded; time from ReconcileContext::now; the serve-config cache and the clusters'
// deletion times are in memory, as upstream (an operator restart forgets them).

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "core/api/object.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/operators/kuberay/common/events.h"
#include "core/operators/kuberay/dashboard/dashboard_client.h"
#include "core/reconcile/reconcile.h"
#include "core/sim/prng.h"

namespace kuberay::rayservice {

inline const std::string kKind = "RayService";
inline const std::string kRayServiceFinalizer = "ray.io/rayservice-finalizer";

struct Options {
  // requeue is ServiceDefaultRequeueDuration. Defaults to 2s.
  base::Duration requeue = 2 * base::kSecond;
  // cluster_deletion_delay is RayClusterDeletionDelayDuration, unless the RayService sets
  // spec.rayClusterDeletionDelaySeconds. Defaults to 60s.
  base::Duration cluster_deletion_delay = 60 * base::kSecond;
  // enable_zero_downtime is env ENABLE_ZERO_DOWNTIME (used when upgradeStrategy is unset).
  // Defaults to true.
  bool enable_zero_downtime = true;
  // events is the event recorder's client (straight to the API server); null records no events.
  client::Client* events = nullptr;
};

class RayServiceReconciler final : public reconcile::Reconciler {
 public:
  RayServiceReconciler(client::Client& client, dashboard::ClientProvider& dashboards,
                       sim::Prng prng, Options options = {});
  RayServiceReconciler(const RayServiceReconciler&) = delete;
  RayServiceReconciler& operator=(const RayServiceReconciler&) = delete;

  reconcile::Outcome Reconcile(reconcile::ReconcileContext& ctx,
                               const reconcile::Request& req) override;
  const Options& options() const { return options_; }

 private:
  struct Pass;  // reconciler.cc
  reconcile::Outcome Finalize(Pass& p);
  base::Status CleanUpDanglingClusters(Pass& p);
  // Suspend returns an Outcome to return at once while suspending or suspended.
  std::optional<reconcile::Outcome> Suspend(Pass& p);
  base::Status ReconcileRayClusters(Pass& p);
  // UpdateHeadPodServeLabels runs updateHeadPodServeLabel on the active, then the pending cluster.
  base::Status UpdateHeadPodServeLabels(Pass& p);
  // ShouldPrepareNewCluster mirrors shouldPrepareNewCluster: pending_serving means the
  // Services already point at the pending cluster (promotion is next).
  bool ShouldPrepareNewCluster(Pass& p, bool pending_serving) const;
  // ReconcileServe puts the Serve config on cluster when needed and reports whether every
  // application is RUNNING; statuses receives the applications' statuses.
  bool ReconcileServe(Pass& p, const api::Json& cluster, api::Json& statuses);
  base::Status ReconcileServices(Pass& p, const api::Json& cluster);
  // CalculateStatus mirrors calculateStatus; served is the cluster the Services were pointed at
  // in this pass ("" when no cluster was ready).
  void CalculateStatus(Pass& p, const std::string& served, const api::Json& active_apps,
                       const api::Json& pending_apps);

  client::Client& client_;
  dashboard::ClientProvider& dashboards_;
  sim::Prng prng_;
  Options options_;
  // serve_configs_[rayservice key][cluster name] is the serveConfigV2 last put on that cluster.
  std::map<std::string, std::map<std::string, std::string>> serve_configs_;
  // deletion_times_[namespace/cluster] is when a replaced cluster will be deleted.
  std::map<std::string, base::SimTime> deletion_times_;
  std::unique_ptr<EventRecorder> recorder_;  // null when options_.events is null
};

// BuildRayClusterForRayService is the RayCluster named name for rayservice: its labels plus
// ray.io/originated-from-*, its annotations plus the hash, num-worker-groups and
// kuberay-version, spec = rayClusterConfig, controlled by the RayService.
base::StatusOr<api::Json> BuildRayClusterForRayService(const api::Json& rayservice,
                                                       const std::string& name);

}  // namespace kuberay::rayservice
