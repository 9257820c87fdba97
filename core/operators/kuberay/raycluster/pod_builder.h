#pragma once
// The head and worker Pods a RayCluster asks for: the user's template plus what KubeRay adds —
// labels, annotations, the generated `ray start` command and its environment, the metrics port,
// /dev/shm, the autoscaler sidecar, the wait-gcs-ready init container and probes.
// Mirrors: ray-operator/controllers/ray/common/pod.go (DefaultHeadPodTemplate,
// DefaultWorkerPodTemplate, BuildPod, labelPod, setContainerEnvVars, setMissingRayStartParams,
// generateRayStartCommand, convertParamMap, BuildAutoscalerContainer, addEmptyDir,
// initLivenessAndReadinessProbe) and raycluster_controller.go buildHeadPod / buildWorkerPod.
// Simplified: no GCS fault tolerance, TLS, token auth, history-server collector, batch
// schedulers or accelerator resources (num-gpus, TPU) in the generated command; the template's
// own `resources:`/`labels:` group fields are honoured for num-cpus/memory and --labels only.
// Pure functions; no state.

#include <map>
#include <string>

#include "core/api/object.h"
#include "core/operators/kuberay/common/config.h"

namespace kuberay {

// ConvertParamMap renders rayStartParams sorted by key: " --key=value " each, a bare " --key "
// for "true", nothing for "false" (except log-color, include-dashboard, include-log-monitor).
std::string ConvertParamMap(const std::map<std::string, std::string>& params);

// RayStartParams returns the group's rayStartParams completed as setMissingRayStartParams and
// generateRayStartCommand complete them (node_type "head" or "worker").
std::map<std::string, std::string> RayStartParams(const api::Json& cluster, const api::Json& group,
                                                  const std::string& node_type);

// GenerateRayStartCommand is "ray start --head <params>" / "ray start <params>".
std::string GenerateRayStartCommand(const std::string& node_type,
                                    const std::map<std::string, std::string>& params);

// BuildHeadPod is the head Pod to create (generateName "<cluster>-head-", or the fixed name
// "<cluster>-head" with ENABLE_DETERMINISTIC_HEAD_POD_NAME=true), owned by cluster, with the
// upgrade hash and KubeRay version annotations.
api::Json BuildHeadPod(const api::Json& cluster, const OperatorConfig& config,
                       const std::string& cluster_hash);

// BuildWorkerPodTemplate is every worker Pod of group before its replica labels: what
// BuildWorkerPod returns when RayMultiHostIndexing is off. A reconcile that creates several
// workers of one group builds it once and stamps each copy (the copy costs a fraction of the
// build, and BuildWorkerPod is exactly StampWorkerReplica of it).
api::Json BuildWorkerPodTemplate(const api::Json& cluster, const api::Json& group,
                                 const OperatorConfig& config);

// StampWorkerReplica adds the replica index and, for multi-host groups, the replica name and
// host index labels to a copy of the template (gate RayMultiHostIndexing).
api::Json StampWorkerReplica(api::Json pod, const api::Json& group, const OperatorConfig& config,
                             int replica_index, const std::string& replica_name, int host_index);

// BuildWorkerPod is one worker Pod of group (generateName "<cluster>-<group>-worker-"), with
// replica_index as `ray.io/worker-group-replica-index` (gate RayMultiHostIndexing) and, for
// multi-host groups, the replica name and host index.
api::Json BuildWorkerPod(const api::Json& cluster, const api::Json& group,
                         const OperatorConfig& config, int replica_index,
                         const std::string& replica_name, int host_index);

}  // namespace kuberay
