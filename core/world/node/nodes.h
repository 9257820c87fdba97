#pragma once
// Nodes: the cluster's machines. Registers N Node objects (as each kubelet does when it starts)
// and plays the node lifecycle controller for `fault node NAME down|up`: a node that stops
// reporting is marked Ready=Unknown after the node-monitor grace period, tainted unreachable,
// and its Pods are marked Ready=False.
// Mirrors: kubelet pkg/kubelet/kubelet_node_status.go (registerWithAPIServer, setNodeStatus),
// kubernetes pkg/controller/nodelifecycle/node_lifecycle_controller.go (monitorNodeHealth,
// NodeStatusUnknown, the unreachable taints) and pkg/controller/util/node/controller_utils.go
// (MarkPodsNotReady).
// Simplified: no Lease heartbeats (the fault flag stands for "stopped posting status"); no
// taint-based eviction. Teaching: a real cluster evicts the Pods of an unreachable node after
// their default toleration of 300s (DefaultTolerationSeconds); here they stay, Ready=False.
// Single-threaded; the grace period is a scheduler event.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/sim/scheduler.h"

namespace world {

// ClientFactory makes a client acting as `user` (a Simulation wraps it with fault injection).
using ClientFactory = std::function<std::unique_ptr<client::Client>(const std::string& user)>;

// kNodeControllerUser is the node lifecycle controller's identity.
inline const std::string kNodeControllerUser = "system:serviceaccount:kube-system:node-controller";
// kUnreachableTaint is the taint key for a node whose Ready condition is Unknown.
inline const std::string kUnreachableTaint = "node.kubernetes.io/unreachable";

// NodeUser is the kubelet identity of a node: "system:node:<name>".
std::string NodeUser(const std::string& node);

// NodesOptions describes the machines.
struct NodesOptions {
  // count is the number of nodes, named `<name_prefix>1` .. `<name_prefix>count`. Defaults to 3.
  int count = 3;
  // name_prefix. Defaults to "node-".
  std::string name_prefix = "node-";
  // cpu, memory and pods are each node's capacity (= allocatable). Defaults to "8", "32Gi", "110".
  std::string cpu = "8";
  std::string memory = "32Gi";
  std::string pods = "110";
  // monitor_grace_period is how long a silent node stays Ready before the node lifecycle
  // controller marks it Unknown (--node-monitor-grace-period). Defaults to 40s.
  base::Duration monitor_grace_period = 40 * base::kSecond;
};

// Nodes registers and tracks the nodes. scheduler must outlive this object. Not copyable.
class Nodes {
 public:
  using Options = NodesOptions;

  Nodes(const ClientFactory& clients, sim::Scheduler& scheduler, Options options);
  ~Nodes();
  Nodes(const Nodes&) = delete;
  Nodes& operator=(const Nodes&) = delete;

  // Register creates every Node (as system:node:NAME) and posts its status: capacity,
  // allocatable, addresses and Ready=True (reason KubeletReady). An existing Node is kept.
  base::Status Register();
  // names lists the node names in order.
  const std::vector<std::string>& names() const { return names_; }
  // Index is the 1-based position of a node (its pod CIDR is 10.244.<index>.0/24), or 0.
  int Index(const std::string& name) const;
  // PodCidrPrefix is "10.244.<index>." for a node.
  std::string PodCidrPrefix(const std::string& name) const;

  // HostIp is a node's InternalIP, "172.18.0.<index+1>" (as kind numbers its nodes).
  std::string HostIp(const std::string& name) const;

  // SetNodeReady is `fault node NAME down|up`. Down: the node stops posting status; after
  // monitor_grace_period the node controller sets Ready=Unknown (NodeStatusUnknown), adds the
  // unreachable NoSchedule/NoExecute taints and marks the node's Pods Ready=False. Up: the
  // kubelet posts Ready=True again and the taints are removed. kNotFound for an unknown node.
  // NOTE: pausing the node's kubelet is the caller's job (World::SetNodeReady does both).
  base::Status SetNodeReady(const std::string& name, bool ready);
  // IsUp reports the fault state (false while `down`).
  bool IsUp(const std::string& name) const;

 private:
  struct NodeState {
    std::unique_ptr<client::Client> client;  // system:node:NAME
    bool up = true;
    sim::EventId grace_timer = 0;
  };
  void MarkUnknown(const std::string& name);
  base::Status PostReady(const std::string& name);
  int64_t EmitStatus(const std::string& name, const std::string& ready, const std::string& reason);

  sim::Scheduler& scheduler_;
  Options options_;
  std::unique_ptr<client::Client> controller_client_;  // kNodeControllerUser
  std::vector<std::string> names_;
  std::map<std::string, NodeState> nodes_;
  std::shared_ptr<int> alive_;
};

}  // namespace world
