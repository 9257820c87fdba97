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
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/api/kind.h"
#include "core/api/object.h"
#include "core/apiserver/cluster_ip.h"
#include "core/apiserver/request.h"
#include "core/apiserver/simulation_hooks.h"
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

class ApiServer : private SimulationHooks {
 public:
  // scheduler and trace must outlive this object; prng draws uids and generateName suffixes.
  ApiServer(sim::Scheduler& scheduler, sim::Trace& trace, sim::Prng prng);
  ~ApiServer() override;
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;

  // ---- The API verbs -------------------------------------------------------------------------
  // Every verb is one request: authorized (403 Forbidden from the Authorizer), traced as one
  // `api.request` record, and answered with kube-apiserver's status and message. A kind the server
  // does not serve is 404 NotFound on every verb. A write commits at once under a new
  // resourceVersion; watchers hear of it later (Watch).

  // Create stores a new object and returns it as stored (uid, resourceVersion, generation,
  // creationTimestamp set; generateName resolved; defaults applied; status dropped for kinds
  // with a status subresource). Namespaced kinds need metadata.namespace (the caller defaults it)
  // and an existing Namespace. Errors: 404 (namespace missing), 400 (no namespace), 409
  // AlreadyExists, 422 Invalid (schema, name, a taken clusterIP), 413 (body over 3 MiB), 500
  // (resourceVersion set), 403 (RBAC, the ObjectQuota, a terminating namespace), a webhook's
  // denial.
  base::StatusOr<api::ObjectPtr> Create(const RequestContext& ctx, api::Json obj);
  // Get returns the stored object. Errors: 404 NotFound.
  base::StatusOr<api::ObjectPtr> Get(const RequestContext& ctx, const std::string& kind,
                                     const std::string& ns, const std::string& name);
  // List returns the objects of kind in ns ("" = all namespaces) matching the label and field
  // selectors, sorted by namespace then name, with the store's resourceVersion for a following
  // Watch. Errors: 400 (a selector that does not parse).
  base::StatusOr<ListResult> List(const RequestContext& ctx, const std::string& kind,
                                  const std::string& ns, const ListOptions& opts);
  // Update replaces the object (subresource "", "status", or "finalize" for a Namespace: its
  // spec.finalizers only); metadata.generation follows the kind's api::GenerationRule, and an
  // update that changes nothing is not written (same resourceVersion, no watch event).
  // Errors: 404 (object or subresource missing), 409 Conflict (stale resourceVersion), 422
  // Invalid (schema, immutable fields, an empty resourceVersion for a custom resource; built-ins
  // update unconditionally), 413, 403.
  base::StatusOr<api::ObjectPtr> Update(const RequestContext& ctx, api::Json obj,
                                        const std::string& subresource = "");
  // Patch applies a patch (PatchType) to the latest stored object, with no optimistic-lock check
  // unless the patch itself carries metadata.resourceVersion, then updates as Update does.
  // Errors: Update's, 400 (a body that is not an object, a patched name that differs), 415
  // (strategic merge patch on a custom resource).
  base::StatusOr<api::ObjectPtr> Patch(const RequestContext& ctx, const std::string& kind,
                                       const std::string& ns, const std::string& name,
                                       PatchType type, const api::Json& patch,
                                       const std::string& subresource = "");
  // Bind is the pods/binding subresource (what kube-scheduler calls): one write sets the Pod's
  // spec.nodeName to binding.target.name, adds the binding's annotations and sets PodScheduled
  // to True. The Binding's metadata names the Pod. Returns the bound Pod (the real response is a
  // Status; the scheduler keeps the Pod it assumed). Errors: 404, 409 when the Pod is being
  // deleted, already has a node or has scheduling gates.
  base::StatusOr<api::ObjectPtr> Bind(const RequestContext& ctx, const api::Json& binding);
  // Delete removes the object, or marks it deleting (deletionTimestamp) while finalizers
  // remain; propagation decides what the garbage collector does with its dependents. Returns
  // the object as it is after the call (still present when marked). A Namespace is only marked
  // (phase Terminating) by the first call; later ones are 409 while its spec.finalizers remain.
  // Errors: 404 NotFound, 409, 403 (the system namespaces may not be deleted).
  base::StatusOr<api::ObjectPtr> Delete(const RequestContext& ctx, const std::string& kind,
                                        const std::string& ns, const std::string& name,
                                        const DeleteOptions& opts = {});
  // Watch delivers every later change of `kind` that matches opts, each as a scheduler event
  // opts.latency after its commit; events for one watcher arrive in commit order. With a
  // resourceVersion it first replays the kept history after it. A kError event ends the watch
  // (the watcher must relist). Errors: 400 (a selector that does not parse, a resourceVersion
  // that is not a number), 410 Gone (a resourceVersion older than the kept history).
  // REQUIRES: the callback does not outlive the returned id's StopWatch.
  base::StatusOr<WatchId> Watch(const RequestContext& ctx, const std::string& kind,
                                const WatchOptions& opts,
                                std::function<void(const WatchEvent&)> callback);
  // StopWatch ends a watch; nothing more is delivered to it. An unknown id is ignored.
  void StopWatch(WatchId id);

