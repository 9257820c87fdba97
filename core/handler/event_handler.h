#pragma once
// EventHandler turns an event about one object into reconcile Requests in a controller's queue:
// for the object itself (EnqueueRequestForObject), for its owner (EnqueueRequestForOwner), or for
// whatever a function maps it to (EnqueueRequestsFromMapFunc). With the priority queue, events
// that carry no news (the initial list, resyncs) are enqueued at kLowPriority.
// Mirrors: controller-runtime pkg/handler/eventhandler.go (TypedEventHandler, TypedFuncs,
// LowPriority, WithLowPriorityWhenUnchanged, workqueueWithDefaultPriority, addToQueueCreate,
// addToQueueUpdate), at v0.24.
// Simplified: handlers do not see the queue. They call an Enqueuer, which the source layer
// implements (it traces handler.enqueue and adds to the queue), and learn from HandlerContext
// whether the queue is a priority queue (Go type-asserts the queue instead). Handlers never log.
// Single-threaded; no time.

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/api/object.h"
#include "core/event/event.h"
#include "core/reconcile/reconcile.h"
#include "core/workqueue/interface.h"

namespace handler {

// kLowPriority is the priority of initial-list Creates and resync Updates on the priority queue.
// mirrors pkg/handler/eventhandler.go LowPriority
constexpr int kLowPriority = workqueue::kLowPriority;

// Enqueuer receives the requests a handler produces; it stands for Go's workqueue argument.
class Enqueuer {
 public:
  virtual ~Enqueuer() = default;

  // Add enqueues req. priority unset is Go's q.Add (the queue's default, 0); set, it is
  // AddWithOpts{Priority} (only ever set when HandlerContext::priority_queue is true).
  // handler_name is the producing handler's Name() ("EnqueueRequestForOwner"); object is the
  // event object req was derived from (for an Update, the old or new version that produced it).
  virtual void Add(const reconcile::Request& req, std::optional<int> priority,
                   const std::string& handler_name, const api::ObjectPtr& object) = 0;
};

// HandlerContext is what a handler knows about the controller it feeds.
struct HandlerContext {
  // priority_queue: the controller's queue is controller-runtime's priority queue, so handlers
  // set kLowPriority where upstream does. Defaults to true (controller-runtime v0.23+ default).
  bool priority_queue = true;
};

// EventHandler maps events to requests. The defaults do nothing. Implementations are shared
// immutable objects (EventHandlerPtr). mirrors pkg/handler/eventhandler.go TypedEventHandler
class EventHandler {
 public:
  virtual ~EventHandler() = default;

  virtual void Create(const event::CreateEvent& e, Enqueuer& q, const HandlerContext& ctx) const;
  virtual void Update(const event::UpdateEvent& e, Enqueuer& q, const HandlerContext& ctx) const;
  virtual void Delete(const event::DeleteEvent& e, Enqueuer& q, const HandlerContext& ctx) const;
  virtual void Generic(const event::GenericEvent& e, Enqueuer& q, const HandlerContext& ctx) const;

  // Name is what the trace's handler.enqueue prints and what the handler passes to Enqueuer.
  virtual std::string Name() const = 0;
};

// EventHandlerPtr is how handlers are held and shared (by watches and the builder).
using EventHandlerPtr = std::shared_ptr<const EventHandler>;

// Funcs builds a handler from functions; an unset function does nothing (the opposite of
// predicate::Funcs). On the priority queue, Create (non-null object) and Update (both objects
// non-null) hand the functions an Enqueuer that fills in an unset priority with kLowPriority for
// an initial-list Create or a resync Update (same resourceVersion); Delete and Generic get q
// as is. mirrors pkg/handler/eventhandler.go TypedFuncs
class Funcs final : public EventHandler {
 public:
  std::function<void(const event::CreateEvent&, Enqueuer&, const HandlerContext&)> create_func;
  std::function<void(const event::UpdateEvent&, Enqueuer&, const HandlerContext&)> update_func;
  std::function<void(const event::DeleteEvent&, Enqueuer&, const HandlerContext&)> delete_func;
  std::function<void(const event::GenericEvent&, Enqueuer&, const HandlerContext&)> generic_func;
  // name is what Name() returns. Defaults to "Funcs".
  std::string name = "Funcs";

  void Create(const event::CreateEvent& e, Enqueuer& q, const HandlerContext& ctx) const override;
  void Update(const event::UpdateEvent& e, Enqueuer& q, const HandlerContext& ctx) const override;
  void Delete(const event::DeleteEvent& e, Enqueuer& q, const HandlerContext& ctx) const override;
  void Generic(const event::GenericEvent& e, Enqueuer& q, const HandlerContext& ctx) const override;
  std::string Name() const override { return name; }
};

// WithLowPriorityWhenUnchanged wraps h in Funcs, so its unset priorities follow Funcs' rules;
// the wrapper keeps h's Name(). REQUIRES: h is not null.
// mirrors pkg/handler/eventhandler.go WithLowPriorityWhenUnchanged
EventHandlerPtr WithLowPriorityWhenUnchanged(EventHandlerPtr h);

// CreatePriority is the priority upstream's handlers give a Create: kLowPriority when the queue
// is a priority queue, the object is not null and it came from the initial list; else unset.
// mirrors pkg/handler/eventhandler.go addToQueueCreate
std::optional<int> CreatePriority(const event::CreateEvent& e, const HandlerContext& ctx);

// UpdatePriority is the priority upstream's handlers give an Update: kLowPriority when the queue
// is a priority queue and both objects carry the same resourceVersion (a resync); else unset.
// Teaching: upstream's addToQueueUpdate would dereference a nil object on the priority queue (a
// panic); a null object here just means unset.
// mirrors pkg/handler/eventhandler.go addToQueueUpdate
std::optional<int> UpdatePriority(const event::UpdateEvent& e, const HandlerContext& ctx);

}  // namespace handler
