#pragma once
// The operators a simulation installs by default, as OperatorSpecs for OperatorHost: each
// spec's factory is the operator's main.go — build a manager from the settings, register the
// controllers, hand back the process.
// No Go counterpart beyond each operator's cmd/main.go.
// Single-threaded.

#include "core/lab/operator_host.h"
#include "core/operators/kuberay/dashboard/dashboard_client.h"

namespace world {
class ExternalSystems;
}

namespace lab {

// InferenceOperatorSpec is the tutorial InferenceService operator (`inference-operator`).
// external must outlive every process the spec creates.
OperatorSpec InferenceOperatorSpec(world::ExternalSystems& external, sim::Scheduler& scheduler);

// KubeRayOperatorSpec is the KubeRay operator (`kuberay-operator`, image
// quay.io/kuberay/operator:v1.7.0) with its ClusterRole. Settings map to main.go: watch-namespace,
// reconcile-concurrency, leader-election (on by default, see KubeRayOperatorSettings),
// feature-gates, queue, and the ENABLE_* (and other) environment switches.
// dashboards (the simulated Ray heads) must outlive every process the spec creates.
OperatorSpec KubeRayOperatorSpec(sim::Scheduler& scheduler,
                                 kuberay::dashboard::ClientProvider& dashboards);
// KubeRayOperatorSettings are the Helm chart's defaults: leader election on.
OperatorSettings KubeRayOperatorSettings();

}  // namespace lab
