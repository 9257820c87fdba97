#pragma once
// InferenceServiceReconciler: the reading note's running example — a small operator that runs a
// model server (a Deployment) for each InferenceService (inference.io/v1) and reports how many
// replicas are ready. One Reconcile reads the custom resource from the cache, handles deletion
// through a finalizer, reads the Deployment and the Pods, acts (create, or merge-patch replicas
// and image), writes status only when it changed, and returns RequeueAfter until every replica
// is ready.
// Mirrors: the note's Go InferenceServiceReconciler (sections 4.3–4.9), written the way
// kubebuilder scaffolds it on controller-runtime (client.IgnoreNotFound, controllerutil's
// finalizer helpers and SetControllerReference, client.MergeFrom, Status().Update).
// Simplified: objects are JSON; the Deployment carries one container named "server"; the
// external cleanup sits behind ExternalSystems; the lab's `operator bug ID on|off` switches
// (Bugs) inject the note's failure modes (section 4.10).
// Teaching: after adding the finalizer the reconcile continues with the updated object instead
// of returning, because with GenerationChangedPredicate on For the finalizer-only update (no
// generation bump) would never trigger another reconcile.
// Single-threaded; time comes from ReconcileContext::now; blocking time is reported through
// Options::on_blocking, never slept.

#include <functional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/status.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/operators/inference/external.h"
#include "core/reconcile/reconcile.h"

namespace inference {

// kKind is the custom resource's kind; kFinalizer guards its external cleanup.
inline const std::string kKind = "InferenceService";
inline const std::string kFinalizer = "inference.io/finalizer";
// kInstanceLabel selects a service's Deployment and Pods; kNameLabel names the application.
inline const std::string kInstanceLabel = "app.kubernetes.io/instance";
inline const std::string kNameLabel = "app.kubernetes.io/name";
inline const std::string kNameLabelValue = "inferenceservice";
// kContainerName is the model server's container in the Deployment's Pod template.
inline const std::string kContainerName = "server";
// kSandboxAnnotationPrefix: the lab's annotations (pull-time, ready-after, ...) on the custom
// resource are copied to the Pod template, so a script can say how long a model takes to load.
inline const std::string kSandboxAnnotationPrefix = "sim.reconcile-lab.io/";

// Bugs are the lab's `operator inference-operator bug ID on|off` switches. Each reproduces one
// failure mode of the note's section 4.10. All default to false (the correct operator).
struct Bugs {
  // non-idempotent-create: create a new Deployment (generateName "<name>-") on every reconcile,
  // without the Get-before-Create, so Deployments pile up.
  bool non_idempotent_create = false;
  // forget-finalizer-removal: run the cleanup but never remove the finalizer, so the custom
  // resource stays Terminating forever.
  bool forget_finalizer_removal = false;
  // blocking-reconcile: the reconcile "sleeps" blocking_duration (waiting instead of returning
  // RequeueAfter), reported through Options::on_blocking; the worker slot stays busy.
  bool blocking_reconcile = false;
  // missing-generation-predicate: For() has no GenerationChangedPredicate, so the operator's
  // own status writes (and any metadata change) trigger reconciles. Read by SetupWithManager:
  // it takes effect when the controller is set up (the operator restarts).
  bool missing_generation_predicate = false;
  // error-before-status: return an error right after the act, so status (observedGeneration)
  // is never written and the request is retried with backoff.
  bool error_before_status = false;
  // terminal-error: wrap a failed create or patch of the Deployment in reconcile.TerminalError,
  // declaring a transient failure permanent: the controller logs and counts it, never retries.
  bool terminal_error = false;
  // requeue-after-with-error: return Result{RequeueAfter: requeue_after} together with a failed
  // create or patch; the controller ignores the RequeueAfter (with a warning) and backs off.
  bool requeue_after_with_error = false;
  // stale-cache-create: find the Deployment by listing the cache (label instance=<name>) and,
  // when the list is empty, create one with generateName "<name>-". Right while the cache is
  // fresh; a second reconcile that runs before the informer saw the first create makes a
  // duplicate. Bounded: once the cache catches up the list is never empty again.
  bool stale_cache_create = false;
  // unscoped-pod-cache: the manager's cache has no selector for Pods (controller-runtime's
  // default), so the operator lists, watches and keeps every Pod of the cluster instead of its
  // own. Read by CacheOptions: it takes effect when the operator restarts.
  bool unscoped_pod_cache = false;
  // requeue-instead-of-requeue-after: while replicas are not ready, return Result{Requeue: true}
  // (the note's 「立即重排」) instead of RequeueAfter. controller-runtime treats it as a
  // rate-limited add without Forget: retries at 5 ms, 10 ms, 20 ms … until the replicas are ready.
  bool requeue_instead_of_requeue_after = false;
  // nil-dereference: Reconcile reads an optional part of the spec through a nil pointer and
  // panics ("runtime error: invalid memory address or nil pointer dereference"). With
  // RecoverPanic (controller-runtime's default) the panic becomes an error and is retried with
  // backoff; with `operator set recover-panic=false` it crashes the operator process.
  bool nil_dereference = false;
};

// BugIds lists the lab's bug IDs in a fixed order.
const std::vector<std::string>& BugIds();
// SetBug turns the bug named id on or off; an unknown id is kInvalid and changes nothing.
base::Status SetBug(Bugs& bugs, const std::string& id, bool on);

struct Options {
  // requeue_after is how soon to look again while replicas are not ready. Defaults to 30s.
  base::Duration requeue_after = 30 * base::kSecond;
  // bugs are the injected failure modes. Defaults to none.
  Bugs bugs;
  // blocking_duration is how long the blocking-reconcile bug "sleeps". Defaults to 20s.
  base::Duration blocking_duration = 20 * base::kSecond;
  // on_blocking receives virtual time the reconcile body spends blocked outside the API client:
  // the external systems' latency (ExternalSystems::TakeLatency) and the blocking-reconcile
  // sleep. The receiver adds it to the worker's busy time; SetupWithManager wires it to the
  // controller's cost meter when it is unset. Defaults to null (the time is dropped).
  std::function<void(base::Duration)> on_blocking;
};

class InferenceServiceReconciler final : public reconcile::Reconciler {
 public:
  // client is the manager's client (reads from the cache, writes to the API server); client and
  // external must outlive this object.
  InferenceServiceReconciler(client::Client& client, ExternalSystems& external,
                             Options options = {});
  InferenceServiceReconciler(const InferenceServiceReconciler&) = delete;
  InferenceServiceReconciler& operator=(const InferenceServiceReconciler&) = delete;

