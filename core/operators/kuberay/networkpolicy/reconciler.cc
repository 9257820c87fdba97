#include "core/operators/kuberay/networkpolicy/reconciler.h"

#include <utility>

#include "core/controller/controllerutil/controllerutil.h"
#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/utils.h"
#include "core/operators/kuberay/networkpolicy/builder.h"

namespace kuberay::networkpolicy {

using api::Json;
using base::Status;
using reconcile::Outcome;

namespace {

// IsControlledBy mirrors metav1.IsControlledBy: the controller reference carries owner's UID.
bool IsControlledBy(const Json& obj, const Json& owner) {
  std::optional<api::OwnerReference> ref = api::GetControllerOf(obj);
  return ref.has_value() && ref->uid == api::Uid(owner);
}

std::string Key(const Json& policy) { return api::Namespace(policy) + "/" + api::Name(policy); }

}  // namespace

NetworkPolicyReconciler::NetworkPolicyReconciler(client::Client& client, client::Client& events)
    : client_(client), recorder_(events, "networkpolicy-controller") {}

// mirrors networkpolicy_controller.go Reconcile
Outcome NetworkPolicyReconciler::Reconcile(reconcile::ReconcileContext& ctx,
                                           const reconcile::Request& req) {
  auto got = client_.Get("RayCluster", req.namespace_, req.name);
  if (!got.ok()) {
    // A deleted RayCluster's policies go with it (ownerReference garbage collection).
    if (base::IsNotFound(got.status())) return Outcome::Ok();
    return Outcome::Error(got.status());
  }
  const Json& cluster = **got;
  if (api::IsBeingDeleted(cluster)) return Outcome::Ok();
  const std::string managed_by = StringAt(cluster, "/spec/managedBy");
  if (!managed_by.empty() && managed_by != kKubeRayController) {
    ctx.Info("Skipping RayCluster managed by a custom controller", {{"managed-by", managed_by}});
    return Outcome::Ok();
  }
  const Json* config = At(cluster, "/spec/networkPolicy");
  if (config == nullptr || config->is_null()) {
    // Policies left from an earlier spec.networkPolicy are cleaned up.
    Status cleaned = DeleteStale(ctx, cluster, {});
    return cleaned.ok() ? Outcome::Ok() : Outcome::Error(cleaned);
  }
  ctx.Info("Reconciling NetworkPolicies for RayCluster",
           {{"cluster", req.name}, {"namespace", req.namespace_}});
  const std::string mode = Mode(cluster);
  Json head = BuildHeadNetworkPolicy(cluster, mode);
  std::set<std::string> desired = {api::Name(head)};
  Status s = CreateOrUpdate(ctx, cluster, std::move(head));
  if (!s.ok()) return Outcome::Error(s);
  const Json* groups = At(cluster, "/spec/workerGroupSpecs");
  if (groups != nullptr && groups->is_array()) {
    for (const Json& group : *groups) {
      Json policy = BuildWorkerGroupNetworkPolicy(cluster, mode, StrField(group, "groupName"));
      desired.insert(api::Name(policy));
      s = CreateOrUpdate(ctx, cluster, std::move(policy));
      if (!s.ok()) return Outcome::Error(s);
    }
  }
  // Teaching (upstream's note): with upgradeStrategy None the Pods of a removed group keep
  // running, now without their policy.
  s = DeleteStale(ctx, cluster, desired);
  if (!s.ok()) return Outcome::Error(s);
  ctx.Info("Successfully reconciled NetworkPolicies for RayCluster",
           {{"cluster", req.name}, {"namespace", req.namespace_}});
  return Outcome::Ok();
}

// mirrors createOrUpdateNetworkPolicy
Status NetworkPolicyReconciler::CreateOrUpdate(reconcile::ReconcileContext& ctx,
                                               const Json& cluster, Json policy) {
  Status owned = controllerutil::SetControllerReference(cluster, policy);
  if (!owned.ok()) return owned;
  auto created = client_.Create(policy);
  if (created.ok()) {
    ctx.Info("Successfully created NetworkPolicy", {{"name", api::Name(policy)}});
    recorder_.Eventf(cluster, kEventTypeNormal, kCreatedNetworkPolicy,
                     "Created NetworkPolicy " + Key(policy), ctx.now);
    return Status::OK();
  }
  if (!base::IsAlreadyExists(created.status())) {
    recorder_.Eventf(cluster, kEventTypeWarning, kFailedToCreateNetworkPolicy,
                     "Failed to create NetworkPolicy " + Key(policy) + ": " +
                         created.status().message(),
                     ctx.now);
    return created.status();
  }
  auto existing = client_.Get("NetworkPolicy", api::Namespace(policy), api::Name(policy));
  if (!existing.ok()) return existing.status();
  if (!IsControlledBy(**existing, cluster)) {
    recorder_.Eventf(cluster, kEventTypeWarning, kNetworkPolicyNameCollision,
                     "NetworkPolicy " + Key(policy) +
                         " already exists and is not owned by this RayCluster, network isolation "
                         "will not be applied. Rename the existing NetworkPolicy or use a "
                         "different RayCluster name to avoid the collision",
                     ctx.now);
    return Status(base::StatusCode::kInternal,
                  "NetworkPolicy " + Key(policy) + " already exists and is not owned by this RayCluster");
  }
  NormalizeNetworkPolicyPorts(policy["spec"]);
  const Json& current = **existing;
  const Json no_labels = Json::object();
  const Json& current_labels = current["metadata"].value("labels", no_labels);
  if (current.value("spec", Json()) == policy["spec"] &&
      current_labels == policy["metadata"]["labels"]) {
    return Status::OK();  // already up to date
  }
  Json update = current;
  update["spec"] = policy["spec"];
  update["metadata"]["labels"] = policy["metadata"]["labels"];
  auto updated = client_.Update(update);
  if (!updated.ok()) {
    recorder_.Eventf(cluster, kEventTypeWarning, kFailedToUpdateNetworkPolicy,
                     "Failed to update NetworkPolicy " + Key(policy) + ": " +
                         updated.status().message(),
                     ctx.now);
    return updated.status();
  }
  ctx.Info("Successfully updated NetworkPolicy", {{"name", api::Name(policy)}});
  recorder_.Eventf(cluster, kEventTypeNormal, kUpdatedNetworkPolicy,
                   "Updated NetworkPolicy " + Key(policy), ctx.now);
  return Status::OK();
}

// mirrors deleteStaleNetworkPolicies
Status NetworkPolicyReconciler::DeleteStale(reconcile::ReconcileContext& ctx, const Json& cluster,
                                            const std::set<std::string>& desired) {
  client::ListOptions opts;
  opts.label_selector = kRayClusterLabelKey + "=" + api::Name(cluster);
  auto list = client_.List("NetworkPolicy", api::Namespace(cluster), opts);
  if (!list.ok()) return list.status();
  for (const api::ObjectPtr& policy : *list) {
    if (desired.count(api::Name(*policy)) != 0) continue;
    if (!IsControlledBy(*policy, cluster)) continue;  // someone else's: leave it
    auto deleted = client_.Delete("NetworkPolicy", api::Namespace(*policy), api::Name(*policy));
    if (!deleted.ok()) {
      if (base::IsNotFound(deleted.status())) continue;
      ctx.Error("Failed to delete NetworkPolicy", {{"name", api::Name(*policy)}});
      recorder_.Eventf(cluster, kEventTypeWarning, kFailedToDeleteNetworkPolicy,
                       "Failed to delete NetworkPolicy " + Key(*policy) + ": " +
                           deleted.status().message(),
                       ctx.now);
      return deleted.status();
    }
    ctx.Info("Deleted NetworkPolicy", {{"name", api::Name(*policy)}});
    recorder_.Eventf(cluster, kEventTypeNormal, kDeletedNetworkPolicy,
                     "Deleted NetworkPolicy " + Key(*policy), ctx.now);
  }
  return Status::OK();
}

}  // namespace kuberay::networkpolicy
