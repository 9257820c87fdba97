#pragma once
// Deployment helpers: the pod-template-hash that names a Deployment's ReplicaSets, and the
// maxSurge / maxUnavailable arithmetic of a rolling update.
// Mirrors: kubernetes pkg/controller/controller_utils.go (ComputeHash), apimachinery
// pkg/util/rand/rand.go (SafeEncodeString), pkg/util/intstr (GetScaledValueFromIntOrPercent),
// pkg/controller/deployment/util/deployment_util.go (ResolveFenceposts, EqualIgnoreHash,
// NewRSNewReplicas).
// Simplified: the hash is FNV-32a over the template's JSON (keys sorted) instead of over a
// spew dump of the Go struct, so the 10-character values differ from a real cluster's but are
// just as stable.
// Single-threaded; integer arithmetic only.

#include <cstdint>
#include <optional>
#include <string>

#include "core/api/object.h"
#include "core/base/status.h"

namespace world {

// kPodTemplateHashLabel is apps/v1 DefaultDeploymentUniqueLabelKey.
inline const std::string kPodTemplateHashLabel = "pod-template-hash";
// kRevisionAnnotation numbers a Deployment's rollouts.
inline const std::string kRevisionAnnotation = "deployment.kubernetes.io/revision";
inline const std::string kDesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas";
inline const std::string kMaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas";

// Fnv32a is the 32-bit FNV-1a hash of s.
uint32_t Fnv32a(const std::string& s);
// SafeEncodeString maps each byte to the alphabet "bcdfghjklmnpqrstvwxz2456789" (no vowels, so
// no words), as rand.SafeEncodeString does.
std::string SafeEncodeString(const std::string& s);
// ComputeHash is SafeEncodeString(decimal FNV-32a of the template JSON [+ collisionCount]).
std::string ComputeHash(const api::Json& pod_template, std::optional<int64_t> collision_count);

// ScaledValue resolves an int-or-percent ("25%" or 2) against total, rounding a percentage up
// or down. kInvalid for any other value.
base::StatusOr<int64_t> ScaledValue(const api::Json& int_or_percent, int64_t total, bool round_up);

// Fenceposts are a rolling update's bounds.
struct Fenceposts {
  int64_t max_surge = 0;
  int64_t max_unavailable = 0;
};
// ResolveFenceposts rounds maxSurge up and maxUnavailable down; if both end up 0,
// maxUnavailable becomes 1 so the rollout can progress. Bad values count as 0.
Fenceposts ResolveFenceposts(const api::Json& max_surge, const api::Json& max_unavailable,
                             int64_t desired);

// EqualIgnoreHash compares two PodTemplateSpecs ignoring the pod-template-hash label.
bool EqualIgnoreHash(const api::Json& a, const api::Json& b);

}  // namespace world
