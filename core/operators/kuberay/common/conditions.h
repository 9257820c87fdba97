#pragma once
// Status conditions on an object's JSON: find one, test it, set it as
// meta.SetStatusCondition does (lastTransitionTime moves only when the status changes).
// Mirrors: k8s.io/apimachinery/pkg/api/meta conditions.go (FindStatusCondition,
// IsStatusConditionTrue, SetStatusCondition) as KubeRay's controllers call them.
// Pure functions; no state.

#include <string>

#include "core/api/condition.h"
#include "core/api/object.h"
#include "core/base/time.h"

namespace kuberay {

// FindCondition returns status.conditions[type] or null (core/api/condition.h).
using api::FindCondition;
bool IsConditionTrue(const api::Json& obj, const std::string& type);
// SetCondition replaces the condition of the same type (appending it when absent), keeping
// lastTransitionTime unless status changed. Returns whether anything changed.
bool SetCondition(api::Json& conditions, const std::string& type, const std::string& status,
                  const std::string& reason, const std::string& message, base::SimTime now);

}  // namespace kuberay
