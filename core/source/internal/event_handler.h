#pragma once
// EventHandlerAdapter turns informer callbacks into controller-runtime events, evaluates the
// watch's predicates in order (stopping at the first false) and hands the event to the
// handler with an Enqueuer that traces handler.enqueue and queue.add.
// Mirrors: controller-runtime pkg/internal/source/event_handler.go (OnAdd/OnUpdate/OnDelete).
// Simplified: tombstones arrive already unwrapped with a flag.
// Single-threaded; records chain their causes: watch.event → predicate.eval → handler.enqueue →
// queue.add.

#include <memory>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/event/event.h"
#include "core/handler/event_handler.h"
#include "core/predicate/predicate.h"
#include "core/source/tracer.h"
#include "core/workqueue/interface.h"

namespace source::internal {

class EventHandlerAdapter {
 public:
  EventHandlerAdapter(Tracer tracer, workqueue::Interface* queue,
                      std::shared_ptr<const handler::EventHandler> handler,
                      std::vector<predicate::PredicatePtr> predicates, std::string watch);

  void OnAdd(const api::ObjectPtr& obj, bool is_in_initial_list);
  void OnUpdate(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj);
  void OnDelete(const api::ObjectPtr& obj, bool delete_state_unknown);

 private:
  // Passes runs the predicates for one event; returns false at the first that rejects it, and
  // leaves the cause for the handler in *cause.
  template <typename Fn>
  bool Passes(const char* event_type, const api::ObjectPtr& obj, Fn&& eval, int64_t* cause);

  Tracer tracer_;
  workqueue::Interface* queue_;
  std::shared_ptr<const handler::EventHandler> handler_;
  std::vector<predicate::PredicatePtr> predicates_;
  std::string watch_;
};

// ObjectRef renders "Kind/namespace/name" (or "Kind/name") for trace records.
std::string ObjectRef(const api::ObjectPtr& obj);

}  // namespace source::internal
