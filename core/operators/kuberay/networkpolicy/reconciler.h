#pragma once
// NetworkPolicyReconciler: keeps a RayCluster's NetworkPolicies (see builder.h) in line with
// spec.networkPolicy — creates them, updates them when spec or labels drift, deletes the ones
// of removed groups (or all of them when spec.networkPolicy goes away).
// Mirrors: ray-operator/controllers/ray/networkpolicy_controller.go (Reconcile,
// createOrUpdateNetworkPolicy, deleteStaleNetworkPolicies) of KubeRay v1.7.0 (gate
// RayClusterNetworkPolicy, alpha, off by default).
// Teaching: a second controller on the same RayCluster: its own queue, its own predicate
// (GenerationChanged only), its own event recorder "networkpolicy-controller". A policy name
// already taken by someone else's NetworkPolicy is a NetworkPolicyNameCollision, not a takeover.
// Single-threaded; time comes from ReconcileContext::now.

#include <set>
#include <string>

#include "core/api/object.h"
#include "core/base/status.h"
#include "core/client/client.h"
#include "core/operators/kuberay/common/events.h"
#include "core/reconcile/reconcile.h"

namespace kuberay::networkpolicy {

// Event reasons (utils/constant.go).
inline const std::string kCreatedNetworkPolicy = "CreatedNetworkPolicy";
inline const std::string kUpdatedNetworkPolicy = "UpdatedNetworkPolicy";
inline const std::string kDeletedNetworkPolicy = "DeletedNetworkPolicy";
inline const std::string kFailedToCreateNetworkPolicy = "FailedToCreateNetworkPolicy";
inline const std::string kFailedToUpdateNetworkPolicy = "FailedToUpdateNetworkPolicy";
inline const std::string kFailedToDeleteNetworkPolicy = "FailedToDeleteNetworkPolicy";
inline const std::string kNetworkPolicyNameCollision = "NetworkPolicyNameCollision";

class NetworkPolicyReconciler final : public reconcile::Reconciler {
 public:
  // client is the manager's client; events goes to the API server. Both must outlive this.
  NetworkPolicyReconciler(client::Client& client, client::Client& events);
  NetworkPolicyReconciler(const NetworkPolicyReconciler&) = delete;
  NetworkPolicyReconciler& operator=(const NetworkPolicyReconciler&) = delete;

  reconcile::Outcome Reconcile(reconcile::ReconcileContext& ctx,
                               const reconcile::Request& req) override;

 private:
  base::Status CreateOrUpdate(reconcile::ReconcileContext& ctx, const api::Json& cluster,
                              api::Json policy);
  // DeleteStale deletes the cluster's own policies whose names are not in desired.
  base::Status DeleteStale(reconcile::ReconcileContext& ctx, const api::Json& cluster,
                           const std::set<std::string>& desired);

  client::Client& client_;
  EventRecorder recorder_;
};

}  // namespace kuberay::networkpolicy
