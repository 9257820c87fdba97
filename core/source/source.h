#pragma once
// Source: where a controller's events come from. Kind watches one kind through the shared
// cache's informer and feeds each event through the watch's predicates to its handler, which
// enqueues reconcile.Requests.
// Mirrors: controller-runtime pkg/source/source.go (Source, SyncingSource, Kind, Channel) and
// pkg/internal/source/event_handler.go (informer callbacks → events → predicates → handler).
// Simplified: no typed generics; a source is started once with the controller's queue.
// Single-threaded; every step is a trace record whose cause is the step before it.

#include <memory>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/cache/cache.h"
#include "core/event/event.h"
#include "core/handler/event_handler.h"
#include "core/predicate/predicate.h"
#include "core/source/tracer.h"
#include "core/workqueue/interface.h"

namespace source {

// StartContext is what a controller hands its sources when it starts.
struct StartContext {
  Tracer tracer;
  workqueue::Interface* queue = nullptr;  // must outlive the source
};

class Source {
 public:
  virtual ~Source() = default;
  // Start begins delivering events into ctx.queue. Starting twice is an error.
  virtual base::Status Start(const StartContext& ctx) = 0;
  // HasSynced reports whether the source's cache has done its initial list (SyncingSource).
  virtual bool HasSynced() const { return true; }
  // Description is the watch as the trace prints it: "For(InferenceService)", "Owns(Deployment)".
  virtual const std::string& Description() const = 0;
  // String is the source as upstream's error messages print it (Go's %v of the source):
  // "kind source: *v1.Pod". mirrors pkg/internal/source/kind.go String
  virtual std::string String() const { return "source"; }
};

// Kind watches `kind` in cache with handler and predicates (all must pass, in order).
// `description` names the watch in predicate.eval records. cache must outlive the source.
std::unique_ptr<Source> Kind(cache::Cache& cache, std::string kind,
                             std::shared_ptr<const handler::EventHandler> handler,
                             std::vector<predicate::PredicatePtr> predicates,
                             std::string description);

}  // namespace source
