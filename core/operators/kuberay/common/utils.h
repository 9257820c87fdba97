#pragma once
// The helpers of KubeRay's utils package the RayCluster controller and its builders share:
// names, desired worker counts, desired resources, autoscaling switches.
// Mirrors: ray-operator/controllers/ray/utils/util.go (v1.7.0): PodName, CheckName, CheckLabel,
// GenerateHeadServiceName, GenerateFQDNServiceName, GetWorkerGroupDesiredReplicas,
// CalculateDesiredReplicas/MinReplicas/MaxReplicas, CalculatePodResource,
// CalculateDesiredResources, IsAutoscalingEnabled, IsAutoscalingV2Enabled, GetHeadPort.
// Simplified: the RayCluster is JSON; absent optional fields read as Go's nil.
// Pure functions; no state.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/api/object.h"
#include "core/operators/kuberay/common/quantity.h"

namespace kuberay {

// utils:: is upstream's package name (utils.CheckName, utils.RayClusterLabelKey); the RayJob and
// RayService controllers spell these helpers that way, so they read like their Go originals.
namespace utils = ::kuberay;

// Field reads on JSON that may lack the path (nil in Go); they never throw on bad input.
const api::Json* At(const api::Json& obj, const char* pointer);
std::string StringAt(const api::Json& obj, const char* pointer);
std::optional<int64_t> IntAt(const api::Json& obj, const char* pointer);
bool BoolAt(const api::Json& obj, const char* pointer, bool fallback = false);
// StrField is obj[key] when obj is an object and that member a string, else "".
std::string StrField(const api::Json& obj, const char* key);
// MemberOr is obj.value(key, fallback) by reference, without copying the member: fallback when
// obj is not an object or lacks key. MemberOrNull falls back on a null.
const api::Json& MemberOr(const api::Json& obj, const char* key, const api::Json& fallback);
const api::Json& MemberOrNull(const api::Json& obj, const char* key);
// EmptyObject and EmptyArray are shared empty values to fall back on (or walk).
const api::Json& EmptyObject();
const api::Json& EmptyArray();

// MergeLabels returns a's entries overridden by b's.
std::map<std::string, std::string> MergeLabels(std::map<std::string, std::string> a,
                                               const std::map<std::string, std::string>& b);

// PodName is "<prefix truncated to 50>-<nodeType>" lower-cased, plus "-" for a generateName.
std::string PodName(const std::string& prefix, const std::string& node_type, bool generate_name);
// CheckName keeps the last 50 characters and replaces a leading digit or punctuation with 'r'.
std::string CheckName(std::string s);
// CheckLabel keeps the last 63 characters and replaces a leading punctuation with 'r'.
std::string CheckLabel(std::string s);
// HeadServiceName is headGroupSpec.headService.metadata.name, else
// CheckName("<cluster>-head-svc").
std::string HeadServiceName(const api::Json& cluster);
// FQDNServiceName is "<head svc>.<namespace>.svc.cluster.local".
std::string FQDNServiceName(const api::Json& cluster);
// GetHeadPort is rayStartParams["port"], else "6379".
std::string GetHeadPort(const api::Json& cluster);

bool IsAutoscalingEnabled(const api::Json& spec);
// IsAutoscalingV2Enabled / IsAutoscalingV1Enabled: autoscalerOptions.version is "v2" / "v1"
// (the head's RAY_enable_autoscaler_v2 env var does not count; only some validation reads it).
bool IsAutoscalingV2Enabled(const api::Json& spec);
bool IsAutoscalingV1Enabled(const api::Json& spec);
bool IsGCSFaultToleranceEnabled(const api::Json& cluster);

// CRDType is which custom resource created a RayCluster: the Pods KubeRay builds differ for
// RayService clusters (Serve env, the workers' Serve proxy readiness check, ray.io/serve) and
// report it in RAY_USAGE_STATS_EXTRA_TAGS. mirrors utils/util.go CRDType
enum class CRDType { kRayCluster, kRayJob, kRayService };
// GetCRDType reads the cluster's ray.io/originated-from-crd label; anything but "RayJob" or
// "RayService" is RayCluster. mirrors utils.GetCRDType via raycluster_controller.go
// getCreatorCRDType
CRDType GetCreatorCRDType(const api::Json& cluster);
// CRDTypeName is "RayCluster", "RayJob" or "RayService".
const char* CRDTypeName(CRDType type);

// NumOfHosts is the group's numOfHosts (CRD default 1).
int64_t NumOfHosts(const api::Json& group);
// GetWorkerGroupDesiredReplicas: 0 when the group is suspended, else replicas clamped to
// [minReplicas, maxReplicas] (nil replicas → min), times numOfHosts.
int64_t GetWorkerGroupDesiredReplicas(const api::Json& group);
int64_t CalculateDesiredReplicas(const api::Json& cluster);
int64_t CalculateMinReplicas(const api::Json& cluster);
// CalculateMaxReplicas saturates at MaxInt32.
int64_t CalculateMaxReplicas(const api::Json& cluster);

using ResourceList = std::map<std::string, Quantity>;
// CalculatePodResource sums each container's requests, a limit standing in for a missing request.
ResourceList CalculatePodResource(const api::Json& pod_spec);
// CalculateDesiredResources: head template + each non-suspended group × raw replicas × numOfHosts.
ResourceList CalculateDesiredResources(const api::Json& cluster);

inline constexpr int64_t kMaxInt32 = 2147483647;

}  // namespace kuberay
