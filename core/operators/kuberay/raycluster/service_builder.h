#pragma once
// The Services a RayCluster owns: the head Service (`<cluster>-head-svc`, headless by default),
// the headless worker Service for multi-host groups (`<cluster>-headless`) and the standalone
// serve Service (`<cluster>-serve-svc`).
// Mirrors: ray-operator/controllers/ray/common/service.go (HeadServiceLabels,
// BuildServiceForHeadPod, getServicePorts, getPortsFromCluster, getDefaultPorts,
// BuildHeadlessServiceForRayCluster, BuildServeServiceForRayCluster).
// Simplified: with a user-supplied headService the generated ports are appended in name order
// (Go appends them in map order, i.e. randomly).
// Pure functions; no state.

#include <map>
#include <string>

#include "core/api/object.h"
#include "core/operators/kuberay/common/config.h"

namespace kuberay {

// HeadServiceLabels: ray.io/cluster, ray.io/node-type=head, ray.io/identifier=<cluster>-head,
// app.kubernetes.io/name=kuberay, app.kubernetes.io/created-by=kuberay-operator.
std::map<std::string, std::string> HeadServiceLabels(const api::Json& cluster);

// ServicePorts: the head container's named ports (an unnamed one is "<port>-port"), the five
// defaults only when it declares none, plus metrics 8080 when absent.
std::map<std::string, int> ServicePorts(const api::Json& cluster);

// BuildHeadService is the head Service to create (without the owner reference).
api::Json BuildHeadService(const api::Json& cluster, const OperatorConfig& config);

// BuildHeadlessService is `<cluster>-headless`: no ports, clusterIP None, selecting workers.
api::Json BuildHeadlessService(const api::Json& cluster);

// BuildServeService is `<cluster>-serve-svc`, selecting every Pod of the cluster on the serve port.
api::Json BuildServeService(const api::Json& cluster);

}  // namespace kuberay
