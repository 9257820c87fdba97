#pragma once
// The core/v1 Events a kubelet records about a Pod's containers. The sandbox records one: the
// Warning BackOff a container in CrashLoopBackOff gets ("Back-off restarting failed container
// manager in pod kuberay-operator-…_default(uid)"), which `kubectl get events` and `describe pod`
// show next to the RESTARTS count.
// Mirrors: kubelet pkg/kubelet/kuberuntime/kuberuntime_manager.go doBackOff
// (events.BackOffStartContainer), pkg/kubelet/util/format Pod ("name_namespace(uid)"), and
// client-go tools/record (an Event named "<object>.<UnixNano in hex>", source kubelet/<node>).
// Simplified: no other container events (Pulling, Pulled, Created, Started, Killing), no
// aggregation into one Event with a growing count: each back-off records its own Event.
// Pure functions; no state.

#include <string>

#include "core/api/object.h"
#include "core/base/time.h"

namespace world {

// BackOffEventMessage is the message doBackOff records for container of pod.
std::string BackOffEventMessage(const api::Json& pod, const std::string& container);

// BuildKubeletEvent is the Event node's kubelet records at now about container of pod
// (involvedObject.fieldPath "spec.containers{<container>}").
api::Json BuildKubeletEvent(const std::string& node, const api::Json& pod,
                            const std::string& container, const std::string& type,
                            const std::string& reason, const std::string& message,
                            base::SimTime now);

}  // namespace world
