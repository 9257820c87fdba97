#pragma once
// SetupWithManager: how KubeRay's main.go wires the RayCronJob reconciler into the manager
// when the RayCronJob gate is on.
// Mirrors: ray-operator/controllers/ray/raycronjob_controller.go SetupWithManager —
// ctrl.NewControllerManagedBy(mgr).For(&rayv1.RayCronJob{}).WithOptions(controller.Options{
// MaxConcurrentReconciles: reconcileConcurrency}).Complete(r).
// Simplified: returns the controller (Go returns only an error) so the lab can show its queue.
// Teaching: For(RayCronJob) only — the RayJobs it creates are not watched (no Owns), so a
// finished or deleted RayJob never wakes it; only its own status write and RequeueAfter do.
// Single-threaded; nothing runs until the manager starts.

#include "core/base/status.h"
#include "core/controller/controller.h"
#include "core/manager/manager.h"
#include "core/operators/kuberay/raycronjob/reconciler.h"

namespace kuberay::raycronjob {

struct SetupOptions {
  // max_concurrent_reconciles is --reconcile-concurrency. Defaults to 1.
  int max_concurrent_reconciles = 1;
  // use_priority_queue: controller-runtime v0.24's default, which KubeRay keeps. Defaults to true.
  bool use_priority_queue = true;
};

// SetupWithManager builds the "raycronjob" controller: For(RayCronJob).
// mgr and r must outlive the controller.
base::StatusOr<controller::Controller*> SetupWithManager(manager::Manager& mgr,
                                                         RayCronJobReconciler& r,
                                                         const SetupOptions& opts = {});

}  // namespace kuberay::raycronjob
