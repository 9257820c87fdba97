#pragma once
// EnqueueRequestForObject enqueues the object the event is about: the handler of `For(...)`,
// which almost every controller uses for its own kind.
// Mirrors: controller-runtime pkg/handler/enqueue.go (TypedEnqueueRequestForObject), v0.24.
// Simplified: a nil object is skipped silently (upstream logs "CreateEvent received with no
// metadata" and friends).
// Single-threaded; no time.

#include <string>

#include "core/handler/event_handler.h"

namespace handler {

// EnqueueRequestForObject enqueues {namespace, name} of the event's object.
// - Create: at CreatePriority (low for the initial list on the priority queue).
// - Update: object_new's key only, or object_old's when object_new is null (never both), at
//   UpdatePriority (low for a resync on the priority queue).
// - Delete, Generic: at the default priority.
// - A null object (both, for Update) enqueues nothing.
class EnqueueRequestForObject final : public EventHandler {
 public:
  void Create(const event::CreateEvent& e, Enqueuer& q, const HandlerContext& ctx) const override;
  void Update(const event::UpdateEvent& e, Enqueuer& q, const HandlerContext& ctx) const override;
  void Delete(const event::DeleteEvent& e, Enqueuer& q, const HandlerContext& ctx) const override;
  void Generic(const event::GenericEvent& e, Enqueuer& q, const HandlerContext& ctx) const override;
  std::string Name() const override { return "EnqueueRequestForObject"; }
};

// RequestFor is the Request naming obj ({metadata.namespace, metadata.name}).
reconcile::Request RequestFor(const api::Json& obj);

}  // namespace handler