  // Reconcile drives one InferenceService toward its spec (the note's sections 4.3–4.9).
  // Errors (Get/List/Create/Patch/Update failures, 409 Conflicts, cleanup failures) are returned
  // so the controller retries with backoff; RequeueAfter(requeue_after) while replicas are not
  // all ready; the zero Result once converged.
  reconcile::Outcome Reconcile(reconcile::ReconcileContext& ctx,
                               const reconcile::Request& req) override;

  const Options& options() const { return options_; }
  // bugs can be switched while the operator runs (except missing_generation_predicate, which
  // SetupWithManager reads).
  Bugs& bugs() { return options_.bugs; }
  // SetOnBlocking replaces Options::on_blocking.
  void SetOnBlocking(std::function<void(base::Duration)> fn) {
    options_.on_blocking = std::move(fn);
  }

 private:
  // Finalize runs the deletion branch (section 4.9) for a resource being deleted.
  reconcile::Outcome Finalize(reconcile::ReconcileContext& ctx, const api::Json& isvc);
  void Block(base::Duration d) const;
  // ActFailed is what Reconcile returns when creating or patching the Deployment failed: the
  // error, as the terminal-error and requeue-after-with-error bugs shape it.
  reconcile::Outcome ActFailed(const base::Status& error) const;

  client::Client& client_;
  ExternalSystems& external_;
  Options options_;
};

// BuildDeployment returns the Deployment the reconciler creates for isvc: replicas and image
// from spec, labels kInstanceLabel=<name> and kNameLabel=inferenceservice on the object, the
// selector and the Pod template, one container kContainerName, the sandbox annotations on the
// template, and isvc as controller owner. Errors come from SetControllerReference.
base::StatusOr<api::Json> BuildDeployment(const api::Json& isvc);

// ComputeStatus is the status the note's section 4.6 writes: observedGeneration, readyReplicas,
// ready, and a Ready condition whose lastTransitionTime is kept from isvc's current Ready
// condition while that condition's status does not change (otherwise it is `now`).
api::Json ComputeStatus(const api::Json& isvc, int64_t ready_replicas, base::SimTime now);

}  // namespace inference
