#pragma once
// View: a read-only picture of a Simulation for user interfaces (the browser app, window.rlab's
// state()). It flattens what the panels draw — objects as an ownerReference tree with a health
// colour, every controller's workqueue, the metrics a plot samples, a lane for each trace event —
// so a UI never walks core structures itself and never changes them.
// No Go counterpart (k9s' xray view and controller-runtime's /metrics are the nearest relatives).
// Teaching: health is a UI summary (Pod phase + Ready, Ready/Available conditions, state strings);
// Kubernetes has no single "health" field.
// Single-threaded; every function reads the simulation at the current virtual instant.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/controller/controller.h"
#include "core/lab/simulation.h"
#include "core/sim/trace.h"

namespace lab {

enum class Health { kNeutral, kProgressing, kGood, kBad, kDeleting };
const char* HealthName(Health h);

// ObjectRow is one object in the tree: children follow their owner, one level deeper.
struct ObjectRow {
  std::string kind, ns, name, uid;
  std::string owner_uid;        // the controller owner (else the first owner); "" for roots
  std::string status;           // a short phase/state word as kubectl's STATUS column shows
  std::string resource_version;
  Health health = Health::kNeutral;
  int depth = 0;                // 0 for roots
  bool has_children = false;
};

// ObjectTree lists every stored object depth-first: roots by (kind, namespace, name), children by
// (kind, name). An owner that is gone or in another namespace leaves its dependents as roots.
std::vector<ObjectRow> ObjectTree(Simulation& sim);

// ObjectSummary classifies one stored object (status word and health).
void SummarizeObject(const api::Json& obj, std::string* status, Health* health);

// RunningController is one controller of one operator process.
struct RunningController {
  std::string op;       // "kuberay-operator"
  std::string replica;  // the operator Pod's name
  controller::Controller* ctrl = nullptr;
};
// RunningControllers lists every running controller, operators in install order.
std::vector<RunningController> RunningControllers(Simulation& sim);

// QueueView is one controller's workqueue as the Workqueue panel shows it.
struct QueueView {
  std::string op, replica, controller;
  bool priority_queue = false;
  struct Waiting {
    std::string key;
    base::Duration ready_in = 0;  // countdown to readyAt
    base::SimTime ready_at = 0;
  };
  std::vector<std::string> ready;       // in hand-out order
  std::vector<Waiting> waiting;         // by readyAt
  std::vector<std::string> processing;  // handed out, no Done yet
  std::vector<std::string> dirty;       // re-added while processing: they run again after Done
  std::map<std::string, int> requeues;  // NumRequeues when non-zero
  std::vector<controller::WorkerState> workers;  // every slot, busy or idle
  int active_workers = 0;
  int max_workers = 0;
};
std::vector<QueueView> Queues(Simulation& sim);

// BuiltinQueue is one built-in component's work queue: kube-controller-manager's controllers
// (their workqueue names: deployment, replicaset, job, endpoint), kube-scheduler, the garbage
// collector, and the kubelets (summed over nodes).
struct BuiltinQueue {
  std::string name;
  int64_t depth = 0;          // keys waiting
  int64_t adds_total = 0;     // every add, coalesced ones included
  int64_t retries_total = 0;  // failed syncs scheduled again
};
// BuiltinQueues lists them in that order; empty without a world.
std::vector<BuiltinQueue> BuiltinQueues(Simulation& sim);

// MetricsSample is one point of the Metrics panel, summed over every running controller:
// controller-runtime's and client-go's metric names, as the `metrics` command prints them.
struct MetricsSample {
  base::SimTime t = 0;
  int64_t workqueue_depth = 0;
  int64_t workqueue_adds_total = 0;
  int64_t workqueue_retries_total = 0;
  std::map<std::string, int64_t> reconcile_total;  // by result
  int64_t objects = 0;
  std::vector<BuiltinQueue> builtin;  // the world's queues, apart from the operators' sums
};
MetricsSample SampleMetrics(Simulation& sim);

// TraceLane names the swimlane an event belongs to: "API server", "informers",
// "<controller> queue", "<controller> workers", "kubelet", "garbage collector", …
std::string TraceLane(const sim::TraceEvent& event);

// CauseChain returns the seqs reached from `seq` by following `cause` links back to the
// learner's command (ancestors) and forward to everything it led to (descendants), sorted.
std::vector<int64_t> CauseChain(const sim::Trace& trace, int64_t seq);

}  // namespace lab
