#pragma once
// ApiServer: the in-memory kube-apiserver every component talks to. It owns the store, the one
// cluster-wide resourceVersion counter and the watch fan-out, and applies the registry rules
// operators depend on: generation, the status subresource, optimistic concurrency, finalizers and
// deletionTimestamp, admission (defaults, schema, validating webhooks) and RBAC.
// Mirrors: apiserver pkg/registry/generic/registry/store.go (Create/Update/Delete, finalizers),
// pkg/storage/etcd3/store.go (GuaranteedUpdate's no-op rule, watch from a resourceVersion),
// apiextensions-apiserver customresource/strategy.go + status_strategy.go (generation, /status),
// pkg/endpoints/handlers/patch.go (patch types, 415 for strategic merge on custom resources).
// Simplified: one version per group, no field managers or server-side apply, no etcd compaction
// beyond a bounded event history per kind. A deleted Namespace turns Terminating and stays until its
// spec.finalizers are emptied through namespaces/finalize (core/world/namespace's controller does
// that once the namespace is empty).
// Single-threaded. A write commits at once; each watcher receives its event later, as a
// scheduler event after the watcher's latency, in commit order.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/api/kind.h"
#include "core/api/object.h"
#include "core/apiserver/cluster_ip.h"
#include "core/base/containers/keyed_map.h"
#include "core/base/status.h"
#include "core/base/time.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace apiserver {

namespace internal {
class SiblingSpecs;
}  // namespace internal

// kMaxRequestBytes is kube-apiserver's request body limit (3 MiB).
constexpr size_t kMaxRequestBytes = 3 * 1024 * 1024;
// kAdminUser is the learner (kubectl's default kubeconfig user, in group system:masters).
inline const std::string kAdminUser = "kubernetes-admin";

// RequestContext says who is asking and why (the trace seq that led to the request).
struct RequestContext {
  std::string user = kAdminUser;
  // cause overrides the trace's current cause for this request's api.request record.
  std::optional<int64_t> cause;
};

// kApply is server-side apply (application/apply-patch+yaml), what controller-runtime's
// client.Apply sends. Simplified: no managedFields or field ownership — the configuration is
// merged into the stored object (strategic merge for built-in kinds, merge patch for custom
// resources), fields it no longer sets are kept, no conflicts are reported; an absent object is
// created. kubectl's `patch --type` does not offer it.
enum class PatchType { kJsonMerge, kJsonPatch, kStrategicMerge, kApply };
// ParsePatchType accepts kubectl's --type values: "merge", "json", "strategic".
std::optional<PatchType> ParsePatchType(const std::string& text);

enum class PropagationPolicy { kBackground, kForeground, kOrphan };

struct ListOptions {
  std::string label_selector;  // "app=x,tier!=db"
  std::string field_selector;  // "metadata.name=x"
};

struct DeleteOptions {
  std::optional<PropagationPolicy> propagation;  // Defaults to the kind's default (Background).
  std::optional<int64_t> grace_period_seconds;   // Pods only; Defaults to the Pod's spec value.
};

struct ListResult {
  std::vector<api::ObjectPtr> items;  // sorted by namespace, then name
  std::string resourceVersion;        // the store's RV at list time, for a following Watch
};

// kError ends a watch (watch.Error): the watcher must relist, as a reflector does.
enum class WatchEventType { kAdded, kModified, kDeleted, kError };
const char* WatchEventTypeName(WatchEventType type);  // "ADDED", "MODIFIED", "DELETED", "ERROR"

struct WatchEvent {
  WatchEventType type;
  api::ObjectPtr object;
  int64_t trace_seq = 0;  // the watch.event record emitted for this delivery
};

struct WatchOptions {
  std::string watcher;          // the informer's name, printed in watch.event records
  std::string namespace_;       // "" = all namespaces
  std::string label_selector;   // objects leaving the selection arrive as DELETED, entering as ADDED
  // field_selector filters like label_selector ("spec.nodeName=node-1", what a kubelet sends).
  // A Pod watch that pins spec.nodeName is served from an index: other nodes' Pods cost it
  // nothing.
  std::string field_selector;
  std::string resourceVersion;  // "" or "0": from now; else replay history after that RV (410 if too old)
  base::Duration latency = base::kMillisecond;  // Defaults to 1ms from commit to delivery.
  // traced=false delivers without a watch.event record. Teaching: only the garbage collector's
  // metadata watches use it, so the trace stays about the controllers a learner follows.
  bool traced = true;  // Defaults to true.
};

using WatchId = uint64_t;

