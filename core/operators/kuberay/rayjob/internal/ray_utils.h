#pragma once
// ray_utils: the constants and small helpers of KubeRay's `utils` package that the RayJob and
// RayService controllers need — ray.io label keys, object names, random name suffixes, the
// dashboard URL, condition helpers and RFC 3339 parsing of our own timestamps.
// Mirrors: ray-operator/controllers/ray/utils/{constant.go,util.go} (CheckName,
// GenerateRayClusterName, GenerateHeadServiceName, FetchHeadServiceURL).
// Simplified: kept here, in the RayJob controller's folder, until the lead merges it with the
// shared core/operators/kuberay/common/ helpers (the RayService controller includes it too).
// Single-threaded; random suffixes come from the caller's sim::Prng.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/api/object.h"
#include "core/base/status.h"
#include "core/base/time.h"
#include "core/sim/prng.h"

namespace kuberay::utils {

// Label keys (utils/constant.go).
inline const std::string kRayClusterLabelKey = "ray.io/cluster";
inline const std::string kRayNodeTypeLabelKey = "ray.io/node-type";
inline const std::string kRayIdentifierLabelKey = "ray.io/identifier";
inline const std::string kRayOriginatedFromCRNameLabelKey = "ray.io/originated-from-cr-name";
inline const std::string kRayOriginatedFromCRDLabelKey = "ray.io/originated-from-crd";
inline const std::string kRayJobSubmissionModeLabelKey = "ray.io/job-submission-mode";
inline const std::string kRayClusterServingServiceLabelKey = "ray.io/serve";
inline const std::string kKubernetesCreatedByLabelKey = "app.kubernetes.io/created-by";
inline const std::string kComponentName = "kuberay-operator";
inline const std::string kDisableProvisionedHeadRestartAnnotationKey =
    "ray.io/disable-provisioned-head-restart";
inline const std::string kHashWithoutReplicasAndWorkersToDeleteKey =
    "ray.io/hash-without-replicas-and-workers-to-delete";
inline const std::string kNumWorkerGroupsKey = "ray.io/num-worker-groups";
inline const std::string kKubeRayVersionKey = "ray.io/kuberay-version";
inline const std::string kKubeRayVersion = "v1.7.0";
// Container and port names.
inline const std::string kSubmitterContainerName = "ray-job-submitter";
inline const std::string kDashboardPortName = "dashboard";
constexpr int kDefaultDashboardPort = 8265;
inline const std::string kServingPortName = "serve";
constexpr int kDefaultServingPort = 8000;
// kDefaultDomainName is CLUSTER_DOMAIN's default.
inline const std::string kDefaultDomainName = "cluster.local";

// RandomSuffix is k8s.io/apimachinery/pkg/util/rand.String(n): n characters from
// "bcdfghjklmnpqrstvwxz2456789".
std::string RandomSuffix(sim::Prng& prng, int n = 5);
// GenerateRayClusterName is "<name>-<5 random>" (v1.4+), the name first clipped by CheckName.
// mirrors utils/util.go GenerateRayClusterName
std::string GenerateRayClusterName(const std::string& name, sim::Prng& prng);
// GenerateRayJobId is "<rayjob>-<5 random>". mirrors utils/util.go GenerateRayJobId
std::string GenerateRayJobId(const std::string& rayjob, sim::Prng& prng);
// CheckName clips a name over 50 characters to its last 50, then makes the first character a
// letter ('r' replaces a non-letter). mirrors utils/util.go CheckName
std::string CheckName(const std::string& name);
// GenerateHeadServiceName is "<name>-head-svc". mirrors utils/util.go GenerateHeadServiceName
std::string GenerateHeadServiceName(const std::string& name);
// GenerateServeServiceName is "<name>-serve-svc".
std::string GenerateServeServiceName(const std::string& name);
// HeadServiceName is the RayCluster's head Service: headGroupSpec.headService.metadata.name or
// "<cluster>-head-svc".
std::string HeadServiceName(const api::Json& ray_cluster);
// DashboardPort is the head container's port named "dashboard" (default 8265).
int64_t DashboardPort(const api::Json& ray_cluster);
// FetchHeadServiceURL is "<head-svc>.<ns>.svc.cluster.local:<dashboard port>".
// mirrors utils/util.go FetchHeadServiceURL
std::string FetchHeadServiceURL(const api::Json& ray_cluster);

// Json helpers that never throw on bad input.
const api::Json* At(const api::Json& obj, const char* pointer);
std::string StringAt(const api::Json& obj, const char* pointer);
std::optional<int64_t> IntAt(const api::Json& obj, const char* pointer);
bool BoolAt(const api::Json& obj, const char* pointer);
// StrField is obj[key] when obj is an object and that member a string, else "".
std::string StrField(const api::Json& obj, const char* key);

// FindCondition returns status.conditions[type] or null (a pointer into obj: keep obj alive).
const api::Json* FindCondition(const api::Json& obj, const std::string& type);
bool IsConditionTrue(const api::Json& obj, const std::string& type);
// SetCondition mirrors meta.SetStatusCondition: replaces the condition of the same type, keeping
// lastTransitionTime unless status changed. Returns whether anything changed.
bool SetCondition(api::Json& conditions, const std::string& type, const std::string& status,
                  const std::string& reason, const std::string& message, base::SimTime now);

// ParseRfc3339 reads our timestamps ("2026-01-01T00:00:05Z") back into virtual time; nullopt
// for anything else.
std::optional<base::SimTime> ParseRfc3339(const std::string& text);

// MergeLabels returns a's entries overridden by b's.
std::map<std::string, std::string> MergeLabels(std::map<std::string, std::string> a,
                                               const std::map<std::string, std::string>& b);

}  // namespace kuberay::utils
