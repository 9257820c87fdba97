#pragma once
// World: everything in a simulated cluster besides the API server and the operators — the
// nodes, one kubelet per node, the Pod scheduler, the ReplicaSet, Deployment, Job, Endpoints and
// namespace controllers of kube-controller-manager, and the external systems operators clean up
// in. It builds them with their real identities and starts them together. The controllers share
// kube-controller-manager's informers (SharedInformerFactory): one Pod informer serves them all,
// as the real process's shared informer factory does.
// No Go counterpart (in a real cluster these are separate processes: kubelets, kube-scheduler,
// kube-controller-manager, cloud services).
// Simplified: the garbage collector is owned by the Simulation (world/gc), not here; it follows
// this World's shared informers when there is one.
// Single-threaded; components react through scheduler events; no component draws randomness.

#include <memory>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/client/client.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"
#include "core/world/external/external_systems.h"
#include "core/world/kubelet/kubelet.h"
#include "core/world/namespace/namespace_controller.h"
#include "core/world/node/nodes.h"
#include "core/world/scheduler/kube_scheduler.h"
#include "core/world/workloads/deployment_controller.h"
#include "core/world/workloads/endpoints_controller.h"
#include "core/world/workloads/informer_factory.h"
#include "core/world/workloads/job_controller.h"
#include "core/world/workloads/replicaset_controller.h"

namespace world {

// WorldOptions gathers every component's options; each field's own defaults apply.
struct WorldOptions {
  NodesOptions nodes;              // Defaults to 3 nodes node-1..3 with 8 cpu / 32Gi / 110 pods.
  KubeletOptions kubelet;          // Defaults to 2s pull, 1s start, 2s ready. pod_cidr_prefix and
                                   // host_ip are set per node by World.
  KubeSchedulerOptions scheduler;  // Defaults to a 10ms bind delay.
  ReplicaSetControllerOptions replicaset;  // Defaults to a 5ms sync delay.
  DeploymentControllerOptions deployment;  // Defaults to a 5ms sync delay.
  JobControllerOptions job;                // Defaults to a 5ms sync delay, 10s..6m pod backoff.
  EndpointsControllerOptions endpoints;    // Defaults to a 5ms sync delay.
  NamespaceControllerOptions namespaces;   // Defaults to a 5s delay after a deletion.
  // trace_watches turns on watch.event records for every component's watches (each option's
  // traced_watches; the controllers' shared watches are traced when any of them asks).
  // Defaults to false: the trace then shows the components' own records (kubelet.pod,
  // scheduler.bind, kcm.action, node.status), linked by cause to the API requests.
  bool trace_watches = false;
};

// World owns the cluster's components. `clients` makes each component's client (called in the
// constructor; the clients live as long as the World); scheduler must outlive this object.
// Not copyable.
class World {
 public:
  World(const ClientFactory& clients, sim::Scheduler& scheduler, sim::Prng prng,
        WorldOptions options);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // Start registers the Nodes (Ready) and starts every component's watches. Returns the first
  // error of the node registration (the components start anyway).
  base::Status Start();

  Nodes& nodes() { return *nodes_; }
  // kubelet returns the kubelet of a node, or null.
  Kubelet* kubelet(const std::string& node);
  const std::vector<std::unique_ptr<Kubelet>>& kubelets() const { return kubelets_; }
  KubeScheduler& scheduler() { return *scheduler_; }
  // controller_manager_informers are the informers the controllers share (and the garbage
  // collector, which the Simulation owns, when it is given them).
  SharedInformerFactory& controller_manager_informers() { return *controller_manager_informers_; }
  const SharedInformerFactory& controller_manager_informers() const {
    return *controller_manager_informers_;
  }
  ReplicaSetController& replicasets() { return *replicasets_; }
  DeploymentController& deployments() { return *deployments_; }
  JobController& jobs() { return *jobs_; }
  EndpointsController& endpoints() { return *endpoints_; }
  NamespaceController& namespaces() { return *namespaces_; }
  ExternalSystems& external() { return *external_; }

  // KillPod is `kill pod NAME [--reason=Error|OOMKilled]`: the kubelet running the Pod sees its
  // container exit. kNotFound for an unknown Pod, kBadRequest for one not running on a node.
  base::Status KillPod(const std::string& ns, const std::string& name, const std::string& reason);
  // ExitContainer ends the Pod's running container (or the named sidecar container) with
  // exit_code, as its own program would (Kubelet::ExitContainer).
  base::Status ExitContainer(const std::string& ns, const std::string& name, int exit_code,
                             const std::string& container = "");
  // SetNodeReady is `fault node NAME down|up`: pauses or resumes the node's kubelet and lets
  // the node lifecycle controller react (nodes.h).
  base::Status SetNodeReady(const std::string& node, bool ready);

 private:
  client::Client& NewClient(const ClientFactory& clients, const std::string& user);

  sim::Prng prng_;  // reserved for randomised behaviour; nothing draws from it
  WorldOptions options_;
  // Invariant: clients_ is declared before the components, so it outlives them.
  std::vector<std::unique_ptr<client::Client>> clients_;
  std::unique_ptr<ExternalSystems> external_;
  std::unique_ptr<Nodes> nodes_;
  std::vector<std::unique_ptr<Kubelet>> kubelets_;
  std::unique_ptr<KubeScheduler> scheduler_;
  std::unique_ptr<SharedInformerFactory> controller_manager_informers_;  // outlives them
  std::unique_ptr<ReplicaSetController> replicasets_;
  std::unique_ptr<DeploymentController> deployments_;
  std::unique_ptr<JobController> jobs_;
  std::unique_ptr<EndpointsController> endpoints_;
  std::unique_ptr<NamespaceController> namespaces_;
};

}  // namespace world