  // ---- Configuration (the composition root sets it up, as kube-apiserver's flags do) ----------
  // SetObjectQuota caps the store (see ObjectQuota); the default caps nothing.
  void SetObjectQuota(ObjectQuota quota) { quota_ = quota; }
  const ObjectQuota& object_quota() const { return quota_; }
  // AddValidatingWebhook runs webhook on every create, update and delete (a ValidatingWebhook-
  // Configuration); a non-OK status refuses the request with its code, the message prefixed
  // `admission webhook "NAME" denied the request: `.
  void AddValidatingWebhook(std::string name, ValidatingWebhook webhook);
  // SetAuthorizer decides every request (rbac.h); without one everything is allowed.
  void SetAuthorizer(Authorizer authorizer) { authorizer_ = std::move(authorizer); }

  // ---- Outside the API -----------------------------------------------------------------------
  // Hooks are the simulation's faults and observers (simulation_hooks.h): watch latency and
  // drops, the race explorer's delivery lag, the invariant checker's observer.
  SimulationHooks& Hooks() { return *this; }

  // Reads without a request, for the simulation's own components, checkers and UIs (no RBAC,
  // no trace, no resourceVersion semantics). Peek is null when absent.
  api::ObjectPtr Peek(const std::string& kind, const std::string& ns,
                      const std::string& name) const;
  std::vector<api::ObjectPtr> PeekAll(const std::string& kind) const;
  // KindRevision is the resourceVersion of kind's latest persisted write (0: none yet, or a null
  // kind): a cheap "has any object of this kind changed" test for derived caches.
  int64_t KindRevision(const api::KindInfo* kind) const;
  std::vector<api::ObjectPtr> PeekEverything() const;
  // Discover resolves what a user may type (api::FindKind's forms) to a served kind: the built-in
  // kinds and the kinds of the CustomResourceDefinitions stored (discovery). Null when not served.
  const api::KindInfo* Discover(const std::string& name) const { return Resolve(name); }
  // DiscoverFor resolves an object's apiVersion and kind to a served kind, or null.
  const api::KindInfo* DiscoverFor(const std::string& api_version, const std::string& kind) const;
  // ResourceVersion is the store's current global resourceVersion.
  int64_t resource_version() const { return rv_; }
  uint64_t writes() const { return writes_; }

  // PatchTakingBody is Patch, for a caller that gives its body away: same behaviour and errors;
  // it only takes the body apart where it can (a /status merge patch moves the members it sets
  // into the new object instead of copying them: a kubelet sends its whole Pod status). A
  // performance measure, not part of the API.
  base::StatusOr<api::ObjectPtr> PatchTakingBody(const RequestContext& ctx,
                                                 const std::string& kind, const std::string& ns,
                                                 const std::string& name, PatchType type,
                                                 api::Json&& patch,
                                                 const std::string& subresource = "");

 private:
  // SimulationHooks (simulation_hooks.h).
  void SetWatchLatency(const std::string& kind, base::Duration latency) override;
  void SetDeliveryLag(DeliveryLag lag) override { delivery_lag_ = std::move(lag); }
  size_t DropWatches(const std::string& kind) override;
  std::vector<OpenWatch> OpenWatches() const override;
  void SetWatchObserver(WatchObserver* observer) override { observer_ = observer; }
  int64_t TraceRejected(const RequestContext& ctx, const std::string& verb,
                        const std::string& kind, const std::string& ns, const std::string& name,
                        const std::string& subresource, const base::Status& status) override;

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
  // AdmitCustomResourceDefinition checks a CRD written by create or update (old: the stored one,
  // null on create), sets its status and returns the kind it will serve in *kind.
  base::Status AdmitCustomResourceDefinition(api::Json& crd, const api::ObjectPtr& old,
                                             api::KindInfo* kind) const;
  // ServeCustomResourceDefinition starts (or, on update, keeps) serving the CRD's kind.
  void ServeCustomResourceDefinition(const std::string& crd_name, api::KindInfo kind);
  // StopServingCustomResourceDefinition deletes the CRD's custom resources and stops serving it.
  void StopServingCustomResourceDefinition(const std::string& crd_name, int64_t cause);
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
  // custom_kinds_ holds every kind a CRD has served; entries are never freed (history and
  // watchers point at them) but reused when a CRD of the same kind comes back. crds_ maps a
  // stored CRD's name to its served kind. Invariant: crds_'s values point into custom_kinds_.
  std::deque<std::unique_ptr<api::KindInfo>> custom_kinds_;
  std::map<std::string, api::KindInfo*> crds_;
  size_t pods_stored_ = 0;  // Invariant: the number of Pods in store_.
};

}  // namespace apiserver
