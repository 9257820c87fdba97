#pragma once
// The RayService's cluster hash: what decides whether a spec change needs a new RayCluster.
// Mirrors: ray-operator/controllers/ray/utils/util.go GenerateHashWithoutReplicasAndWorkersToDelete
// and rayservice_controller.go shouldPrepareNewCluster / isZeroDowntimeUpgradeEnabled.
// Teaching: the hash is upstream's algorithm (SHA-1, base32hex; common/hash.h) over the sandbox's
// JSON of the spec, so its value can differ from a real cluster's for the same spec (Go encodes
// the typed struct differently, byte for byte); only equality of two hashes matters.
// Single-threaded; pure functions.

#include <string>

#include "core/api/object.h"

namespace kuberay::rayservice {

// GenerateHashWithoutReplicasAndWorkersToDelete hashes a RayClusterSpec with every group's
// replicas, minReplicas, maxReplicas, scaleStrategy.workersToDelete, Pod-template tolerations and
// schedulingGates, the cluster's upgradeStrategy and suspend blanked, so scaling alone never
// asks for a new cluster.
std::string GenerateHashWithoutReplicasAndWorkersToDelete(const api::Json& ray_cluster_spec);

// NumWorkerGroups is len(workerGroupSpecs).
int64_t NumWorkerGroups(const api::Json& ray_cluster_spec);

}  // namespace kuberay::rayservice
