#pragma once
// ValidatePodSpecUpdate: what an update of a Pod may change in its spec. A Pod's spec is fixed
// once created except for its containers' and init containers' images, activeDeadlineSeconds
// (set, or lowered), added tolerations (an existing one may change only its tolerationSeconds),
// a negative terminationGracePeriodSeconds set to 1, and removed scheduling gates. Anything else
// (resources, env, ports, nodeName, a container added...) is refused with kube-apiserver's
// "pod updates may not change fields other than ..." and the request changes nothing.
// Mirrors: kubernetes pkg/apis/core/validation/validation.go ValidatePodUpdate (the spec part:
// the munged copy of the new spec compared with the old one), validateOnlyAddedTolerations and
// validateOnlyDeletedSchedulingGates.
// Simplified: the message ends with the changed fields as paths with their old and new values,
// where kube-apiserver prints a cmp.Diff of the internal core.PodSpec; the node-affinity and
// nodeSelector additions allowed while a Pod is still gated are not modelled (refused).
// Single-threaded; no time.

#include <string>
#include <vector>

#include "core/api/object.h"

namespace apiserver::internal {

// ValidatePodSpecUpdate returns the causes (field errors) for InvalidMessage; empty when the
// update may proceed. Both objects are defaulted Pods.
std::vector<std::string> ValidatePodSpecUpdate(const api::Json& old_pod, const api::Json& new_pod);

}  // namespace apiserver::internal
