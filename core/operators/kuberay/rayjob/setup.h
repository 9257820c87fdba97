#pragma once
// SetupWithManager: how KubeRay's main.go wires the RayJob reconciler into the manager.
// Mirrors: ray-operator/controllers/ray/rayjob_controller.go SetupWithManager —
// ctrl.NewControllerManagedBy(mgr).For(&rayv1.RayJob{}).Owns(&rayv1.RayCluster{})
// .Owns(&corev1.Service{}).Owns(&batchv1.Job{}).WithOptions(controller.Options{
// MaxConcurrentReconciles: reconcileConcurrency}).Complete(r).
// Simplified: returns the controller (Go returns only an error) so the lab can show its queue.
// Teaching: For(RayJob) has no predicate: the controller's own status writes come back as
// reconciles.
// Single-threaded; nothing runs until the manager starts.

#include "core/base/status.h"
#include "core/controller/controller.h"
#include "core/manager/manager.h"
#include "core/operators/kuberay/rayjob/reconciler.h"

namespace kuberay::rayjob {

struct SetupOptions {
  // max_concurrent_reconciles is --reconcile-concurrency. Defaults to 1.
  int max_concurrent_reconciles = 1;
  // use_priority_queue: controller-runtime v0.24's default, which KubeRay keeps. Defaults to true.
  bool use_priority_queue = true;
};

// SetupWithManager builds the "rayjob" controller: For(RayJob), Owns(RayCluster),
// Owns(Service), Owns(Job). It also starts the Pod informer (SidecarMode lists head Pods).
// mgr and r must outlive the controller.
base::StatusOr<controller::Controller*> SetupWithManager(manager::Manager& mgr,
                                                         RayJobReconciler& r,
                                                         const SetupOptions& opts = {});

}  // namespace kuberay::rayjob
