#pragma once
// GenerateHashWithoutReplicasAndWorkersToDelete: the fingerprint of a RayCluster spec that
// ignores what the autoscaler changes (replicas, min/max, workersToDelete) and what never needs
// new Pods (tolerations, schedulingGates, upgradeStrategy). The RayCluster Recreate upgrade
// compares it with the head Pod's `ray.io/upgrade-strategy-recreate-hash`; RayService compares it
// with its clusters' `ray.io/hash-without-replicas-and-workers-to-delete`.
// Mirrors: ray-operator/controllers/ray/utils/util.go GenerateHashWithoutReplicasAndWorkersToDelete
// and GenerateJsonHash: SHA-1 of the JSON encoding, base32 with the extended-hex alphabet
// (32 characters, 0-9A-V).
// Teaching: the value can differ from a real cluster's for the same spec, because the JSON hashed
// differs byte for byte: Go encodes the typed RayClusterSpec (fields in struct order, omitempty,
// Quantities and defaults as the API server stored them), the sandbox encodes its JSON document
// (keys sorted, Go's escaping, api/go_json.h). Equal specs still hash alike and any change that
// matters still changes the hash, which is all KubeRay compares.
// Pure function.

#include <string>

#include "core/api/object.h"

namespace kuberay {

// GenerateJsonHash is base32hex(SHA-1(encoding of obj)).
std::string GenerateJsonHash(const api::Json& obj);

std::string GenerateHashWithoutReplicasAndWorkersToDelete(const api::Json& spec);

}  // namespace kuberay
