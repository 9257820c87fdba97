#pragma once
// SetupWithManager: how main.go wires the RayCluster reconciler into the manager.
// Mirrors: ray-operator/controllers/ray/raycluster_controller.go SetupWithManager —
// For(RayCluster, Or(GenerationChanged, LabelChanged, AnnotationChanged)), Owns(Pod),
// Owns(Service), Owns(Secret), Owns(PersistentVolumeClaim), MaxConcurrentReconciles =
// --reconcile-concurrency.
// Simplified: returns the controller (Go returns only an error). The ServiceAccount, Role and
// RoleBinding informers the autoscaler reconcile functions read are started here, with the
// manager (controller-runtime starts them on the first Get and blocks until synced; the
// sandbox's cache answers a timeout instead).
// Teaching: a status-only write to the RayCluster passes none of the three predicates, so the
// operator's own status updates never reconcile the cluster again; Pod and Service changes do,
// through their owner reference.
// Single-threaded; nothing runs until the manager starts.

#include "core/base/status.h"
#include "core/controller/controller.h"
#include "core/manager/manager.h"
#include "core/operators/kuberay/raycluster/reconciler.h"

namespace kuberay {

struct RayClusterSetupOptions {
  // max_concurrent_reconciles is --reconcile-concurrency. Defaults to 1.
  int max_concurrent_reconciles = 1;
  // use_priority_queue: controller-runtime v0.24's default, which KubeRay keeps. Defaults to true.
  bool use_priority_queue = true;
};

base::StatusOr<controller::Controller*> SetupRayClusterWithManager(
    manager::Manager& mgr, RayClusterReconciler& r, const RayClusterSetupOptions& opts = {});

}  // namespace kuberay
