// Multi-host worker groups (numOfHosts > 1, gate RayMultiHostIndexing): a replica is numOfHosts
// Pods that share one replica name (`ray.io/worker-group-replica-name`) and replica index, with
// host indices 0..numOfHosts-1, and it lives and dies as a whole — a TPU slice is useless with a
// host missing.
// mirrors raycluster_controller.go reconcileMultiHostWorkerGroup and deletePods
// Teaching: upstream walks its replica map in Go's map order (random from run to run); here
// replicas are visited in replica-name order, and the names end in random characters, so which
// replica goes first is as arbitrary, but a seed replays it.
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/api/fields.h"
#include "core/api/pointer.h"
#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/names.h"
#include "core/operators/kuberay/common/utils.h"
#include "core/operators/kuberay/raycluster/pod_builder.h"
#include "core/operators/kuberay/raycluster/reconciler.h"

namespace kuberay {
namespace {

using api::Json;
using api::ObjectPtr;

// MultiHostLabel is the Pod's label key's value, or "" (a Go map lookup of a missing key).
std::string MultiHostLabel(const Json& pod, const std::string& key) {
  const Json* labels = api::ObjectMeta(pod).Labels();
  const Json* value = labels != nullptr ? api::Member(*labels, key) : nullptr;
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

// MultiHostTerminated is the Ray container's state.terminated as Go's %v prints the pointer.
std::string MultiHostTerminated(const Json& pod) {
  const Json* statuses = api::FindPointer(pod, "/status/containerStatuses");
  const std::string first = api::GetString(pod, "/spec/containers/0/name");
  if (statuses != nullptr && statuses->is_array()) {
    for (const Json& s : *statuses) {
      if (s.is_object() && s.value("name", Json()) == first) {
        const Json* t = api::FindPointer(s, "/state/terminated");
        if (t != nullptr) return "&" + t->dump();
      }
    }
  }
  return "nil";
}

ReconcileError MultiHostError(const std::string& message, const std::string& marker = "") {
  return ReconcileError{base::Status(base::StatusCode::kInternal, message), marker};
}

}  // namespace

// mirrors raycluster_controller.go deletePods: NotFound is skipped; each deletion is expected
// and recorded.
ReconcileError RayClusterReconciler::DeleteReplicaPods(reconcile::ReconcileContext& ctx,
                                                       const Json& cluster,
                                                       const std::vector<ObjectPtr>& pods,
                                                       const std::string& group_name,
                                                       const std::string& reason) {
  const std::string ns = api::Namespace(cluster);
  for (const ObjectPtr& p : pods) {
    const std::string pod = api::Name(*p);
    auto deleted = client_.Delete("Pod", ns, pod);
    if (!deleted.ok()) {
      if (base::IsNotFound(deleted.status())) continue;
      Event(cluster, kEventTypeWarning, kFailedToDeleteWorkerPod,
            "Failed deleting worker Pod " + ns + "/" + pod + " for group " + group_name +
                "; Pod status: " + StringAt(*p, "/status/phase") + "; Pod restart policy: " +
                StringAt(*p, "/spec/restartPolicy") + "; Ray container terminated status: " +
                MultiHostTerminated(*p) + ", " + deleted.status().message(),
            ctx.now);
      return ReconcileError{deleted.status(), kFailedDeleteWorkerPod};
    }
    expectations_.ExpectScalePod(ns, api::Name(cluster), group_name, pod,
                                 ScaleExpectations::Action::kDelete, ctx.now);
    Event(cluster, kEventTypeNormal, kDeletedWorkerPod,
          "Deleted worker Pod " + ns + "/" + pod + " for group " + group_name + ": " + reason,
          ctx.now);
  }
  return ReconcileError{base::Status::OK(), ""};
}

ReconcileError RayClusterReconciler::ReconcileMultiHostWorkerGroup(
    reconcile::ReconcileContext& ctx, const Json& cluster, const Json& group,
    const std::vector<ObjectPtr>& workers) {
  const std::string group_name = group.value("groupName", std::string());
  const int64_t hosts = NumOfHosts(group);

  // 1. Group the Pods by replica name (Pods without one belong to no replica).
  std::map<std::string, std::vector<ObjectPtr>> replicas;
  for (const ObjectPtr& p : workers) {
    const Json* labels = api::ObjectMeta(*p).Labels();
    if (labels == nullptr || api::Member(*labels, kRayWorkerReplicaNameKey) == nullptr) continue;
    replicas[MultiHostLabel(*p, kRayWorkerReplicaNameKey)].push_back(p);
  }

  // 2. A replica with a host missing (deleted from outside) goes entirely, and nothing is
  // created this round.
  for (const auto& [name, pods] : replicas) {
    if (static_cast<int64_t>(pods.size()) >= hosts) continue;
    ctx.Info("Found incomplete multi-host replica group, deleting all remaining pods to maintain "
             "atomicity.",
             {{"group", group_name},
              {"replica", name},
              {"found", std::to_string(pods.size())},
              {"expected", std::to_string(hosts)}});
    ReconcileError err =
        DeleteReplicaPods(ctx, cluster, pods, group_name, "cleanup of incomplete multi-host group");
    if (!err.ok()) return err;
    return MultiHostError("cleaned up incomplete replica group " + name + ", requeueing");
  }

  // 3. A replica with an unhealthy host goes entirely.
  std::set<std::string> deleted;
  for (const ObjectPtr& p : workers) {
    if (deleted.count(api::Name(*p)) != 0) continue;
    std::string reason;
    if (!ShouldDeletePod(*p, kWorkerNode, &reason)) continue;
    const std::string name = MultiHostLabel(*p, kRayWorkerReplicaNameKey);
    auto found = replicas.find(name);
    if (found == replicas.end()) continue;
    ctx.Info("Deleting unhealthy replica group.",
             {{"group", group_name}, {"replica", name}, {"reason", reason}});
    ReconcileError err = DeleteReplicaPods(ctx, cluster, found->second, group_name, reason);
    if (!err.ok()) return err;
    for (const ObjectPtr& q : found->second) deleted.insert(api::Name(*q));
  }

  // 4. workersToDelete naming any host takes its whole replica.
  const Json* to_delete = At(group, "/scaleStrategy/workersToDelete");
  if (to_delete != nullptr && to_delete->is_array() && !to_delete->empty()) {
    std::map<std::string, ObjectPtr> doomed;  // by Pod name
    for (const Json& w : *to_delete) {
      if (!w.is_string()) continue;
      for (const ObjectPtr& p : workers) {
        if (api::Name(*p) != w.get<std::string>()) continue;
        auto found = replicas.find(MultiHostLabel(*p, kRayWorkerReplicaNameKey));
        if (found != replicas.end()) {
          for (const ObjectPtr& q : found->second) doomed[api::Name(*q)] = q;
        }
        break;
      }
    }
    if (!doomed.empty()) {
      ctx.Info("removing the pods in the scaleStrategy of",
               {{"group", group_name}, {"podsToDelete", std::to_string(doomed.size())}});
      std::vector<ObjectPtr> pods;
      for (const auto& [name, p] : doomed) pods.push_back(p);
      ReconcileError err =
          DeleteReplicaPods(ctx, cluster, pods, group_name, "autoscaler scale-down request");
      if (!err.ok()) return err;
      return MultiHostError("deleted " + std::to_string(pods.size()) +
                            " worker Pods based on ScaleStrategy, requeueing");
    }
  }

  // 5. Scale by whole replicas: complete, healthy replicas count; new ones get the lowest free
  // replica index and a fresh name, one Pod per host.
  std::vector<std::string> valid;
  for (const auto& [name, pods] : replicas) {
    bool whole = true;
    for (const ObjectPtr& p : pods) whole = whole && deleted.count(api::Name(*p)) == 0;
    if (whole) valid.push_back(name);
  }
  const int64_t desired = GetWorkerGroupDesiredReplicas(group);
  if (desired % hosts != 0) {
    return MultiHostError("desired worker pods (" + std::to_string(desired) +
                          ") is not a multiple of NumOfHosts (" + std::to_string(hosts) +
                          ") for group " + group_name);
  }
  const int64_t expected = desired / hosts;
  const int64_t to_create = expected - static_cast<int64_t>(valid.size());
  std::set<int> used;
  for (const std::string& name : valid) {
    const std::string text = MultiHostLabel(*replicas[name].front(), kRayWorkerReplicaIndexKey);
    char* end = nullptr;
    const long index = std::strtol(text.c_str(), &end, 10);
    if (!text.empty() && *end == '\0') used.insert(static_cast<int>(index));
  }
  ctx.Info("Reconciling multi-host group", {{"group", group_name},
                                            {"expectedReplicas", std::to_string(expected)},
                                            {"runningReplicas", std::to_string(valid.size())},
                                            {"replicasToCreate", std::to_string(to_create)}});
  if (to_create > 0) {
    ctx.Info("Scaling up multi-host group",
             {{"group", group_name}, {"replicasToCreate", std::to_string(to_create)}});
    const Json worker_template = BuildWorkerPodTemplate(cluster, group, config_);
    int next_index = 0;
    for (int64_t r = 0; r < to_create; ++r) {
      while (used.count(next_index) != 0) ++next_index;
      used.insert(next_index);
      // utils.GenerateRayWorkerReplicaGroupName
      const std::string replica_name = group_name + "-" + RandomSuffix(prng_);
      ctx.Info("Creating new replica group", {{"group", group_name},
                                              {"replicaName", replica_name},
                                              {"replicaIndex", std::to_string(next_index)}});
      for (int64_t host = 0; host < hosts; ++host) {
        if (base::Status s = CreateWorkerPod(ctx, cluster, group, worker_template, next_index,
                                            replica_name, static_cast<int>(host));
            !s.ok()) {
          return ReconcileError{s, kFailedCreateWorkerPod};
        }
      }
    }
  } else if (to_create < 0) {
    const bool autoscaling = IsAutoscalingEnabled(cluster["spec"]);
    const bool random_delete = autoscaling && config_.EnvIs(kEnableRandomPodDelete, "true");
    if (!autoscaling || random_delete) {
      const int64_t remove = -to_create;
      ctx.Info("Scaling down multi-host group by randomly deleting replica groups",
               {{"group", group_name}, {"groupsToRemove", std::to_string(remove)}});
      int64_t removed = 0;
      for (const std::string& name : valid) {
        if (removed >= remove) break;
        ReconcileError err = DeleteReplicaPods(ctx, cluster, replicas[name], group_name, "scaling down");
        if (!err.ok()) return err;
        ++removed;
      }
    } else {
      ctx.Info("Random replica group deletion is disabled for the cluster. The only "
               "decision-maker for Pod deletions is the Ray Autoscaler.");
    }
  }
  return ReconcileError{base::Status::OK(), ""};
}

}  // namespace kuberay
