#pragma once
// Events: what a source hands to predicates and event handlers when an informer reports a
// change. Each carries the object (or, for an update, both versions) and nothing about why.
// Mirrors: controller-runtime pkg/event/event.go (CreateEvent, UpdateEvent, DeleteEvent,
// GenericEvent). EventType / EventTypeName have no Go counterpart; they name the event kinds in
// the trace (`predicate.eval`'s eventType field).
// Simplified: not generic over the object type; objects are api::ObjectPtr, and a null pointer
// models Go's nil object (which predicates and handlers must tolerate).
// Single-threaded; no time.

#include "core/api/object.h"

namespace event {

// CreateEvent says an object appeared in the informer's cache (added, or listed at start).
// mirrors pkg/event/event.go TypedCreateEvent
struct CreateEvent {
  api::ObjectPtr object;
  // is_in_initial_list is true when the informer's initial list (not a watch ADDED) produced the
  // event; priority-queue handlers then enqueue at low priority. Defaults to false.
  bool is_in_initial_list = false;
};

// UpdateEvent says an object changed, or a resync redelivered it (then both versions carry the
// same resourceVersion). mirrors pkg/event/event.go TypedUpdateEvent
struct UpdateEvent {
  api::ObjectPtr object_old;
  api::ObjectPtr object_new;
};

// DeleteEvent says an object left the cache. mirrors pkg/event/event.go TypedDeleteEvent
struct DeleteEvent {
  api::ObjectPtr object;
  // delete_state_unknown is true when the watch missed the delete and a relist found the object
  // gone (client-go's DeletedFinalStateUnknown): object is then the last state the cache knew,
  // which may be stale. Defaults to false.
  bool delete_state_unknown = false;
};

// GenericEvent is an event from outside the cluster (a timer, a webhook, a channel source).
// mirrors pkg/event/event.go TypedGenericEvent
struct GenericEvent {
  api::ObjectPtr object;
};

// EventType names the four kinds of event, for traces and tables.
enum class EventType { kCreate, kUpdate, kDelete, kGeneric };

// EventTypeName returns "Create", "Update", "Delete" or "Generic", as the trace prints it.
const char* EventTypeName(EventType type);

}  // namespace event
