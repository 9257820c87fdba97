#pragma once
// KubeScheduler: assigns each unscheduled Pod to a node. It filters the nodes a Pod fits on
// (Ready, schedulable, taints tolerated, enough allocatable cpu, memory and pod slots), scores
// them least-allocated first, and binds to the best (ties go to the first name). A Pod that fits
// nowhere gets PodScheduled=False/Unschedulable with kube-scheduler's message
// ("0/3 nodes are available: 3 Insufficient cpu.") and is retried when a node or a Pod changes.
// Mirrors: kubernetes pkg/scheduler/schedule_one.go (schedulingCycle, findNodesThatFitPod,
// prioritizeNodes, selectHost, handleSchedulingFailure), framework/plugins/noderesources
// (fit.go, least_allocated.go), tainttoleration, nodeunschedulable, framework/types.go
// (FitError.Error), internal/queue (the unschedulable pool moved on cluster events).
// In a cluster of 100 Nodes or more a cycle stops filtering once it has found
// numFeasibleNodesToFind feasible Nodes (percentageOfNodesToScore left at its adaptive default),
// and the next cycle starts where this one stopped, as upstream's nextStartNodeIndex.
// Simplified: one profile; no preemption (so the message has no " preemption: ..." suffix),
// affinity, topology spread or volume plugins; the selected node is the highest score with ties
// broken by name (the real one picks randomly), on a finer score scale than MaxNodeScore 100 so
// that such ties are rare; Nodes are filtered one at a time in name order, so a cycle stops at
// exactly its numFeasibleNodesToFind-th feasible Node (the real one filters in parallel and may
// look at a few more).
// Binding is one request, as upstream's: a pods/binding create that sets spec.nodeName and
// PodScheduled=True in one write (framework/plugins/defaultbinder, ApiServer::Bind).
// Single-threaded; every attempt is a scheduler event `bind_delay` after what triggered it.

#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/api/object.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/sim/scheduler.h"
#include "core/world/scheduler/node_info.h"
#include "core/world/scheduler/resources.h"
#include "core/world/workloads/object_watch.h"
#include "core/world/workloads/sync_queue.h"

namespace world {

// kSchedulerUser is kube-scheduler's identity.
inline const std::string kSchedulerUser = "system:kube-scheduler";
// kDefaultSchedulerName is the spec.schedulerName this scheduler serves.
inline const std::string kDefaultSchedulerName = "default-scheduler";

// KubeSchedulerOptions tunes the scheduler.
struct KubeSchedulerOptions {
  // bind_delay is the time from noticing a Pod to binding it (one scheduling cycle).
  // Defaults to 10ms.
  base::Duration bind_delay = 10 * base::kMillisecond;
  // watcher names the scheduler's watches. Defaults to "kube-scheduler".
  std::string watcher = "kube-scheduler";
  // traced_watches puts its watch deliveries in the trace (watch.event). Defaults to false:
  // the trace follows the operators' informers; this component's steps have their own records.
  bool traced_watches = false;
};

// KubeScheduler binds Pods through `client` (as kSchedulerUser in a World). client and
// scheduler must outlive this object. Not copyable.
class KubeScheduler {
 public:
  using Options = KubeSchedulerOptions;

  KubeScheduler(client::Client& client, sim::Scheduler& scheduler, Options options);
  KubeScheduler(const KubeScheduler&) = delete;
  KubeScheduler& operator=(const KubeScheduler&) = delete;

  // Start watches Nodes and Pods.
  void Start();

  // unschedulable lists the keys of Pods waiting for the cluster to change.
  const std::set<std::string>& unschedulable() const { return unschedulable_; }

  // queue is the work queue (the UI's metrics read its depth and counters).
  const SyncQueue& queue() const { return queue_; }

 private:
  // NeedsScheduling: our scheduler's Pod, no node yet, not being deleted, not terminal.
  static bool NeedsScheduling(const api::Json& pod);
  void OnPod(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj);
  void OnNode(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj);
  // MoveAllToActive retries every unschedulable Pod (a cluster event may have made room).
  void MoveAllToActive();
  bool ScheduleOne(const std::string& key);
  // UpdateSnapshot makes node_infos_ match the Node cache, re-parsing only the Nodes whose
  // cached object changed, and only walking them when one did.
  // mirrors pkg/scheduler/backend/cache/cache.go UpdateSnapshot
  void UpdateSnapshot();
  // Account adds (sign +1) or removes (-1) pod's requests on its node, when it holds any.
  void Account(const api::ObjectPtr& pod, int sign);

  client::Client& client_;
  sim::Scheduler& scheduler_;
  Options options_;
  ObjectWatch nodes_;
  ObjectWatch pods_;
  SyncQueue queue_;
  // requested_ is the scheduler cache's per-node sum of bound, non-terminal Pods' requests
  // (plain, nonzero), kept as Pods change. mirrors pkg/scheduler/framework/types.go NodeInfo
  // Invariant: entries are never erased (node_infos_ point into it; a rehash moves no element).
  std::unordered_map<std::string, std::pair<Resources, Resources>> requested_;
  // node_infos_ is the parsed Node cache, keyed and ordered as nodes_.items().
  // Invariant: after UpdateSnapshot, one entry per cached Node, built from that very object.
  std::map<std::string, NodeInfo> node_infos_;
  // node_list_ is node_infos_ in order, for a cycle that starts part-way through it.
  // mirrors pkg/scheduler/backend/cache/snapshot.go nodeInfoList
  // Invariant: after UpdateSnapshot, node_list_[i] is the i-th entry of node_infos_.
  std::vector<std::map<std::string, NodeInfo>::iterator> node_list_;
  // next_start_node_ is where the next cycle starts filtering: the Node after the last one this
  // cycle looked at. mirrors schedule_one.go nextStartNodeIndex
  size_t next_start_node_ = 0;
  // snapshot_stale_: a Node changed since UpdateSnapshot last ran (walking every Node for every
  // Pod only to find them unchanged would cost O(nodes) per Pod).
  bool snapshot_stale_ = true;
  std::set<std::string> unschedulable_;  // Invariant: keys of Pods that failed their last attempt
};

}  // namespace world
