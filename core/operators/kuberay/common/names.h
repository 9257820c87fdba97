#pragma once
// The names KubeRay gives what it creates for a RayJob or RayService — the RayCluster
// "<name>-<5 random>", the Ray job id, head and serve Services — and where the dashboard is.
// Mirrors: ray-operator/controllers/ray/utils/util.go (GenerateRayClusterName, GenerateRayJobId,
// GenerateHeadServiceName, GenerateServeServiceName, FetchHeadServiceURL) and
// k8s.io/apimachinery/pkg/util/rand.String.
// Simplified: the random suffix comes from the caller's sim::Prng.
// Pure functions apart from the PRNG; no state.

#include <cstdint>
#include <string>

#include "core/api/object.h"
#include "core/sim/prng.h"

namespace kuberay {

// RandomSuffix is rand.String(n): n characters from "bcdfghjklmnpqrstvwxz2456789".
std::string RandomSuffix(sim::Prng& prng, int n = 5);
// GenerateRayClusterName is "<CheckName(name)>-<5 random>" (v1.4+).
std::string GenerateRayClusterName(const std::string& name, sim::Prng& prng);
// GenerateRayJobId is "<rayjob>-<5 random>".
std::string GenerateRayJobId(const std::string& rayjob, sim::Prng& prng);
// GenerateHeadServiceName is CheckName("<name>-head-svc").
std::string GenerateHeadServiceName(const std::string& name);
// GenerateServeServiceName is CheckName("<name>-serve-svc").
std::string GenerateServeServiceName(const std::string& name);
// DashboardPort is the head container's port named "dashboard" (default 8265).
int64_t DashboardPort(const api::Json& ray_cluster);
// FetchHeadServiceURL is "<head svc>.<ns>.svc.cluster.local:<dashboard port>".
std::string FetchHeadServiceURL(const api::Json& ray_cluster);

}  // namespace kuberay
