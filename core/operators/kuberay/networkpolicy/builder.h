#pragma once
// The NetworkPolicies KubeRay wants for a RayCluster with spec.networkPolicy: `<cluster>-head`
// for the head Pod and `<cluster>-workers-<group>` for each worker group. Each allows all traffic
// from and to Pods of the same cluster; the head also admits the RayJob submitter (K8sJobMode)
// on the dashboard port; the user's rules are appended.
// Mirrors: ray-operator/controllers/ray/networkpolicy_controller.go (buildHeadNetworkPolicy,
// buildWorkerGroupNetworkPolicy, buildBaseIngressRules, buildHeadIngressRules, buildRayJobPeer,
// buildBaseEgressRules, getHeadPort, networkPolicyLabels, workerGroupCustomRules,
// normalizeNetworkPolicyPorts) of KubeRay v1.7.0.
// Teaching: mode DenyAll (the default) lists both policy types; DenyAllIngress / DenyAllEgress
// only one, and a type that is not listed is not restricted. DNS egress is deliberately not
// added: the user must allow it, or the workers cannot resolve the head Service.
// Pure functions on the RayCluster's JSON; no state.

#include <cstdint>
#include <string>

#include "core/api/object.h"

namespace kuberay::networkpolicy {

// Modes (spec.networkPolicy.mode).
inline const std::string kDenyAll = "DenyAll";
inline const std::string kDenyAllIngress = "DenyAllIngress";
inline const std::string kDenyAllEgress = "DenyAllEgress";

std::string HeadNetworkPolicyName(const std::string& cluster);
std::string WorkerGroupNetworkPolicyName(const std::string& cluster, const std::string& group);

// Mode is spec.networkPolicy.mode, DenyAll when unset.
std::string Mode(const api::Json& cluster);

api::Json BuildHeadNetworkPolicy(const api::Json& cluster, const std::string& mode);
api::Json BuildWorkerGroupNetworkPolicy(const api::Json& cluster, const std::string& mode,
                                        const std::string& group);

// BuildBaseIngressRules: from Pods labelled ray.io/cluster=<cluster>, all ports.
api::Json BuildBaseIngressRules(const api::Json& cluster);
// BuildHeadIngressRules: the base rule, plus the RayJob submitter on the dashboard port.
api::Json BuildHeadIngressRules(const api::Json& cluster);
// BuildRayJobPeer: the submitter Pods of the RayJob controlling a K8sJobMode cluster, or null.
api::Json BuildRayJobPeer(const api::Json& cluster);
// BuildBaseEgressRules: to Pods labelled ray.io/cluster=<cluster>, all ports.
api::Json BuildBaseEgressRules(const api::Json& cluster);
// GetHeadPort is headGroupSpec.rayStartParams[key] when it is an integer, else fallback.
int64_t GetHeadPort(const api::Json& cluster, const std::string& key, int64_t fallback);
// NormalizeNetworkPolicyPorts defaults each port's protocol to TCP, as the API server does.
void NormalizeNetworkPolicyPorts(api::Json& spec);

}  // namespace kuberay::networkpolicy
