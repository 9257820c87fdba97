#pragma once
// NamespacedResourcesDeleter: what the namespace controller does for one Terminating namespace —
// delete everything in it, kind by kind, report what is left (and which finalizers hold it) in
// the namespace's status conditions, and once nothing is left take the `kubernetes` token out of
// spec.finalizers through namespaces/finalize, after which the API server removes the namespace.
// Mirrors: kubernetes pkg/controller/namespace/deletion/namespaced_resources_deleter.go (Delete,
// deleteAllContent, deleteAllContentForGroupVersionResource, estimateGracefulTermination,
// finalizeNamespace) and status_condition_utils.go (the five deletion conditions).
// Simplified: the kinds come from api::AllKinds() (no discovery); each kind is listed once and
// its items deleted one by one (no deletecollection, no second list: an item whose DELETE left
// it in place counts as remaining); a conflict on a namespace write is retried by the queue, not
// in a loop.
// Single-threaded; acts at the instant it is called; time is read from the scheduler's clock.

#include <cstdint>
#include <string>

#include "core/base/status.h"
#include "core/client/client.h"
#include "core/sim/scheduler.h"

namespace world {

// kNamespaceControllerUser is the namespace controller's identity in kube-controller-manager.
inline const std::string kNamespaceControllerUser =
    "system:serviceaccount:kube-system:namespace-controller";

// NamespaceDeletion is the outcome of one pass over a namespace.
struct NamespaceDeletion {
  // status is an error to retry with backoff (a failed request, content left that nothing
  // explains); OK otherwise.
  base::Status status;
  // estimate_seconds > 0 means content is still going away (ResourcesRemainingError): Pods in
  // their grace period, or objects held by finalizers (15s each pass).
  int64_t estimate_seconds = 0;
};

// NamespacedResourcesDeleter acts through `client` (kNamespaceControllerUser in a World). client
// and scheduler must outlive this object. Not copyable.
class NamespacedResourcesDeleter {
 public:
  NamespacedResourcesDeleter(client::Client& client, sim::Scheduler& scheduler);
  NamespacedResourcesDeleter(const NamespacedResourcesDeleter&) = delete;
  NamespacedResourcesDeleter& operator=(const NamespacedResourcesDeleter&) = delete;

  // Delete makes one pass over namespace `name`: nothing to do when it is gone, not being
  // deleted or already finalized; otherwise phase Terminating, content deleted, conditions
  // updated, and the namespace finalized when nothing is left.
  NamespaceDeletion Delete(const std::string& name);

 private:
  // ContentLeft is what deleteAllContent found still present after its deletes.
  struct ContentLeft;
  // DeleteAllContent deletes every namespaced object in ns and returns what is left.
  ContentLeft DeleteAllContent(const std::string& ns, base::SimTime deleted_at);
  // UpdateConditions writes the five deletion conditions when they changed; returns the
  // namespace as stored afterwards.
  base::StatusOr<api::ObjectPtr> UpdateConditions(const api::ObjectPtr& ns,
                                                  const ContentLeft& left);

  client::Client& client_;
  sim::Scheduler& scheduler_;
};

}  // namespace world
