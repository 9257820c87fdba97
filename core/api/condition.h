#pragma once
// Conditions: setting one entry of a status.conditions list the way Kubernetes' helpers do, for
// the API server (the pods/binding subresource sets PodScheduled) and the built-in components
// above it.
// Mirrors: kubernetes pkg/api/v1/pod/util.go UpdatePodCondition, pkg/controller/deployment/util
// (deployment_util.go SetDeploymentCondition: lastUpdateTime).
// Simplified: times are RFC 3339 strings of the virtual clock.
// Single-threaded; no time except the `now` passed in.

#include "core/api/object.h"
#include "core/base/time.h"

namespace api {

// UpsertCondition returns `conditions` (an array or null) with `cond` (which has "type" and
// "status") set. lastTransitionTime moves to now only when the status changes; when
// `update_time` is true, lastUpdateTime (Deployment conditions) moves to now whenever the
// reason or message changes. Conditions keep their order; a new one is appended. Pass
// `conditions` as an rvalue when it is replaced by the result, so it is not copied.
Json UpsertCondition(Json conditions, Json cond, base::SimTime now, bool update_time = false);

}  // namespace api
