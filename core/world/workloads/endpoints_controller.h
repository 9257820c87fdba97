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
// Single-threaded; a sync runs `sync_delay` after its key is queued (worker_queue.h).

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/containers/key_set.h"
#include "core/base/containers/keyed_map.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/informer/label_index.h"
#include "core/informer/shared_informer.h"
#include "core/sim/scheduler.h"
#include "core/world/workloads/informer_factory.h"
#include "core/world/workloads/worker_queue.h"

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

  // This constructor gives the controller informers of its own (a controller tested alone).
  EndpointsController(client::Client& client, sim::Scheduler& scheduler, Options options);
  // This one registers its handlers on kube-controller-manager's shared informers (which
  // must outlive it); options.watcher and traced_watches are then theirs.
  EndpointsController(client::Client& client, SharedInformerFactory& informers,
                      sim::Scheduler& scheduler, Options options);
  EndpointsController(const EndpointsController&) = delete;
  EndpointsController& operator=(const EndpointsController&) = delete;

  // Start watches Services, Pods and Endpoints.
  void Start();

  // queue is the work queue (the UI's metrics read its depth and counters).
  const WorkerQueue& queue() const { return queue_; }

 private:
  EndpointsController(client::Client& client, sim::Scheduler& scheduler, Options options,
                      SharedInformerFactory* shared);

  void OnService(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj);
  void OnPod(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj);
  // PodsLabelled returns the keys of the Pods (of any namespace) whose `label` is `value`; null
  // when the label index cannot answer (kMaxLabels other keys are indexed): then every Pod is a
  // candidate.
  const base::KeySet* PodsLabelled(const std::string& label, const std::string& value);
  // ForgetMemberships drops the cached memberships of the Pods in `ns` labelled `label`=`value`.
  void ForgetMemberships(const std::string& ns, const std::string& label,
                         const std::string& value);
  bool Sync(const std::string& key);

  client::Client& client_;
  sim::Scheduler& scheduler_;
  Options options_;
  std::unique_ptr<SharedInformerFactory> own_informers_;  // null when given shared ones
  SharedInformerFactory& informers_;
  informer::SharedIndexInformer& services_;
  informer::SharedIndexInformer& pods_;
  informer::SharedIndexInformer& endpoints_;
  WorkerQueue queue_;
  // The Pods by the labels Service selectors use (client-go's listers index by namespace and
  // match selectors per object; with 1,000 Services and 11,000 Pods that is quadratic). Only the
  // label keys some selector has used are indexed, not every label of every Pod. The index only
  // narrows the candidates: every candidate is still matched against the whole selector and the
  // namespace, in key order, so the results are those of a full scan.
  informer::LabelIndex pods_by_label_;
  // The Services by one pair of their selector, keyed "namespace\nlabel-key\nvalue".
  base::KeyedMap<base::KeySet> services_by_pair_;  // one pair per Service
  std::unordered_map<std::string, int> service_pair_uses_;  // pair -> Services with it
  struct IndexedPair {
    std::string label, value;
  };
  std::unordered_map<std::string, IndexedPair> service_indexed_pair_;  // Service -> its pair
  // The Services selecting each Pod, in key order. A Pod update that keeps its labels (a status
  // write) reuses them instead of matching every label pair again. A Pod only ever considers the
  // Services indexed under one of its pairs, so when such a Service comes, goes or changes, the
  // memberships of the Pods carrying that pair are forgotten (ForgetMemberships), and no others.
  struct Memberships {
    std::vector<std::string> services;
  };
  base::KeyedMap<Memberships> memberships_;  // Pod key -> Services selecting it
};

}  // namespace world
