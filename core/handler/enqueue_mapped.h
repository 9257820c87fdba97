#pragma once
// EnqueueRequestsFromMapFunc enqueues whatever a function maps the event's object to: fan-out
// from one object to others of another kind (a ConfigMap change reconciles every RayCluster that
// mounts it; a Node event reconciles the objects scheduled on it).
// Mirrors: controller-runtime pkg/handler/enqueue_mapped.go (TypedEnqueueRequestsFromMapFunc,
// mapAndEnqueue), v0.24.
// Simplified: the map function takes no context.
// Teaching: upstream calls the map function even with a nil object; we skip null objects, so a
// MapFunc never sees a null pointer.
// Single-threaded; no time.

#include <functional>
#include <vector>

#include "core/handler/event_handler.h"

namespace handler {

// MapFunc maps an object to the requests to reconcile. Never called with a null pointer.
using MapFunc = std::function<std::vector<reconcile::Request>(const api::ObjectPtr& object)>;

// EnqueueRequestsFromMapFunc returns a handler (named "EnqueueRequestsFromMapFunc") that maps the
// event's object with fn and enqueues each request once per event, in the order fn returns them.
// - Create: at kLowPriority for an initial-list Create on the priority queue, else unset.
// - Update: maps object_old, then object_new, skipping requests already enqueued for this
//   event; at kLowPriority for a resync on the priority queue (both objects present, same
//   resourceVersion), else unset.
// - Delete, Generic: unset priority.
// REQUIRES: fn is set.
EventHandlerPtr EnqueueRequestsFromMapFunc(MapFunc fn);

}  // namespace handler
