#include "core/lab/operators.h"

#include "core/operators/inference/reconciler.h"
#include "core/operators/inference/setup.h"
#include "core/operators/kuberay/operator/operator.h"
#include "core/world/external/external_systems.h"

namespace lab {
namespace {

// InferenceExternal adapts the world's object store, load balancer and DNS to the interface the
// operator declares (operators never include core/world).
class InferenceExternal final : public inference::ExternalSystems {
 public:
  explicit InferenceExternal(world::ExternalSystems& world) : world_(world) {}
  base::Status ArchiveCheckpoint(const std::string& key) override {
    base::Duration latency = 0;
    base::Status s = world_.object_store().Archive(key, &latency);
    latency_ += latency;
    return s;
  }
  base::Status DeregisterBackend(const std::string& name) override {
    base::Duration latency = 0;
    base::Status s = world_.load_balancer().Deregister(name, &latency);
    latency_ += latency;
    return s;
  }
  base::Status DeleteDnsRecord(const std::string& name) override {
    base::Duration latency = 0;
    base::Status s = world_.dns().DeleteRecord(name, &latency);
    latency_ += latency;
    return s;
  }
  base::Duration TakeLatency() override {
    const base::Duration d = latency_;
    latency_ = 0;
    return d;
  }

 private:
  world::ExternalSystems& world_;
  base::Duration latency_ = 0;
};

class InferenceProcess final : public OperatorProcess {
 public:
  InferenceProcess(const ProcessContext& ctx, world::ExternalSystems& world,
                   sim::Scheduler& scheduler)
      : external_(world) {
    manager::Options options;
    options.name = "inference-operator";
    options.replica = ctx.replica;
    options.leader_election = ctx.settings->leader_election;
    options.leader_election_options.lease_name = "inference-operator-leader";
    options.leader_election_options.lease_namespace = "default";
    options.leader_election_options.identity = ctx.identity;
    options.controller.recover_panic = ctx.settings->recover_panic;
    inference::Options reconciler_options;
    for (const std::string& bug : ctx.settings->bugs) {
      (void)inference::SetBug(reconciler_options.bugs, bug, true);
    }
    std::vector<std::string> namespaces;
    if (!ctx.settings->watch_namespace.empty()) namespaces = {ctx.settings->watch_namespace};
    options.cache = inference::CacheOptions(namespaces, reconciler_options.bugs);
    // Each process draws from a generator seeded by its Pod name, so replicas differ but runs
    // repeat.
    uint64_t seed = 1469598103934665603ULL;
    for (unsigned char c : ctx.replica) seed = (seed ^ c) * 1099511628211ULL;
    manager_ = std::make_unique<manager::Manager>(*ctx.api_client, scheduler, sim::Prng(seed),
                                                  options, ctx.take_injected_latency);
    reconciler_ = std::make_unique<inference::InferenceServiceReconciler>(
        manager_->GetClient(), external_, reconciler_options);
    inference::SetupOptions setup;
    setup.max_concurrent_reconciles = ctx.settings->reconcile_concurrency;
    setup.use_priority_queue = ctx.settings->queue != "classic";
    auto ctrl = inference::SetupWithManager(*manager_, *reconciler_, setup);
    if (ctrl.ok()) controllers_.push_back(*ctrl);
    if (!ctrl.ok()) {
      manager_->Log("ERROR", "unable to create controller",
                    {{"controller", "InferenceService"}, {"error", ctrl.status().message()}});
    }
  }

  manager::Manager& manager() override { return *manager_; }
  std::vector<controller::Controller*> controllers() override { return controllers_; }

