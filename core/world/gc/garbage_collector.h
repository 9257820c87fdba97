#pragma once
// GarbageCollector: the kube-controller-manager component that deletes objects whose owners are
// gone (background), deletes an owner's dependents before the owner (foreground), or strips the
// owner's reference from its dependents (orphan), driven by ownerReferences and the
// `foregroundDeletion` / `orphan` finalizers (controller-runtime.md §8).
// Mirrors: kubernetes pkg/controller/garbagecollector/garbagecollector.go (attemptToDeleteItem,
// classifyReferences, processDeletingDependentsItem, attemptToOrphanWorker) and graph_builder.go
// (the uid graph, virtual owner nodes, processTransitions, absentOwnerCache), operations.go
// (removeFinalizer's merge patch with resourceVersion). Like the real one it keeps no monitor for
// Events (graph_builder.go ignoredResources): they are never in the graph, never collected.
// Simplified: one work queue (FIFO scheduler events, deduplicated) instead of attemptToDelete and
// attemptToOrphan queues with rate limiting; a retried item waits step_delay << attempts and is
// dropped after max_retries. Graph changes are applied as soon as a watch event arrives.
// Teaching: the real collector also unblocks a dependent's blockOwnerDeletion before deleting it
// in foreground to break ownership cycles; this one does not (cycles are not modelled).
// Single-threaded; every step is a scheduler event `step_delay` after what caused it, and work is
// visited in a fixed order (dependents sorted by Kind/namespace/name/uid), so runs replay exactly.

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/api/kind.h"
#include "core/api/object.h"
#include "core/base/containers/key_set.h"
#include "core/base/containers/keyed_map.h"
#include "core/base/containers/string_hash.h"
#include "core/base/status.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/sim/scheduler.h"
#include "core/world/workloads/informer_factory.h"

namespace world {

// kForegroundDeletionFinalizer is metav1.FinalizerDeleteDependents.
inline const std::string kForegroundDeletionFinalizer = "foregroundDeletion";
// kOrphanFinalizer is metav1.FinalizerOrphanDependents.
inline const std::string kOrphanFinalizer = "orphan";
// kGarbageCollectorUser is the identity kube-controller-manager's collector uses.
inline const std::string kGarbageCollectorUser =
    "system:serviceaccount:kube-system:generic-garbage-collector";

// GarbageCollectorOptions tunes the collector (GarbageCollector::Options).
struct GarbageCollectorOptions {
  // step_delay is the virtual time between a cause (a watch event, a previous step) and the
  // step it triggers, so a learner can watch each step. Defaults to 5ms.
  base::Duration step_delay = 5 * base::kMillisecond;
  // max_retries bounds how often one item is retried after an error (a 409, an injected 500,
  // a race); after that it is dropped and counted in given_up(). Defaults to 5.
  int max_retries = 5;
  // watcher names the collector's watches. Defaults to "garbage-collector". Its watches are
  // untraced (WatchOptions::traced = false); its steps appear as gc.action records instead.
  std::string watcher = "garbage-collector";
  // absent_owner_cache_size bounds the cache of owner uids known to be gone (the real collector
  // keeps an LRU of 500). Defaults to 1024.
  size_t absent_owner_cache_size = 1024;
};

// GarbageCollector watches every kind through `client` and acts through it (as
// kGarbageCollectorUser in a Simulation). client and scheduler must outlive this object.
// Not copyable.
class GarbageCollector {
 public:
  using Options = GarbageCollectorOptions;

  GarbageCollector(client::Client& client, sim::Scheduler& scheduler, Options options);
  ~GarbageCollector();
  GarbageCollector(const GarbageCollector&) = delete;
  GarbageCollector& operator=(const GarbageCollector&) = delete;

  // Start lists and then watches every kind in api::AllKinds(), building the graph. A kind whose
  // list or watch fails is retried later (bounded by max_retries); a watch that ends with an
  // ERROR event (`fault watch-drop`) is relisted and rewatched the same way.
  void Start();
  // Stop ends every watch and cancels pending steps; the graph is kept.
  void Stop();

  // UseSharedInformers makes the collector follow kube-controller-manager's shared informers
  // instead of opening watches of its own (graph_builder.go gets its monitors from the process's
  // shared informer factory): one Pod informer then serves the collector and the workload
  // controllers. Its lists and watches are then the informers' (their client, their relist after
  // a dropped watch); its own client still makes every get, delete and patch. REQUIRES: before
  // Start; informers outlives every event delivered to this collector.
  void UseSharedInformers(SharedInformerFactory* informers) { shared_ = informers; }

  // Introspection for tests and the UI.
  // HasNode reports whether uid is an observed object in the graph.
  bool HasNode(const std::string& uid) const { return nodes_.count(uid) > 0; }
  size_t graph_size() const { return nodes_.size(); }
  // DependentsOf lists the observed dependents of owner uid, sorted by Kind/namespace/name/uid.
  std::vector<std::string> DependentsOf(const std::string& uid) const;
  // pending is the number of steps waiting to run.
  size_t pending() const { return pending_.size(); }
  // given_up counts items dropped after max_retries.
  uint64_t given_up() const { return given_up_; }
  // adds counts every Enqueue after Start (coalesced ones too); retries the failed steps
  // scheduled again (the attemptToDelete queue's workqueue_adds_total / retries_total).
  uint64_t adds() const { return adds_; }
  uint64_t retries() const { return retries_; }

