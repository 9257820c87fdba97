#pragma once
// FeatureGates: KubeRay's feature gates with their v1.7.0 defaults, overridable by
// `--feature-gates Name=true,…` (the lab's `operator set feature-gates=…`).
// Mirrors: ray-operator/pkg/features/features.go (defaultFeatureGates, Enabled).
// Simplified: a map instead of component-base's MutableFeatureGate; an unknown name is an error
// as there ("unrecognized feature gate").
// Single-threaded; copied into each operator process at start.

#include <map>
#include <string>
#include <vector>

#include "core/base/status.h"

namespace kuberay {

// Gate names (features.go).
inline const std::string kRayClusterStatusConditions = "RayClusterStatusConditions";
inline const std::string kRayJobDeletionPolicy = "RayJobDeletionPolicy";
inline const std::string kRayMultiHostIndexing = "RayMultiHostIndexing";
inline const std::string kRayServiceIncrementalUpgrade = "RayServiceIncrementalUpgrade";
inline const std::string kRayCronJob = "RayCronJob";
inline const std::string kSidecarSubmitterRestart = "SidecarSubmitterRestart";
inline const std::string kRayClusterNetworkPolicy = "RayClusterNetworkPolicy";
inline const std::string kGCSFaultToleranceEmbeddedStorage = "GCSFaultToleranceEmbeddedStorage";
inline const std::string kRayClusterMTLS = "RayClusterMTLS";
inline const std::string kRayClusterHistoryServer = "RayClusterHistoryServer";
inline const std::string kKubernetesWAS = "KubernetesWAS";

class FeatureGates {
 public:
  // The v1.7.0 defaults.
  FeatureGates();
  // Set overrides one gate; an unknown name is kInvalid and changes nothing.
  base::Status Set(const std::string& name, bool enabled);
  // SetAll applies every override; stops at the first unknown name.
  base::Status SetAll(const std::map<std::string, bool>& overrides);
  // Enabled reports a gate; unknown names are off.
  bool Enabled(const std::string& name) const;
  // Names lists every gate, sorted.
  std::vector<std::string> Names() const;

 private:
  std::map<std::string, bool> gates_;
};

}  // namespace kuberay
