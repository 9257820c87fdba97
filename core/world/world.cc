#include "core/world/world.h"

#include <utility>

#include "core/base/assert.h"

namespace world {

World::World(const ClientFactory& clients, sim::Scheduler& scheduler, sim::Prng prng,
             WorldOptions options)
    : prng_(prng), options_(std::move(options)) {
  RLAB_ASSERT(clients != nullptr, "World needs a client factory");
  if (options_.trace_watches) {
    options_.kubelet.traced_watches = options_.scheduler.traced_watches = true;
    options_.replicaset.traced_watches = options_.deployment.traced_watches = true;
    options_.job.traced_watches = options_.endpoints.traced_watches = true;
    options_.namespaces.traced_watches = true;
  }
  external_ = std::make_unique<ExternalSystems>(scheduler.trace());
  nodes_ = std::make_unique<Nodes>(clients, scheduler, options_.nodes);
  for (const std::string& node : nodes_->names()) {
    KubeletOptions kubelet = options_.kubelet;
    kubelet.pod_cidr_prefix = nodes_->PodCidrPrefix(node);
    kubelet.host_ip = nodes_->HostIp(node);
    kubelets_.push_back(
        std::make_unique<Kubelet>(node, NewClient(clients, NodeUser(node)), scheduler, kubelet));
  }
  scheduler_ = std::make_unique<KubeScheduler>(NewClient(clients, kSchedulerUser), scheduler,
                                               options_.scheduler);
  // mirrors cmd/kube-controller-manager/app/controllermanager.go CreateControllerContext: one
  // informer factory on the process's own client, handed to every controller.
  const bool traced = options_.replicaset.traced_watches || options_.deployment.traced_watches ||
                      options_.job.traced_watches || options_.endpoints.traced_watches ||
                      options_.namespaces.traced_watches;
  controller_manager_informers_ = std::make_unique<SharedInformerFactory>(
      NewClient(clients, kControllerManagerUser), scheduler, kControllerManagerWatcher, traced);
  SharedInformerFactory& informers = *controller_manager_informers_;
  replicasets_ = std::make_unique<ReplicaSetController>(
      NewClient(clients, kReplicaSetControllerUser), informers, scheduler, options_.replicaset);
  deployments_ = std::make_unique<DeploymentController>(
      NewClient(clients, kDeploymentControllerUser), informers, scheduler, options_.deployment);
  jobs_ = std::make_unique<JobController>(NewClient(clients, kJobControllerUser), informers,
                                          scheduler, options_.job);
  endpoints_ = std::make_unique<EndpointsController>(NewClient(clients, kEndpointsControllerUser),
                                                     informers, scheduler, options_.endpoints);
  namespaces_ = std::make_unique<NamespaceController>(NewClient(clients, kNamespaceControllerUser),
                                                      informers, scheduler, options_.namespaces);
}

World::~World() {
  // Components first (their destructors stop watches through their clients), then clients.
  namespaces_.reset();
  endpoints_.reset();
  jobs_.reset();
  deployments_.reset();
  replicasets_.reset();
  controller_manager_informers_.reset();
  scheduler_.reset();
  kubelets_.clear();
  nodes_.reset();
  external_.reset();
  clients_.clear();
}

client::Client& World::NewClient(const ClientFactory& clients, const std::string& user) {
  std::unique_ptr<client::Client> c = clients(user);
  RLAB_ASSERT(c != nullptr, "the client factory returned null");
  clients_.push_back(std::move(c));
  return *clients_.back();
}

base::Status World::Start() {
  base::Status registered = nodes_->Register();
  scheduler_->Start();
  for (auto& k : kubelets_) k->Start();
  replicasets_->Start();
  deployments_->Start();
  jobs_->Start();
  endpoints_->Start();
  namespaces_->Start();
  return registered;
}

Kubelet* World::kubelet(const std::string& node) {
  for (auto& k : kubelets_) {
    if (k->node() == node) return k.get();
  }
  return nullptr;
}

base::Status World::KillPod(const std::string& ns, const std::string& name,
                            const std::string& reason) {
  const std::string key = api::ObjectKey(ns, name);
  for (auto& k : kubelets_) {
    if (k->Runs(key)) return k->KillPod(ns, name, reason);
  }
  // Each kubelet sees only the Pods bound to its node: a bound Pod its kubelet has not started
  // yet is known here; an unbound one is not (the caller can ask the API server about it).
  for (auto& k : kubelets_) {
    if (k->CachedPod(key) != nullptr) {
      return base::Status(base::StatusCode::kBadRequest,
                          "pod \"" + name + "\" is not running on a node");
    }
  }
  return base::Status(base::StatusCode::kNotFound, "pods \"" + name + "\" not found");
}

base::Status World::ExitContainer(const std::string& ns, const std::string& name,
                                  int exit_code, const std::string& container) {
  const std::string key = api::ObjectKey(ns, name);
  for (auto& k : kubelets_) {
    if (k->Runs(key)) return k->ExitContainer(ns, name, exit_code, container);
  }
  return base::Status(base::StatusCode::kNotFound, "pods \"" + name + "\" not found");
}

base::Status World::SetNodeReady(const std::string& node, bool ready) {
  Kubelet* k = kubelet(node);
  if (k == nullptr)
    return base::Status(base::StatusCode::kNotFound, "nodes \"" + node + "\" not found");
  if (!ready) k->SetNodeUp(false);
  base::Status s = nodes_->SetNodeReady(node, ready);
  if (ready) k->SetNodeUp(true);
  return s;
}

}  // namespace world
