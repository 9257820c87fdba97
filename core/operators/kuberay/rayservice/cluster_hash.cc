#include "core/operators/kuberay/rayservice/cluster_hash.h"

#include <cstdint>

#include "core/operators/kuberay/common/hash.h"

namespace kuberay::rayservice {

using api::Json;

// mirrors rayservice_controller.go rayClusterSpecForHashing (suspend cleared) feeding
// utils.GenerateHashWithoutReplicasAndWorkersToDelete
std::string GenerateHashWithoutReplicasAndWorkersToDelete(const Json& ray_cluster_spec) {
  Json spec = ray_cluster_spec.is_object() ? ray_cluster_spec : Json::object();
  spec.erase("suspend");
  return kuberay::GenerateHashWithoutReplicasAndWorkersToDelete(spec);
}

int64_t NumWorkerGroups(const api::Json& ray_cluster_spec) {
  if (!ray_cluster_spec.is_object() || !ray_cluster_spec.contains("workerGroupSpecs") ||
      !ray_cluster_spec["workerGroupSpecs"].is_array()) {
    return 0;
  }
  return static_cast<int64_t>(ray_cluster_spec["workerGroupSpecs"].size());
}

}  // namespace kuberay::rayservice
