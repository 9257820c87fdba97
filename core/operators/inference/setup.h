#pragma once
// SetupWithManager: how the InferenceService operator's main.go wires its reconciler into a
// manager — one controller that reconciles InferenceServices and owns Deployments.
// Mirrors: the kubebuilder scaffold's `func (r *InferenceServiceReconciler) SetupWithManager(mgr
// ctrl.Manager) error { return ctrl.NewControllerManagedBy(mgr).For(&InferenceService{},
// builder.WithPredicates(predicate.GenerationChangedPredicate{})).Owns(&appsv1.Deployment{})
// .WithOptions(...).Complete(r) }`.
// Simplified: returns the controller (Go returns only an error) so the lab can show its queue.
// Teaching: a faithful Owns(Deployment) has no predicate, so every status write the Deployment
// controller makes during a rollout enqueues the InferenceService again; the note's timeline
// (section 4.8) shows only the reconciles that matter.
// Single-threaded; nothing runs until the manager starts.

#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/cache/cache.h"
#include "core/controller/controller.h"
#include "core/manager/manager.h"
#include "core/operators/inference/reconciler.h"

namespace inference {

struct SetupOptions {
  // max_concurrent_reconciles is the controller's worker slots. Defaults to 1.
  int max_concurrent_reconciles = 1;
  // use_priority_queue picks controller-runtime's priority queue (the v0.23+ default) over the
  // classic rate-limiting workqueue. Defaults to true.
  bool use_priority_queue = true;
};

// CacheOptions is the manager's cache scope, as KubeRay scopes its own (managercache's
// K8sControllerRuntimeCacheSelectors): Pods only with app.kubernetes.io/name=inferenceservice,
// the label its Deployments' templates give their Pods. The reconciler reads no other Pod, and
// without the selector controller-runtime would list, watch and keep every Pod of the cluster.
// namespaces is the --watch-namespace list (empty: all namespaces). With bugs.unscoped_pod_cache
// the Pods are not scoped.
cache::Options CacheOptions(const std::vector<std::string>& namespaces = {},
                            const Bugs& bugs = {});

// SetupWithManager builds the "inferenceservice" controller:
// - For(InferenceService) with GenerationChangedPredicate, so status writes and metadata-only
//   changes do not reconcile; without it when r.bugs().missing_generation_predicate is set.
// - Owns(Deployment): EnqueueRequestForOwner(InferenceService, OnlyControllerOwner()).
// - controller::Options from opts.
// It also creates the Pod informer the reconciler lists from (controller-runtime would create
// it on the first List and block until synced; the sandbox's cache answers kTimeout instead),
// and, when r has no on_blocking receiver, routes the reconciler's blocked time into the
// controller's cost meter so the worker slot stays busy that long.
// mgr and r must outlive the controller. Errors come from the builder and the cache.
base::StatusOr<controller::Controller*> SetupWithManager(manager::Manager& mgr,
                                                         InferenceServiceReconciler& r,
                                                         const SetupOptions& opts = {});

}  // namespace inference