// WatchObserver hears every commit and the watch fan-out: the hook an invariant checker outside
// the system uses (core/check). It only reads; it must not write, schedule, trace or draw
// randomness. No observer (the default) costs one null test per commit and delivery.
// No Go counterpart (closest: the apiserver's own watch cache tests).
class WatchObserver {
 public:
  virtual ~WatchObserver() = default;
  // OnCommit: a write was persisted (type kAdded, kModified or kDeleted; object carries the new
  // resourceVersion, for kDeleted the final state; old_object is null for kAdded).
  virtual void OnCommit(const api::KindInfo& kind, WatchEventType type,
                        const api::ObjectPtr& old_object, const api::ObjectPtr& object) = 0;
  // OnWatchOpened: a watch started (before any replayed history is queued to it).
  virtual void OnWatchOpened(WatchId id, const api::KindInfo& kind, const WatchOptions& opts) = 0;
  // OnWatchQueued: the server decided this watch receives the event and scheduled its delivery.
  virtual void OnWatchQueued(WatchId id, WatchEventType type, const api::ObjectPtr& object) = 0;
  // OnWatchDelivered: the delivery ran (just before the watcher's callback; object null for kError).
  virtual void OnWatchDelivered(WatchId id, WatchEventType type, const api::ObjectPtr& object) = 0;
  // OnWatchClosed: the watch was stopped or dropped; nothing more is queued to it.
  virtual void OnWatchClosed(WatchId id) = 0;
};

// AdmissionRequest is what a validating webhook sees (admission.k8s.io AdmissionRequest, trimmed).
struct AdmissionRequest {
  std::string operation;  // CREATE, UPDATE, DELETE
  const api::KindInfo* kind = nullptr;
  std::string user;
  api::ObjectPtr object;      // new object (null on DELETE)
  api::ObjectPtr old_object;  // stored object (null on CREATE)
};
using ValidatingWebhook = std::function<base::Status(const AdmissionRequest&)>;

// Authorizer decides a request (RBAC lives in rbac.h); OK means allowed.
struct RequestAttributes {
  std::string user;
  std::string verb;  // get list watch create update patch delete
  const api::KindInfo* kind = nullptr;
  std::string subresource;
  std::string namespace_;
  std::string name;
};
using Authorizer = std::function<base::Status(const RequestAttributes&)>;

// ObjectQuota caps what the store may hold, as a ResourceQuota the sandbox applies everywhere:
// a create past it is refused with 403 "exceeded quota: sandbox" (lab::Budget sets it, so no
// manifest — a RayCluster of 2147483647 replicas — can exhaust the sandbox's memory).
struct ObjectQuota {
  size_t pods = 0;     // live Pods (0: no cap)
  size_t objects = 0;  // live objects of every kind (0: no cap)
};

class ApiServer {
 public:
  // scheduler and trace must outlive this object; prng draws uids and generateName suffixes.
  ApiServer(sim::Scheduler& scheduler, sim::Trace& trace, sim::Prng prng);
  ~ApiServer();
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;

  // Create stores a new object. Namespaced kinds need metadata.namespace (the caller defaults
  // it) and an existing Namespace. Status is dropped for kinds with a status subresource.
  base::StatusOr<api::ObjectPtr> Create(const RequestContext& ctx, api::Json obj);
  base::StatusOr<api::ObjectPtr> Get(const RequestContext& ctx, const std::string& kind,
                                     const std::string& ns, const std::string& name);
  base::StatusOr<ListResult> List(const RequestContext& ctx, const std::string& kind,
                                  const std::string& ns, const ListOptions& opts);
  // Update replaces the object (subresource "", "status", or "finalize" for a Namespace: its
  // spec.finalizers only). A stale resourceVersion gets 409; an empty one is 422 for custom
  // resources and unconditional for built-ins.
  base::StatusOr<api::ObjectPtr> Update(const RequestContext& ctx, api::Json obj,
                                        const std::string& subresource = "");
  // Patch applies a patch to the latest stored object without an optimistic-lock check unless
  // the patch itself carries metadata.resourceVersion.
  base::StatusOr<api::ObjectPtr> Patch(const RequestContext& ctx, const std::string& kind,
                                       const std::string& ns, const std::string& name,
                                       PatchType type, const api::Json& patch,
                                       const std::string& subresource = "");
  // This Patch takes the body apart where it can: a /status merge patch moves the members it
  // sets into the new object instead of copying them (a kubelet sends its whole Pod status).
  base::StatusOr<api::ObjectPtr> Patch(const RequestContext& ctx, const std::string& kind,
                                       const std::string& ns, const std::string& name,
                                       PatchType type, api::Json&& patch,
                                       const std::string& subresource = "");
  // Bind is the pods/binding subresource (what kube-scheduler calls): one write sets the Pod's
  // spec.nodeName to binding.target.name, adds the binding's annotations and sets PodScheduled
  // to True. 409 when the Pod is being deleted, already has a node or has scheduling gates. The
  // Binding's metadata names the Pod. Returns the bound Pod (the real response is a Status; the
  // scheduler keeps the Pod it assumed).
  base::StatusOr<api::ObjectPtr> Bind(const RequestContext& ctx, const api::Json& binding);
  // Delete removes the object, or marks it deleting (deletionTimestamp) while finalizers
  // remain. Returns the object as it is after the call (still present when marked). A Namespace
  // is only marked (phase Terminating) by the first call; later ones are 409 while its
  // spec.finalizers remain.
  base::StatusOr<api::ObjectPtr> Delete(const RequestContext& ctx, const std::string& kind,
                                        const std::string& ns, const std::string& name,
                                        const DeleteOptions& opts = {});

