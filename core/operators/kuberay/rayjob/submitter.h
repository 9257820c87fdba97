#pragma once
// The RayJob submitter: the `ray job submit` command line and the batch/v1 Job (K8sJobMode) or
// head-Pod sidecar container (SidecarMode) that runs it.
// Mirrors: ray-operator/controllers/ray/common/job.go (GetRuntimeEnvJson, GetMetadataJson,
// GetK8sJobCommand, GetDefaultSubmitterTemplate) and rayjob_controller.go
// (getSubmitterTemplate, configureSubmitterContainer, createNewK8sJob).
// Simplified: runtimeEnvYAML must be a YAML mapping (as Ray requires); the gate
// SidecarSubmitterRestart (alpha, off) is not modelled.
// Single-threaded; pure functions.

#include <string>

#include "core/api/object.h"
#include "core/base/status.h"

namespace kuberay::rayjob {

// GetRuntimeEnvJson is spec.runtimeEnvYAML as compact JSON with sorted keys ("" when unset);
// a YAML error is kInvalid.
base::StatusOr<std::string> GetRuntimeEnvJson(const api::Json& rayjob);
// GetMetadataJson is spec.metadata as compact JSON ("" when unset).
std::string GetMetadataJson(const api::Json& rayjob);

// GetK8sJobCommand is the submitter's shell command, joined with spaces: wait for the
// dashboard's GCS health, submit (K8sJobMode: only when `ray job status` does not know the job,
// with --no-wait, then follow the logs; SidecarMode: submit and wait). The address is
// "http://" + status.dashboardURL, or http://127.0.0.1:<dashboard port> in SidecarMode.
base::StatusOr<std::string> GetK8sJobCommand(const api::Json& rayjob,
                                             const api::Json& ray_cluster_spec);

// GetSubmitterTemplate is the Pod template of the submitter: spec.submitterPodTemplate or the
// default (one container ray-job-submitter with the head image, 500m/200Mi requests, 1/1Gi
// limits, restartPolicy Never); the container gets the command (when it has none) and the env
// PYTHONUNBUFFERED, RAY_DASHBOARD_ADDRESS, RAY_JOB_SUBMISSION_ID.
base::StatusOr<api::Json> GetSubmitterTemplate(const api::Json& rayjob,
                                               const api::Json& ray_cluster_spec);

// BuildSubmitterJob is the K8sJobMode batch/v1 Job named after the RayJob, labelled
// originated-from and created-by kuberay-operator, backoffLimit submitterConfig.backoffLimit
// or 2, controlled by the RayJob.
base::StatusOr<api::Json> BuildSubmitterJob(const api::Json& rayjob,
                                            const api::Json& ray_cluster_spec);

// BuildSidecarSubmitterContainer is the SidecarMode container appended to the head Pod.
base::StatusOr<api::Json> BuildSidecarSubmitterContainer(const api::Json& rayjob,
                                                         const api::Json& ray_cluster_spec);

// DecodeYamlMapping turns YAML text whose top level is a mapping into JSON.
base::StatusOr<api::Json> DecodeYamlMapping(const std::string& text, const std::string& what);

}  // namespace kuberay::rayjob
