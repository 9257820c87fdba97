#pragma once
// KubeRayOperator: one operator process — main.go after flag parsing. It builds the manager
// (cache selectors, watch namespaces, leader election `ray-operator-leader`), and registers the
// controllers in main.go's order, each behind its condition (always, or a feature gate).
// Mirrors: ray-operator/main.go (v1.7.0): ctrl.NewManager(…, Options{Cache: …,
// LeaderElection, LeaderElectionID}), ray.NewReconciler(…).SetupWithManager(mgr,
// reconcileConcurrency), then RayService, RayJob, RayCronJob (gate RayCronJob) and
// NetworkPolicy (gate RayClusterNetworkPolicy).
// Simplified: DefaultRegistrations() holds only RayCluster; AllRegistrations() adds the others;
// webhooks and the mTLS controller are not modelled.
// Single-threaded; the process lives as long as its Pod's container runs.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/client/client.h"
#include "core/controller/controller.h"
#include "core/manager/manager.h"
#include "core/operators/kuberay/common/config.h"
#include "core/operators/kuberay/dashboard/dashboard_client.h"
#include "core/operators/kuberay/operator/options.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"

namespace kuberay {

// RegistrationContext is what a controller's setup gets from main.go.
struct RegistrationContext {
  manager::Manager& mgr;
  const Options& options;
  const OperatorConfig& config;
  sim::Prng& prng;
  client::Client& events;  // the event recorder's client (straight to the API server)
  // keep_alive holds whatever the setup must keep for the life of the process (the reconciler).
  std::vector<std::shared_ptr<void>>& keep_alive;
};

// ControllerRegistration is one `if cond { SetupWithManager }` block of main.go.
struct ControllerRegistration {
  std::string name;  // "RayCluster"
  // enabled decides from the gates and environment; null means always.
  std::function<bool(const OperatorConfig&)> enabled;
  std::function<base::StatusOr<controller::Controller*>(RegistrationContext&)> setup;
};

// DefaultRegistrations: RayCluster, always.
std::vector<ControllerRegistration> DefaultRegistrations();

// AllRegistrations: main.go's order — RayCluster, RayService, RayJob (always on in v1.7), then
// RayCronJob (gate RayCronJob) and NetworkPolicy (gate RayClusterNetworkPolicy), both alpha and
// off by default. dashboards must outlive every process built from the result.
std::vector<ControllerRegistration> AllRegistrations(dashboard::ClientProvider& dashboards);

class KubeRayOperator {
 public:
  // api is the operator's service-account client (with fault injection); scheduler, api and
  // take_injected_latency must outlive this object. replica is the Pod name (the leader-election
  // identity); seed seeds the process's PRNG (generated names: clusters, job ids, replicas).
  KubeRayOperator(client::Client& api, sim::Scheduler& scheduler, std::string replica,
                  uint64_t seed, Options options, OperatorConfig config,
                  std::function<base::Duration()> take_injected_latency,
                  std::vector<ControllerRegistration> registrations = DefaultRegistrations());
  ~KubeRayOperator();
  KubeRayOperator(const KubeRayOperator&) = delete;
  KubeRayOperator& operator=(const KubeRayOperator&) = delete;

  manager::Manager& manager() { return *manager_; }
  const std::vector<controller::Controller*>& controllers() const { return controllers_; }

 private:
  Options options_;
  OperatorConfig config_;
  sim::Prng prng_;
  std::vector<std::shared_ptr<void>> keep_alive_;  // outlives the manager's controllers
  std::unique_ptr<manager::Manager> manager_;
  std::vector<controller::Controller*> controllers_;
};

}  // namespace kuberay
