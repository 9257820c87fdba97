#pragma once
// Controller-side validation of a RayJob: what makes the controller set ValidationFailed.
// Mirrors: ray-operator/controllers/ray/utils/validation.go ValidateRayJobMetadata,
// ValidateRayJobSpec, ValidateRayJobStatus.
// Simplified: the embedded rayClusterSpec is checked only for a head container (the RayCluster
// controller validates the rest when the cluster exists); messages follow upstream's wording
// where we know it.
// Single-threaded; pure functions.

#include <string>

#include "core/api/object.h"
#include "core/base/status.h"

namespace kuberay::rayjob {

// ValidateRayJob runs metadata, spec and status validation; the first failure is kInvalid
// with the message the controller copies to status.message.
// event_reason, when given, receives the failing rule's event reason (InvalidRayJobMetadata,
// InvalidRayJobSpec or InvalidRayJobStatus).
base::Status ValidateRayJob(const api::Json& rayjob, bool ray_job_deletion_policy,
                            std::string* event_reason = nullptr);
// ValidateRayJobSpec is the spec part alone (what RayCronJob checks its jobTemplate with).
base::Status ValidateRayJobSpec(const api::Json& rayjob, bool ray_job_deletion_policy);

}  // namespace kuberay::rayjob
