#include "core/operators/kuberay/operator/operator.h"

#include "core/operators/kuberay/raycluster/reconciler.h"
#include "core/operators/kuberay/raycluster/setup.h"

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

KubeRayOperator::~KubeRayOperator() { manager_->Stop(); }

}  // namespace kuberay