  // Watch delivers every later change of `kind` that matches opts; events for one watcher
  // arrive in commit order. REQUIRES: the callback does not outlive the returned id's StopWatch.
  base::StatusOr<WatchId> Watch(const RequestContext& ctx, const std::string& kind,
                                const WatchOptions& opts,
                                std::function<void(const WatchEvent&)> callback);
  void StopWatch(WatchId id);
  // SetWatchLatency changes the delivery latency of every watch whose watcher name is `watcher`
  // (or of every watcher of `kind` when watcher is empty): the `fault cache-lag` knob.
  void SetWatchLatency(const std::string& kind, base::Duration latency);
  // DeliveryLag returns extra delay for one watch delivery (the race explorer's cache-lag choice
  // point, see core/sim/steering.h); null (the default) adds none and asks nothing. It must not
  // schedule events or emit trace records.
  using DeliveryLag = std::function<base::Duration(const std::string& watcher,
                                                   const std::string& kind, WatchEventType type,
                                                   const api::ObjectPtr& object)>;
  void SetDeliveryLag(DeliveryLag lag) { delivery_lag_ = std::move(lag); }
  // DropWatches ends every watch of kind ("" = all): each gets one kError delivery and no more
  // events, so its informer relists. Returns how many were dropped.
  size_t DropWatches(const std::string& kind);

  // OpenWatch describes one open watch (for an observer attached mid-run).
  struct OpenWatch {
    WatchId id = 0;
    const api::KindInfo* kind = nullptr;
    WatchOptions opts;
  };
  // OpenWatches lists the open watches by id.
  std::vector<OpenWatch> OpenWatches() const;
  // SetWatchObserver installs (or, with null, removes) the read-only observer above.
  // REQUIRES: observer outlives its installation.
  void SetWatchObserver(WatchObserver* observer) { observer_ = observer; }

  // SetObjectQuota caps the store (see ObjectQuota); the default caps nothing.
  void SetObjectQuota(ObjectQuota quota) { quota_ = quota; }
  const ObjectQuota& object_quota() const { return quota_; }

  void AddValidatingWebhook(std::string name, ValidatingWebhook webhook);
  void SetAuthorizer(Authorizer authorizer) { authorizer_ = std::move(authorizer); }

  // TraceRejected records a request that a client-side fault rejected before it arrived.
  int64_t TraceRejected(const RequestContext& ctx, const std::string& verb,
                        const std::string& kind, const std::string& ns, const std::string& name,
                        const std::string& subresource, const base::Status& status);

  // Read-only views for the simulation's own components, checkers and UIs (no RBAC, no trace).
  api::ObjectPtr Peek(const std::string& kind, const std::string& ns,
                      const std::string& name) const;
  std::vector<api::ObjectPtr> PeekAll(const std::string& kind) const;
  // KindRevision is the resourceVersion of kind's latest persisted write (0: none yet, or a null
  // kind): a cheap "has any object of this kind changed" test for derived caches.
  int64_t KindRevision(const api::KindInfo* kind) const;
  std::vector<api::ObjectPtr> PeekEverything() const;
  // ResourceVersion is the store's current global resourceVersion.
  int64_t resource_version() const { return rv_; }
  uint64_t writes() const { return writes_; }

