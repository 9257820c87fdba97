#pragma once
// SetupWithManager: how KubeRay's main.go wires the NetworkPolicy controller into the manager
// when the RayClusterNetworkPolicy gate is on.
// Mirrors: ray-operator/controllers/ray/networkpolicy_controller.go SetupWithManager —
// For(&rayv1.RayCluster{}, WithPredicates(GenerationChangedPredicate{})),
// Owns(&networkingv1.NetworkPolicy{}), Named("networkpolicy"), MaxConcurrentReconciles.
// Simplified: returns the controller (Go returns only an error) so the lab can show its queue.
// Single-threaded; nothing runs until the manager starts.

#include "core/base/status.h"
#include "core/controller/controller.h"
#include "core/manager/manager.h"
#include "core/operators/kuberay/networkpolicy/reconciler.h"

namespace kuberay::networkpolicy {

struct SetupOptions {
  // max_concurrent_reconciles is --reconcile-concurrency. Defaults to 1.
  int max_concurrent_reconciles = 1;
  // use_priority_queue: controller-runtime v0.24's default, which KubeRay keeps. Defaults to true.
  bool use_priority_queue = true;
};

// SetupWithManager builds the "networkpolicy" controller. mgr and r must outlive it.
base::StatusOr<controller::Controller*> SetupWithManager(manager::Manager& mgr,
                                                         NetworkPolicyReconciler& r,
                                                         const SetupOptions& opts = {});

}  // namespace kuberay::networkpolicy
