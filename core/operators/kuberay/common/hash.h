#pragma once
// GenerateHashWithoutReplicasAndWorkersToDelete: the fingerprint of a RayCluster spec that
// ignores what the autoscaler changes (replicas, min/max, workersToDelete) and what never needs
// new Pods (tolerations, schedulingGates, upgradeStrategy). The RayCluster Recreate upgrade
// compares it with the head Pod's `ray.io/upgrade-strategy-recreate-hash`; RayService compares it
// with its clusters' `ray.io/hash-without-replicas-and-workers-to-delete`.
// Mirrors: ray-operator/controllers/ray/utils/util.go GenerateHashWithoutReplicasAndWorkersToDelete.
// Simplified: FNV-1a 64 over the canonical JSON (sorted keys) rendered in base32hex, instead of
// SHA-1 over Go's struct encoding — the same spec gives the same value and any relevant change a
// different one, but the strings differ from a real cluster's.
// Pure function.

#include <string>

#include "core/api/object.h"

namespace kuberay {

std::string GenerateHashWithoutReplicasAndWorkersToDelete(const api::Json& spec);

}  // namespace kuberay