 private:
  InferenceExternal external_;
  std::vector<controller::Controller*> controllers_;
  std::unique_ptr<manager::Manager> manager_;
  std::unique_ptr<inference::InferenceServiceReconciler> reconciler_;
};

api::Json Rule(std::vector<std::string> groups, std::vector<std::string> resources,
               std::vector<std::string> verbs) {
  return {{"apiGroups", groups}, {"resources", resources}, {"verbs", verbs}};
}

// ProcessSeed seeds a process from its Pod name, so replicas differ but runs repeat.
uint64_t ProcessSeed(const std::string& replica) {
  uint64_t seed = 1469598103934665603ULL;
  for (unsigned char c : replica) seed = (seed ^ c) * 1099511628211ULL;
  return seed;
}

// KubeRayProcess is one kuberay-operator container: main.go with the lab's settings as flags,
// feature gates and environment.
class KubeRayProcess final : public OperatorProcess {
 public:
  KubeRayProcess(const ProcessContext& ctx, sim::Scheduler& scheduler,
                 kuberay::dashboard::ClientProvider& dashboards) {
    kuberay::Options options;
    options.watch_namespace = ctx.settings->watch_namespace;
    options.reconcile_concurrency = ctx.settings->reconcile_concurrency;
    options.enable_leader_election = ctx.settings->leader_election;
    options.leader_election_identity = ctx.identity;
    options.use_priority_queue = ctx.settings->queue != "classic";
    options.recover_panic = ctx.settings->recover_panic;
    kuberay::OperatorConfig config;
    config.env = ctx.settings->env;
    base::Status gates = config.features.SetAll(ctx.settings->feature_gates);
    operator_ = std::make_unique<kuberay::KubeRayOperator>(
        *ctx.api_client, scheduler, ctx.replica, ProcessSeed(ctx.replica), options, config,
        ctx.take_injected_latency, kuberay::AllRegistrations(dashboards));
    if (!gates.ok()) {
      // main.go exits on an unknown gate; the sandbox logs it and keeps the defaults.
      operator_->manager().Log("ERROR", "unable to set feature gates", {{"error", gates.message()}});
    }
  }

  manager::Manager& manager() override { return operator_->manager(); }
  std::vector<controller::Controller*> controllers() override { return operator_->controllers(); }

 private:
  std::unique_ptr<kuberay::KubeRayOperator> operator_;
};

}  // namespace

OperatorSettings KubeRayOperatorSettings() {
  OperatorSettings settings;
  settings.leader_election = true;  // --enable-leader-election defaults to true
  return settings;
}

OperatorSpec KubeRayOperatorSpec(sim::Scheduler& scheduler,
                                 kuberay::dashboard::ClientProvider& dashboards) {
  OperatorSpec spec;
  spec.name = kuberay::kOperatorName;
  spec.image = "quay.io/kuberay/operator:v1.7.0";
  spec.cluster_rules = kuberay::ClusterRoleRules();
  sim::Scheduler* sched = &scheduler;
  kuberay::dashboard::ClientProvider* provider = &dashboards;
  spec.factory = [sched, provider](const ProcessContext& ctx) -> std::unique_ptr<OperatorProcess> {
    return std::make_unique<KubeRayProcess>(ctx, *sched, *provider);
  };
  return spec;
}

OperatorSpec InferenceOperatorSpec(world::ExternalSystems& external, sim::Scheduler& scheduler) {
  OperatorSpec spec;
  spec.name = "inference-operator";
  spec.image = "inference-operator:v0.1.0";
  const std::vector<std::string> all = {"get", "list", "watch", "create", "update", "patch",
                                        "delete"};
  spec.cluster_rules = {
      Rule({"inference.io"}, {"inferenceservices"}, all),
      Rule({"inference.io"}, {"inferenceservices/status", "inferenceservices/finalizers"},
           {"get", "update", "patch"}),
      Rule({"apps"}, {"deployments"}, all),
      Rule({""}, {"pods"}, {"get", "list", "watch"}),
      Rule({""}, {"events"}, {"create", "patch"}),
      Rule({"coordination.k8s.io"}, {"leases"}, all),
  };
  spec.bug_ids = inference::BugIds();
  world::ExternalSystems* world = &external;
  sim::Scheduler* sched = &scheduler;
  spec.factory = [world, sched](const ProcessContext& ctx) -> std::unique_ptr<OperatorProcess> {
    return std::make_unique<InferenceProcess>(ctx, *world, *sched);
  };
  return spec;
}

}  // namespace lab