 private:
  struct Watcher;
  // KindState is one kind's watch cache (cacher.go's per-resource Cacher): its recent changes
  // and its watchers indexed by trigger value.
  struct KindState;
  KindState& StateOf(const api::KindInfo* kind);
  // Unindex removes a watcher from its kind's index.
  void Unindex(const Watcher& watcher);
  struct HistoryEntry {
    int64_t rv;
    const api::KindInfo* kind;
    api::ObjectPtr old_object;  // null for ADDED
    api::ObjectPtr new_object;  // the deleted object's final state for DELETED
    WatchEventType type;
    int64_t cause;
  };
  using StoreKey = std::string;  // "<Kind>/<namespace>/<name>"

  const api::KindInfo* Resolve(const std::string& kind) const;
  base::Status Authorize(const RequestContext& ctx, const std::string& verb,
                         const api::KindInfo* kind, const std::string& subresource,
                         const std::string& ns, const std::string& name) const;
  int64_t TraceRequest(const RequestContext& ctx, const std::string& verb,
                       const api::KindInfo* kind, const std::string& ns, const std::string& name,
                       const std::string& subresource, int code, const std::string& rv);
  // AdmitQuota refuses a create past the ObjectQuota; name is what the refusal names.
  base::Status AdmitQuota(const api::KindInfo& kind, const std::string& name) const;
  base::Status Admit(const std::string& operation, const api::KindInfo* kind,
                     const RequestContext& ctx, const api::ObjectPtr& object,
                     const api::ObjectPtr& old_object) const;
  // PatchInternal is Patch; owned is &patch when the caller gave the body away, else null.
  base::StatusOr<api::ObjectPtr> PatchInternal(const RequestContext& ctx,
                                               const std::string& kind_name, const std::string& ns,
                                               const std::string& name, PatchType type,
                                               const api::Json& patch, api::Json* owned,
                                               const std::string& subresource);
  // UpdateInternal runs the shared update path for Update and Patch.
  base::StatusOr<api::ObjectPtr> UpdateInternal(const RequestContext& ctx,
                                                const api::KindInfo* kind, api::Json obj,
                                                const std::string& subresource,
                                                const std::string& verb, bool require_rv);
  // Commit stores (or removes, when `removed`) the object under a new resourceVersion and fans
  // the change out to watchers. Returns the stored object.
  api::ObjectPtr Commit(const api::KindInfo* kind, api::ObjectPtr old_object, api::Json new_obj,
                        bool removed, int64_t cause);
  void Fanout(const HistoryEntry& entry);
  void Deliver(Watcher& watcher, const HistoryEntry& entry);
  std::string NewUid();
  std::string GenerateNameSuffix();
  std::string NotFoundMessage(const api::KindInfo* kind, const std::string& name) const;

  sim::Scheduler& scheduler_;
  sim::Trace& trace_;
  sim::Prng prng_;
  int64_t rv_ = 1;  // Invariant: strictly increases with every persisted write.
  uint64_t writes_ = 0;
  // Ordered for List and PeekAll (prefix walks); found by hash for single-object requests.
  base::KeyedMap<api::ObjectPtr> store_;  // Invariant: every stored RV <= rv_.
  std::map<WatchId, std::unique_ptr<Watcher>> watchers_;  // walked in id (opening) order
  // open_by_id_[id] is the watcher of an open watch, else null: every delivery finds its watcher
  // by id, and walking the map for it would be ~1 % of a scale run. Ids are issued in sequence.
  // Invariant: its non-null entries are exactly watchers_'s.
  std::vector<Watcher*> open_by_id_;
  Watcher* FindWatcher(WatchId id) const {
    return id < open_by_id_.size() ? open_by_id_[id] : nullptr;
  }
  // kinds_ holds each kind's history and watcher index; looked up, never iterated (the key is a
  // pointer). Invariant: the indexes hold exactly the ids of watchers_.
  std::map<const api::KindInfo*, std::unique_ptr<KindState>> kinds_;
  std::vector<WatchId> candidates_;  // Fanout's scratch buffer (watchersBuffer upstream)
  WatchId next_watch_ = 1;
  DeliveryLag delivery_lag_;  // null unless a schedule is pinned
  std::vector<std::pair<std::string, ValidatingWebhook>> webhooks_;
  Authorizer authorizer_;
  ClusterIPAllocator cluster_ips_;  // Services' spec.clusterIP
  std::unique_ptr<internal::SiblingSpecs> siblings_;  // Pods of one template share their specs
  WatchObserver* observer_ = nullptr;
  ObjectQuota quota_;
  size_t pods_stored_ = 0;  // Invariant: the number of Pods in store_.
};

}  // namespace apiserver
