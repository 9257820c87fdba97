#pragma once
// SetupWithManager: how KubeRay's main.go wires the RayService reconciler into the manager.
// Mirrors: ray-operator/controllers/ray/rayservice_controller.go SetupWithManager —
// For(&rayv1.RayService{}, builder.WithPredicates(predicate.Or(GenerationChangedPredicate,
// LabelChangedPredicate, AnnotationChangedPredicate))).Owns(&rayv1.RayCluster{})
// .Owns(&corev1.Service{}).WithOptions(MaxConcurrentReconciles).Complete(r).
// Simplified: returns the controller so the lab can show its queue.
// Single-threaded; nothing runs until the manager starts.

#include "core/base/status.h"
#include "core/controller/controller.h"
#include "core/manager/manager.h"
#include "core/operators/kuberay/rayservice/reconciler.h"

namespace kuberay::rayservice {

struct SetupOptions {
  // max_concurrent_reconciles is --reconcile-concurrency. Defaults to 1.
  int max_concurrent_reconciles = 1;
  // use_priority_queue: controller-runtime v0.24's default. Defaults to true.
  bool use_priority_queue = true;
};

// SetupWithManager builds the "rayservice" controller. It also starts the Endpoints informer
// (numServeEndpoints). mgr and r must outlive the controller.
base::StatusOr<controller::Controller*> SetupWithManager(manager::Manager& mgr,
                                                         RayServiceReconciler& r,
                                                         const SetupOptions& opts = {});

}  // namespace kuberay::rayservice
