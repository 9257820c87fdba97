#pragma once
// The head Pod's `ray.io/serve` label: "true" puts the head behind the RayService's serve
// Service, "false" keeps it out. KubeRay creates the head with "false" and then, every
// reconcile, sets it from a health check of the head's Serve HTTP proxy (always "false" when
// spec.excludeHeadPodFromServeSvc is true).
// Mirrors: ray-operator/controllers/ray/rayservice_controller.go updateHeadPodServeLabel and
// utils/httpproxy_httpclient.go CheckProxyActorHealth.
// Teaching: the label is a plain Pod update by the operator; the endpoints controller then adds
// or removes the head from the serve Service's endpoints, which numServeEndpoints counts.
// Single-threaded.

#include <string>

#include "core/api/object.h"
#include "core/base/status.h"
#include "core/client/client.h"
#include "core/operators/kuberay/dashboard/dashboard_client.h"

namespace kuberay::rayservice {

// ServeLabelUpdate reports what UpdateHeadPodServeLabel did.
struct ServeLabelUpdate {
  bool updated = false;   // the label changed and the Pod was updated
  std::string value;      // the label's new value
  std::string pod;        // the head Pod's name
};

// UpdateHeadPodServeLabel sets the label on cluster's head Pod from the proxy's health. No head
// Pod is an error ("found 0 head. …"), as upstream.
base::StatusOr<ServeLabelUpdate> UpdateHeadPodServeLabel(client::Client& client,
                                                         dashboard::ClientProvider& proxies,
                                                         const api::Json& cluster,
                                                         bool exclude_head_pod_from_serve_svc);

}  // namespace kuberay::rayservice
