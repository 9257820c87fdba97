#include "core/world/namespace/namespace_controller.h"

#include <utility>

namespace world {

NamespaceController::NamespaceController(client::Client& client, sim::Scheduler& scheduler,
                                         Options options)
    : NamespaceController(client, scheduler, std::move(options), nullptr) {}

NamespaceController::NamespaceController(client::Client& client, SharedInformerFactory& informers,
                                         sim::Scheduler& scheduler, Options options)
    : NamespaceController(client, scheduler, std::move(options), &informers) {}

NamespaceController::NamespaceController(client::Client& client, sim::Scheduler& scheduler,
                                         Options options, SharedInformerFactory* shared)
    : options_(std::move(options)),
      own_informers_(shared != nullptr
                         ? nullptr
                         : std::make_unique<SharedInformerFactory>(
                               client, scheduler, options_.watcher, options_.traced_watches)),
      namespaces_((shared != nullptr ? *shared : *own_informers_).InformerFor("Namespace")),
      deleter_(client, scheduler),
      queue_(scheduler, WorkerQueue::Options{"namespace-controller"},
             [this](const std::string& key) { return Sync(key); }) {
  namespaces_.AddEventHandler(
      OnChange([this](const api::ObjectPtr& o, const api::ObjectPtr& n) { OnNamespace(o, n); }));
}

void NamespaceController::Start() { namespaces_.Start(); }

// mirrors namespace_controller.go enqueueNamespace: only a Namespace being deleted is queued,
// after the deletion grace period.
void NamespaceController::OnNamespace(const api::ObjectPtr&, const api::ObjectPtr& new_obj) {
  if (new_obj == nullptr || !api::IsBeingDeleted(*new_obj)) return;
  queue_.AddAfter(api::Name(*new_obj), options_.deletion_delay);
}

// mirrors namespace_controller.go processNextWorkItem: done, content remaining (come back after
// half the estimate, plus one second), or an error (rate-limited retry).
bool NamespaceController::Sync(const std::string& key) {
  const NamespaceDeletion result = deleter_.Delete(key);
  if (!result.status.ok()) return false;
  if (result.estimate_seconds > 0) {
    queue_.AddAfter(key, (result.estimate_seconds / 2 + 1) * base::kSecond);
  }
  return true;
}

}  // namespace world