 private:
  // Node is one observed object (graph_builder.go node).
  struct Node {
    const api::KindInfo* kind = nullptr;  // Invariant: not null.
    std::string namespace_;
    std::string name;
    std::string uid;
    std::vector<api::OwnerReference> owners;
    std::vector<std::string> finalizers;
    bool deleting = false;  // deletionTimestamp is set

    bool HasFinalizer(const std::string& f) const;
    // DeletingDependents: foreground deletion in progress (graph_builder.go isDeletingDependents).
    bool DeletingDependents() const {
      return deleting && HasFinalizer(kForegroundDeletionFinalizer);
    }
    bool Orphaning() const { return deleting && HasFinalizer(kOrphanFinalizer); }
    std::string Describe() const;  // "Kind/namespace/name" or "Kind/name"
  };
  // VirtualOwner is an owner uid referenced by some dependent but never observed.
  struct VirtualOwner {
    api::OwnerReference ref;
    std::string namespace_;  // the referring dependent's namespace
  };
  enum class Action { kAttemptToDelete, kAttemptToOrphan, kVirtualOwnerCheck, kStartKind };
  using WorkKey = std::pair<Action, std::string>;  // (action, uid or kind name)
  enum class Outcome { kDone, kRetry };
  enum class OwnerState { kSolid, kDangling, kWaitingForDependentsDeletion };

  static const char* ActionName(Action action);
  void OnEvent(const api::KindInfo* kind, const apiserver::WatchEvent& event);
  // StartShared registers with (first time) or resyncs from (after a Stop) the shared watches.
  void StartShared();
  // Replace makes the graph's nodes of kind those of `objects` (a relist: what is missing was
  // deleted meanwhile).
  void Replace(const api::KindInfo* kind, const std::vector<api::ObjectPtr>& objects);
  void Upsert(const api::KindInfo* kind, const api::Json& obj);
  // SameFacts reports whether obj carries exactly what `node` holds of it (namespace, name,
  // owner references, finalizers, deletion), compared in place.
  static bool SameFacts(const Node& node, const api::Json& obj);
  // FollowUp is Upsert's reaction to node's (new) state: owners to check, owners no longer
  // blocked, and the object's own deletion transitions.
  void FollowUp(const std::string& uid, const Node& node,
                const std::vector<api::OwnerReference>& old_owners, bool existed,
                bool was_deleting_dependents, bool was_orphaning);
  void RemoveNode(const std::string& uid);
  void VirtualDelete(const std::string& uid);
  void MarkAbsent(const std::string& uid);
  std::vector<std::string> SortedUids(const base::KeySet& uids) const;

  void Enqueue(Action action, const std::string& id, base::Duration delay);
  void Process(const WorkKey& key);
  Outcome StartKind(const std::string& kind_name);
  Outcome AttemptToDelete(const std::string& uid);
  Outcome AttemptToOrphan(const std::string& uid);
  Outcome CheckVirtualOwner(const std::string& uid);
  Outcome ProcessDeletingDependents(const std::string& uid);
  Outcome RemoveFinalizer(const Node& node, const std::string& finalizer);
  // ClassifyOwner looks the owner up live (garbagecollector.go isDangling); nullopt on an error.
  std::optional<OwnerState> ClassifyOwner(const api::OwnerReference& ref,
                                          const std::string& dependent_ns);
  // ClassifyCustomOwner classifies an owner of a kind only the API server knows (a CRD's).
  std::optional<OwnerState> ClassifyCustomOwner(const api::OwnerReference& ref,
                                                const std::string& dependent_ns);
  Outcome DeleteDependent(const Node& node, apiserver::PropagationPolicy policy,
                          const std::string& why);
  // EmitAction records a gc.action trace event and returns its seq.
  int64_t EmitAction(const std::string& action, const std::string& object,
                     const std::string& detail);

  client::Client& client_;
  sim::Scheduler& scheduler_;
  Options options_;
  bool started_ = false;
  std::shared_ptr<int> alive_;  // scheduled lambdas hold a weak_ptr to it

  // The uid-keyed tables are hashed: with 11,000 Pods an ordered lookup is ~14 string compares,
  // each a cache miss. Hashed with base::TextHash (eight bytes a step): a uid is 36 characters,
  // which std::hash reads a byte or four at a time, on every watch delivery. nodes_ is a
  // KeyedMap (one probe, then the key); only it is ever walked (a relist), in uid order.
  base::KeyedMap<Node> nodes_;  // uid -> node
  // dependents_ maps an owner uid (observed, virtual or gone) to the uids of the observed nodes
  // whose ownerReferences name it. Invariant: d in dependents_[o] iff nodes_[d] has owner uid o.
  // A hash set per owner: a ReplicaSet of 100,000 Pods is one probe per insert, not a tree walk.
  std::unordered_map<std::string, base::KeySet, base::TextHash> dependents_;
  // Invariant: no key in nodes_.
  std::unordered_map<std::string, VirtualOwner, base::TextHash> virtual_owners_;
  std::set<std::string> absent_owners_;                 // uids known to be gone
  std::deque<std::string> absent_order_;                // eviction order of absent_owners_

  std::map<WorkKey, sim::EventId> pending_;  // Invariant: one scheduled step per key.
  std::map<WorkKey, int> attempts_;          // failures so far, per key
  uint64_t given_up_ = 0;
  uint64_t adds_ = 0;
  uint64_t retries_ = 0;

  std::map<std::string, apiserver::WatchId> watches_;  // kind name -> watch (own watches only)
  SharedInformerFactory* shared_ = nullptr;            // null: the collector's own watches
  bool registered_ = false;                             // handlers are on the shared watches
};

}  // namespace world
