#pragma once
// The RayCluster controller's own checks, run at the top of every reconcile. A failure is a
// Warning event and the end of that reconcile: nothing is created and status is not written.
// Mirrors: ray-operator/controllers/ray/utils/validation.go (ValidateRayClusterMetadata,
// ValidateRayClusterSpec, ValidateRayClusterUpgradeOptions, ValidateRayClusterStatus).
// Simplified: the GCS fault-tolerance, token-auth, TLS, history-server, idle-timeout and
// priority checks are left out; label syntax is checked for keys and values by length and
// characters only.
// Pure functions; no state.

#include "core/api/object.h"
#include "core/base/status.h"
#include "core/operators/kuberay/common/features.h"

namespace kuberay {

inline constexpr size_t kMaxRayClusterNameLength = 53;

// ValidateRayClusterMetadata: name ≤ 53 characters and a DNS-1035 label.
base::Status ValidateRayClusterMetadata(const api::Json& cluster);
// ValidateRayClusterSpec: containers present, replica bounds, resources and labels, suspend and
// autoscaler rules, gated fields.
base::Status ValidateRayClusterSpec(const api::Json& cluster, const FeatureGates& features);
// ValidateRayClusterUpgradeOptions: upgradeStrategy.type ∈ {Recreate, None}, and none at all on
// clusters created by a RayJob or RayService.
base::Status ValidateRayClusterUpgradeOptions(const api::Json& cluster);
// ValidateRayClusterStatus: RayClusterSuspending and RayClusterSuspended are never both True.
base::Status ValidateRayClusterStatus(const api::Json& cluster);

}  // namespace kuberay
