#include "core/operators/kuberay/operator/operator.h"

#include "core/operators/kuberay/networkpolicy/reconciler.h"
#include "core/operators/kuberay/networkpolicy/setup.h"
#include "core/operators/kuberay/raycluster/reconciler.h"
#include "core/operators/kuberay/raycluster/setup.h"
#include "core/operators/kuberay/raycronjob/reconciler.h"
#include "core/operators/kuberay/raycronjob/setup.h"
#include "core/operators/kuberay/rayjob/reconciler.h"
#include "core/operators/kuberay/rayjob/setup.h"
#include "core/operators/kuberay/rayservice/reconciler.h"
#include "core/operators/kuberay/rayservice/setup.h"

namespace kuberay {

std::vector<ControllerRegistration> DefaultRegistrations() {
  ControllerRegistration raycluster;
  raycluster.name = "RayCluster";
  raycluster.setup = [](RegistrationContext& ctx) -> base::StatusOr<controller::Controller*> {
    auto reconciler = std::make_shared<RayClusterReconciler>(ctx.mgr.GetClient(), ctx.events,
                                                             ctx.prng, ctx.config);
    ctx.keep_alive.push_back(reconciler);
    RayClusterSetupOptions setup;
    setup.max_concurrent_reconciles = ctx.options.reconcile_concurrency;
    setup.use_priority_queue = ctx.options.use_priority_queue;
    return SetupRayClusterWithManager(ctx.mgr, *reconciler, setup);
  };
  return {raycluster};
}

// mirrors ray-operator/main.go: RayCluster, then RayService, then RayJob, then RayCronJob (gate
// RayCronJob) and NetworkPolicy (gate RayClusterNetworkPolicy), with the operator's environment
// and feature gates turned into each reconciler's options.
std::vector<ControllerRegistration> AllRegistrations(dashboard::ClientProvider& dashboards) {
  std::vector<ControllerRegistration> all = DefaultRegistrations();
  dashboard::ClientProvider* provider = &dashboards;

  ControllerRegistration rayservice;
  rayservice.name = "RayService";
  rayservice.setup = [provider](RegistrationContext& ctx) -> base::StatusOr<controller::Controller*> {
    rayservice::Options options;
    if (!ctx.config.Env("ENABLE_ZERO_DOWNTIME").empty()) {
      options.enable_zero_downtime = !ctx.config.EnvIs("ENABLE_ZERO_DOWNTIME", "false");
    }
    options.events = &ctx.events;
    auto reconciler = std::make_shared<rayservice::RayServiceReconciler>(
        ctx.mgr.GetClient(), *provider, ctx.prng.Derive(), options);
    ctx.keep_alive.push_back(reconciler);
    rayservice::SetupOptions setup;
    setup.max_concurrent_reconciles = ctx.options.reconcile_concurrency;
    setup.use_priority_queue = ctx.options.use_priority_queue;
    return rayservice::SetupWithManager(ctx.mgr, *reconciler, setup);
  };
  all.push_back(rayservice);

  ControllerRegistration rayjob;
  rayjob.name = "RayJob";
  rayjob.setup = [provider](RegistrationContext& ctx) -> base::StatusOr<controller::Controller*> {
    rayjob::Options options;
    options.delete_rayjob_cr_after_job_finishes =
        ctx.config.EnvIs("DELETE_RAYJOB_CR_AFTER_JOB_FINISHES", "true");
    options.ray_job_deletion_policy = ctx.config.features.Enabled(kRayJobDeletionPolicy);
    options.events = &ctx.events;
    auto reconciler = std::make_shared<rayjob::RayJobReconciler>(
        ctx.mgr.GetClient(), *provider, ctx.prng.Derive(), options);
    ctx.keep_alive.push_back(reconciler);
    rayjob::SetupOptions setup;
    setup.max_concurrent_reconciles = ctx.options.reconcile_concurrency;
    setup.use_priority_queue = ctx.options.use_priority_queue;
    return rayjob::SetupWithManager(ctx.mgr, *reconciler, setup);
  };
  all.push_back(rayjob);

  ControllerRegistration raycronjob;
  raycronjob.name = "RayCronJob";
  raycronjob.enabled = [](const OperatorConfig& c) { return c.features.Enabled(kRayCronJob); };
  raycronjob.setup = [](RegistrationContext& ctx) -> base::StatusOr<controller::Controller*> {
    auto reconciler =
        std::make_shared<raycronjob::RayCronJobReconciler>(ctx.mgr.GetClient(), ctx.events, ctx.config);
    ctx.keep_alive.push_back(reconciler);
    raycronjob::SetupOptions setup;
    setup.max_concurrent_reconciles = ctx.options.reconcile_concurrency;
    setup.use_priority_queue = ctx.options.use_priority_queue;
    return raycronjob::SetupWithManager(ctx.mgr, *reconciler, setup);
  };
  all.push_back(raycronjob);

  ControllerRegistration networkpolicy;
  networkpolicy.name = "NetworkPolicy";
  networkpolicy.enabled = [](const OperatorConfig& c) {
    return c.features.Enabled(kRayClusterNetworkPolicy);
  };
  networkpolicy.setup = [](RegistrationContext& ctx) -> base::StatusOr<controller::Controller*> {
    auto reconciler =
        std::make_shared<networkpolicy::NetworkPolicyReconciler>(ctx.mgr.GetClient(), ctx.events);
    ctx.keep_alive.push_back(reconciler);
    networkpolicy::SetupOptions setup;
    setup.max_concurrent_reconciles = ctx.options.reconcile_concurrency;
    setup.use_priority_queue = ctx.options.use_priority_queue;
    return networkpolicy::SetupWithManager(ctx.mgr, *reconciler, setup);
  };
  all.push_back(networkpolicy);
  return all;
}

// mirrors ray-operator/main.go main (after flag parsing)
KubeRayOperator::KubeRayOperator(client::Client& api, sim::Scheduler& scheduler,
                                 std::string replica, uint64_t seed, Options options,
                                 OperatorConfig config,
                                 std::function<base::Duration()> take_injected_latency,
                                 std::vector<ControllerRegistration> registrations)
    : options_(std::move(options)), config_(std::move(config)), prng_(seed) {
  manager::Options mgr;
  mgr.name = kOperatorName;
  mgr.replica = replica;
  mgr.cache = CacheOptions(options_);
  mgr.controller.recover_panic = options_.recover_panic;
  mgr.leader_election = options_.enable_leader_election;
  mgr.leader_election_options.lease_name = kLeaderElectionID;
  mgr.leader_election_options.lease_namespace =
      options_.leader_election_namespace.empty() ? "default" : options_.leader_election_namespace;
  mgr.leader_election_options.identity = options_.leader_election_identity.empty()
                                             ? replica
                                             : options_.leader_election_identity;
  manager_ = std::make_unique<manager::Manager>(api, scheduler, prng_.Derive(), mgr,
                                                std::move(take_injected_latency));
  manager_->Log("INFO", "Loaded configuration",
                {{"reconcileConcurrency", std::to_string(options_.reconcile_concurrency)},
                 {"enableLeaderElection", options_.enable_leader_election ? "true" : "false"},
                 {"watchNamespace", options_.watch_namespace}});
  RegistrationContext ctx{*manager_, options_, config_, prng_, manager_->GetAPIReader(), keep_alive_};
  for (const ControllerRegistration& r : registrations) {
    if (r.enabled && !r.enabled(config_)) continue;
    auto ctrl = r.setup(ctx);
    if (!ctrl.ok()) {
      manager_->Log("ERROR", "unable to create controller",
                    {{"controller", r.name}, {"error", ctrl.status().message()}});
      continue;
    }
    controllers_.push_back(*ctrl);
  }
}

// The manager's destructor stops what still runs, quietly; the reconcilers (keep_alive_) outlive
// it.
KubeRayOperator::~KubeRayOperator() = default;

}  // namespace kuberay
