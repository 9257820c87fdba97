#include "core/operators/kuberay/common/features.h"

namespace kuberay {

// mirrors ray-operator/pkg/features/features.go defaultFeatureGates (v1.7.0)
FeatureGates::FeatureGates()
    : gates_({{kRayClusterStatusConditions, true},
              {kRayJobDeletionPolicy, true},
              {kRayMultiHostIndexing, true},
              {kRayServiceIncrementalUpgrade, true},
              {kRayCronJob, false},
              {kSidecarSubmitterRestart, false},
              {kRayClusterNetworkPolicy, false},
              {kGCSFaultToleranceEmbeddedStorage, false},
              {kRayClusterMTLS, false},
              {kRayClusterHistoryServer, false},
              {kKubernetesWAS, false}}) {}

base::Status FeatureGates::Set(const std::string& name, bool enabled) {
  auto it = gates_.find(name);
  if (it == gates_.end()) {
    return base::Status(base::StatusCode::kInvalid, "unrecognized feature gate: " + name);
  }
  it->second = enabled;
  return base::Status::OK();
}

base::Status FeatureGates::SetAll(const std::map<std::string, bool>& overrides) {
  for (const auto& [name, on] : overrides) {
    base::Status s = Set(name, on);
    if (!s.ok()) return s;
  }
  return base::Status::OK();
}

bool FeatureGates::Enabled(const std::string& name) const {
  auto it = gates_.find(name);
  return it != gates_.end() && it->second;
}

std::vector<std::string> FeatureGates::Names() const {
  std::vector<std::string> out;
  for (const auto& [name, on] : gates_) out.push_back(name);
  return out;
}

}  // namespace kuberay
