#pragma once
// EndpointsController: keeps, for every Service with a selector, an Endpoints object of the same
// name listing the IPs of the selected Pods — Ready ones under `addresses`, the others under
// `notReadyAddresses` — with the Service's ports resolved against each Pod (named targetPorts
// look up the container port). Subsets group Pods whose resolved ports are equal.
// Mirrors: kubernetes pkg/controller/endpoint/endpoints_controller.go (syncService,
// addEndpointSubset, podToEndpointAddressForService), pkg/api/v1/endpoints/util.go
// (RepackSubsets: sorted addresses), endpointslice util ShouldPodBeInEndpoints.
// Simplified: no EndpointSlices (kube-proxy is not simulated; Endpoints are what a learner
// reads), no last-change-trigger-time annotation, no over-capacity truncation.
// Single-threaded; a sync is a scheduler event `sync_delay` after the change that marked it.

#include <string>

#include "core/base/time.h"
#include "core/client/client.h"
#include "core/sim/scheduler.h"
#include "core/world/workloads/object_watch.h"
#include "core/world/workloads/sync_queue.h"

namespace world {

// kEndpointsControllerUser is the controller's identity in kube-controller-manager.
inline const std::string kEndpointsControllerUser =
    "system:serviceaccount:kube-system:endpoint-controller";

// EndpointsControllerOptions tunes the controller.
struct EndpointsControllerOptions {
  // sync_delay is the time from a change to the sync it triggers. Defaults to 5ms.
  base::Duration sync_delay = 5 * base::kMillisecond;
  // watcher names its watches. Defaults to "endpoint-controller".
  std::string watcher = "endpoint-controller";
  // traced_watches puts its watch deliveries in the trace (watch.event). Defaults to false:
  // the trace follows the operators' informers; this component's steps have their own records.
  bool traced_watches = false;
};

// EndpointsController acts through `client` (as kEndpointsControllerUser in a World). client and
// scheduler must outlive this object. Not copyable.
class EndpointsController {
 public:
  using Options = EndpointsControllerOptions;

  EndpointsController(client::Client& client, sim::Scheduler& scheduler, Options options);
  EndpointsController(const EndpointsController&) = delete;
  EndpointsController& operator=(const EndpointsController&) = delete;

  // Start watches Services, Pods and Endpoints.
  void Start();

  // queue is the work queue (the UI's metrics read its depth and counters).
  const SyncQueue& queue() const { return queue_; }

 private:
  void OnPod(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj);
  bool Sync(const std::string& key);

  client::Client& client_;
  sim::Scheduler& scheduler_;
  Options options_;
  ObjectWatch services_;
  ObjectWatch pods_;
  ObjectWatch endpoints_;
  SyncQueue queue_;
};

}  // namespace world
