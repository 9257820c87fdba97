#pragma once
// Conditions: finding one entry of a status.conditions list, and setting one the way Kubernetes'
// helpers do, for the API server (the pods/binding subresource sets PodScheduled), the built-in
// components above it and the operators.
// Mirrors: kubernetes pkg/api/v1/pod/util.go GetPodCondition and UpdatePodCondition,
// apimachinery meta conditions.go FindStatusCondition, pkg/controller/deployment/util
// (deployment_util.go SetDeploymentCondition: lastUpdateTime).
// Simplified: times are RFC 3339 strings of the virtual clock.
// Single-threaded; no time except the `now` passed in.

#include <string_view>

#include "core/api/object.h"
#include "core/base/time.h"

namespace api {

// FindCondition returns the entry of obj's status.conditions whose type is `type`, or null (a
// pointer into obj: keep obj alive). Read in place under interned keys: the kubelet, the
// Endpoints controller and KubeRay ask it on every Pod event.
const Json* FindCondition(const Json& obj, std::string_view type);
// ConditionIs reports whether condition `type` has status `status` ("True", "False", ...).
bool ConditionIs(const Json& obj, std::string_view type, std::string_view status);

// UpsertCondition returns `conditions` (an array or null) with `cond` (which has "type" and
// "status") set. lastTransitionTime moves to now only when the status changes; when
// `update_time` is true, lastUpdateTime (Deployment conditions) moves to now whenever the
// reason or message changes. Conditions keep their order; a new one is appended. Pass
// `conditions` as an rvalue when it is replaced by the result, so it is not copied.
Json UpsertCondition(Json conditions, Json cond, base::SimTime now, bool update_time = false);

}  // namespace api
