#pragma once
// The RayCluster status a reconcile computes from the cluster, its Pods and its head Service,
// and the comparison that decides whether it is written.
// Mirrors: ray-operator/controllers/ray/raycluster_controller.go calculateStatus, updateEndpoints,
// updateHeadInfo, getHeadServiceIPAndName; utils/util.go FindHeadPodReadyCondition,
// CheckAllPodsRunning, CalculateReadyReplicas, CalculateAvailableReplicas,
// FindRayClusterSuspendStatus; utils/consistency.go InconsistentRayClusterStatus;
// apimachinery meta.SetStatusCondition / RemoveStatusCondition.
// Simplified: `failed` (deprecated, never set upstream) does not exist.
// Pure functions; no state.

#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/status.h"
#include "core/base/time.h"
#include "core/operators/kuberay/common/conditions.h"
#include "core/operators/kuberay/common/features.h"
#include "core/operators/kuberay/common/utils.h"

namespace kuberay {

// ReconcileError is the error the sequential reconcile functions returned, with the
// ReplicaFailure marker it wraps (utils.ErrFailedCreateHeadPod …), "" when none.
struct ReconcileError {
  base::Status status;
  std::string replica_failure_reason;
  bool ok() const { return status.ok(); }
  // Message is the Go error text: errors.Join puts the marker on its own line first.
  std::string Message() const {
    return replica_failure_reason.empty() ? status.message()
                                          : replica_failure_reason + "\n" + status.message();
  }
};

// StatusInputs are the cache reads calculateStatus makes.
struct StatusInputs {
  std::vector<api::ObjectPtr> pods;           // every Pod with ray.io/cluster=<name>
  std::vector<api::ObjectPtr> head_services;  // Services with the cluster's head labels
  // desired_resources is CalculateDesiredResources(cluster) when the caller remembers it (it
  // depends on the spec alone); null: CalculateStatus sums it.
  const ResourceList* desired_resources = nullptr;
};

// SetStatusCondition is meta.SetStatusCondition: lastTransitionTime moves only when the status
// changes; reason, message and observedGeneration are always replaced.
void SetStatusCondition(api::Json& conditions, const api::Json& condition, base::SimTime now);
// FindRayClusterSuspendStatus: "RayClusterSuspending", "RayClusterSuspended" or "".
std::string FindRayClusterSuspendStatus(const api::Json& cluster);
// CheckAllPodsRunning: at least one Pod, all Running, and Ready wherever a Ready condition exists.
bool CheckAllPodsRunning(const std::vector<api::ObjectPtr>& pods);
// FindHeadPodReadyCondition mirrors the head Pod's Ready condition as HeadPodReady.
api::Json FindHeadPodReadyCondition(const api::Json& head_pod);

// CalculateStatus returns cluster with its new status, or the error calculateStatus returns
// (no head Service, two head Services, empty ClusterIP).
base::StatusOr<api::Json> CalculateStatus(const api::Json& cluster, const ReconcileError& err,
                                          const StatusInputs& in, const FeatureGates& features,
                                          base::SimTime now);

// InconsistentRayClusterStatus compares what decides a status write: state, reason, the five
// worker counters, endpoints, head and conditions (not desired resources, times or generation).
bool InconsistentRayClusterStatus(const api::Json& old_status, const api::Json& new_status);

}  // namespace kuberay
