#pragma once
// Names, labels, annotations and numbers the KubeRay operator stamps on what it creates.
// Mirrors: ray-operator/controllers/ray/utils/constant.go (v1.7.0).
// Simplified: only the constants the sandbox's controllers use.
// Header-only constants; no state.

#include <cstdint>
#include <string>

#include "core/base/time.h"

namespace kuberay {

// The version the running operator stamps on head Pods (`ray.io/kuberay-version`).
inline const std::string kKubeRayVersion = "v1.7.0";
// The value of spec.managedBy that this operator reconciles (empty also means this operator).
inline const std::string kKubeRayController = "ray.io/kuberay-operator";

// Labels (utils/constant.go).
inline const std::string kRayClusterLabelKey = "ray.io/cluster";
inline const std::string kRayNodeTypeLabelKey = "ray.io/node-type";
inline const std::string kRayNodeGroupLabelKey = "ray.io/group";
inline const std::string kRayIsRayNodeLabelKey = "ray.io/is-ray-node";
inline const std::string kRayIDLabelKey = "ray.io/identifier";
inline const std::string kRayClusterHeadlessServiceLabelKey = "ray.io/headless-worker-svc";
inline const std::string kRayWorkerReplicaIndexKey = "ray.io/worker-group-replica-index";
inline const std::string kRayWorkerReplicaNameKey = "ray.io/worker-group-replica-name";
inline const std::string kRayHostIndexKey = "ray.io/replica-host-index";
inline const std::string kRayOriginatedFromCRNameLabelKey = "ray.io/originated-from-cr-name";
inline const std::string kRayOriginatedFromCRDLabelKey = "ray.io/originated-from-crd";
inline const std::string kRayServeLabelKey = "ray.io/serve";
inline const std::string kK8sAppNameLabelKey = "app.kubernetes.io/name";
inline const std::string kK8sAppCreatedByLabelKey = "app.kubernetes.io/created-by";
inline const std::string kApplicationName = "kuberay";
inline const std::string kComponentName = "kuberay-operator";
inline const std::string kHeadNodeGroupLabelValue = "headgroup";
inline const std::string kRayJobSubmissionModeLabelKey = "ray.io/job-submission-mode";
inline const std::string kRayCronJobNameLabelKey = "ray.io/cronjob-name";

// Node types (ray.io/node-type values).
inline const std::string kHeadNode = "head";
inline const std::string kWorkerNode = "worker";
inline const std::string kRedisCleanupNode = "redis-cleanup";

// Annotations.
inline const std::string kRayFTEnabledAnnotationKey = "ray.io/ft-enabled";
inline const std::string kUpgradeStrategyRecreateHashKey = "ray.io/upgrade-strategy-recreate-hash";
inline const std::string kKubeRayVersionAnnotationKey = "ray.io/kuberay-version";
inline const std::string kRayOverwriteContainerCmdAnnotationKey = "ray.io/overwrite-container-cmd";
inline const std::string kEnableServeServiceKey = "ray.io/enable-serve-service";
inline const std::string kDisableProvisionedHeadRestartAnnotationKey =
    "ray.io/disable-provisioned-head-restart";
inline const std::string kHashWithoutReplicasAndWorkersToDeleteKey =
    "ray.io/hash-without-replicas-and-workers-to-delete";
inline const std::string kNumWorkerGroupsKey = "ray.io/num-worker-groups";
inline const std::string kRayCronJobTimestampAnnotationKey = "ray.io/cronjob-scheduled-timestamp";

// Ports (utils/constant.go DefaultXxxPort and their names).
inline constexpr int kDefaultGcsServerPort = 6379;
inline constexpr int kDefaultDashboardPort = 8265;
inline constexpr int kDefaultClientPort = 10001;
inline constexpr int kDefaultServingPort = 8000;
inline constexpr int kDefaultMetricsPort = 8080;
inline constexpr int kDefaultDashboardAgentListenPort = 52365;
inline const std::string kGcsServerPortName = "gcs-server";
inline const std::string kDashboardPortName = "dashboard";
inline const std::string kClientPortName = "client";
inline const std::string kServingPortName = "serve";
inline const std::string kMetricsPortName = "metrics";

// Containers and volumes.
inline const std::string kAutoscalerContainerName = "autoscaler";
inline const std::string kSubmitterContainerName = "ray-job-submitter";
inline const std::string kRayLogVolumeName = "ray-logs";
inline const std::string kRayLogVolumeMountPath = "/tmp/ray";
inline const std::string kSharedMemoryVolumeName = "shared-mem";
inline const std::string kSharedMemoryVolumeMountPath = "/dev/shm";
inline const std::string kInitContainerName = "wait-gcs-ready";
inline const std::string kDefaultDomainName = "cluster.local";

// Requeue (raycluster_controller.go DefaultRequeueDuration; utils RAYCLUSTER_DEFAULT_REQUEUE_SECONDS).
inline constexpr base::Duration kDefaultRequeueDuration = 2 * base::kSecond;
inline constexpr int64_t kRayClusterDefaultRequeueSeconds = 300;
inline const std::string kRayClusterDefaultRequeueSecondsEnv = "RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV";

// Operator environment switches (utils/constant.go).
inline const std::string kEnableRandomPodDelete = "ENABLE_RANDOM_POD_DELETE";
inline const std::string kEnableInitContainerInjection = "ENABLE_INIT_CONTAINER_INJECTION";
inline const std::string kEnableProbesInjection = "ENABLE_PROBES_INJECTION";
inline const std::string kEnableLoginShell = "ENABLE_LOGIN_SHELL";
inline const std::string kEnableRayHeadClusterIPService = "ENABLE_RAY_HEAD_CLUSTER_IP_SERVICE";
inline const std::string kEnableDeterministicHeadPodName = "ENABLE_DETERMINISTIC_HEAD_POD_NAME";
inline const std::string kEnableWebhooks = "ENABLE_WEBHOOKS";
inline const std::string kEnableZeroDowntime = "ENABLE_ZERO_DOWNTIME";
inline const std::string kEnableGcsFtRedisCleanup = "ENABLE_GCS_FT_REDIS_CLEANUP";
inline const std::string kDeleteRayJobCRAfterJobFinishes = "DELETE_RAYJOB_CR_AFTER_JOB_FINISHES";

// Status states (raycluster_types.go ClusterState).
inline const std::string kReady = "ready";
inline const std::string kSuspended = "suspended";

// Condition types and reasons (raycluster_types.go).
inline const std::string kHeadPodReady = "HeadPodReady";
inline const std::string kRayClusterProvisioned = "RayClusterProvisioned";
inline const std::string kRayClusterReplicaFailure = "ReplicaFailure";
inline const std::string kRayClusterSuspending = "RayClusterSuspending";
inline const std::string kRayClusterSuspended = "RayClusterSuspended";
inline const std::string kAllPodRunningAndReadyFirstTime = "AllPodRunningAndReadyFirstTime";
inline const std::string kRayClusterPodsProvisioning = "RayClusterPodsProvisioning";
inline const std::string kHeadPodNotFound = "HeadPodNotFound";
inline const std::string kHeadPodRunningAndReady = "HeadPodRunningAndReady";
inline const std::string kUnknownReason = "Unknown";

// Error markers a reconcile error wraps, shown as the ReplicaFailure reason (utils/constant.go).
inline const std::string kFailedCreateHeadPod = "FailedCreateHeadPod";
inline const std::string kFailedDeleteHeadPod = "FailedDeleteHeadPod";
inline const std::string kFailedCreateWorkerPod = "FailedCreateWorkerPod";
inline const std::string kFailedDeleteWorkerPod = "FailedDeleteWorkerPod";
inline const std::string kFailedDeleteAllPods = "FailedDeleteAllPods";

// Event reasons (utils/constant.go K8sEventType).
inline const std::string kInvalidRayClusterMetadata = "InvalidRayClusterMetadata";
inline const std::string kInvalidRayClusterSpec = "InvalidRayClusterSpec";
inline const std::string kInvalidRayClusterStatus = "InvalidRayClusterStatus";
inline const std::string kCreatedService = "CreatedService";
inline const std::string kCreatedHeadPod = "CreatedHeadPod";
inline const std::string kCreatedWorkerPod = "CreatedWorkerPod";
inline const std::string kDeletedHeadPod = "DeletedHeadPod";
inline const std::string kDeletedWorkerPod = "DeletedWorkerPod";
inline const std::string kFailedToCreateHeadPod = "FailedToCreateHeadPod";
inline const std::string kFailedToCreateWorkerPod = "FailedToCreateWorkerPod";
inline const std::string kFailedToDeleteWorkerPod = "FailedToDeleteWorkerPod";
inline const std::string kFailedToDeleteHeadPod = "FailedToDeleteHeadPod";
inline const std::string kFailedToCreateService = "FailedToCreateService";
inline const std::string kAutoscalerServiceAccountNotFound = "AutoscalerServiceAccountNotFound";
inline const std::string kCreatedServiceAccount = "CreatedServiceAccount";
inline const std::string kCreatedRole = "CreatedRole";
inline const std::string kCreatedRoleBinding = "CreatedRoleBinding";

// The expectations timeout (expectations/scale_expectations.go ExpectationsTimeout).
inline constexpr base::Duration kExpectationsTimeout = 30 * base::kSecond;

}  // namespace kuberay
