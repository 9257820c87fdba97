#pragma once
// NamespaceController: kube-controller-manager's namespace controller. It watches Namespaces; a
// Namespace with a deletionTimestamp is queued (5s later, upstream's namespaceDeletionGracePeriod)
// and handed to the NamespacedResourcesDeleter, which deletes its content and, once it is empty,
// finalizes it. While content remains (Pods in their grace period, objects held by finalizers)
// the key comes back after estimate/2 + 1 seconds; an error retries with backoff.
// Mirrors: kubernetes pkg/controller/namespace/namespace_controller.go (enqueueNamespace,
// worker's ResourcesRemainingError branch, syncNamespaceFromKey).
// Simplified: no periodic resync.
// Single-threaded; a sync runs on the queue's worker (worker_queue.h).

#include <memory>
#include <string>

#include "core/base/time.h"
#include "core/client/client.h"
#include "core/informer/shared_informer.h"
#include "core/sim/scheduler.h"
#include "core/world/namespace/namespaced_resources_deleter.h"
#include "core/world/workloads/informer_factory.h"
#include "core/world/workloads/worker_queue.h"

namespace world {

// NamespaceControllerOptions tunes the controller.
struct NamespaceControllerOptions {
  // deletion_delay is the wait between seeing a deleting Namespace and syncing it, so that
  // last-moment creations inside it are seen. Defaults to 5s (namespaceDeletionGracePeriod).
  base::Duration deletion_delay = 5 * base::kSecond;
  // watcher names its informer when it has its own. Defaults to "namespace-controller".
  std::string watcher = "namespace-controller";
  // traced_watches puts its own informer's deliveries in the trace. Defaults to false.
  bool traced_watches = false;
};

// NamespaceController acts through `client` (kNamespaceControllerUser in a World). client and
// scheduler must outlive this object. Not copyable.
class NamespaceController {
 public:
  using Options = NamespaceControllerOptions;

  // This constructor gives the controller a Namespace informer of its own (tested alone).
  NamespaceController(client::Client& client, sim::Scheduler& scheduler, Options options);
  // This one registers its handler on kube-controller-manager's shared watches (which must
  // outlive it and not be started yet).
  NamespaceController(client::Client& client, SharedInformerFactory& informers,
                      sim::Scheduler& scheduler, Options options);
  NamespaceController(const NamespaceController&) = delete;
  NamespaceController& operator=(const NamespaceController&) = delete;

  // Start watches Namespaces.
  void Start();

  // queue is the work queue (metrics read its depth and counters).
  const WorkerQueue& queue() const { return queue_; }

 private:
  NamespaceController(client::Client& client, sim::Scheduler& scheduler, Options options,
                      SharedInformerFactory* shared);
  void OnNamespace(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj);
  bool Sync(const std::string& key);

  Options options_;
  std::unique_ptr<SharedInformerFactory> own_informers_;  // null when given shared ones
  informer::SharedIndexInformer& namespaces_;
  NamespacedResourcesDeleter deleter_;
  WorkerQueue queue_;
};

}  // namespace world
