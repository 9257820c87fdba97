#pragma once
// EnqueueRequestForOwner enqueues the owners of the event's object, found through its
// metadata.ownerReferences: a ReplicaSet controller watching Pods reconciles the ReplicaSet that
// owns the Pod. `Owns(...)` in the builder uses it with only_controller_owner.
// Mirrors: controller-runtime pkg/handler/enqueue_owner.go (TypedEnqueueRequestForOwner,
// OnlyControllerOwner, getOwnerReconcileRequest, getOwnersReferences), v0.24.
// Simplified: the owner type is given as group, kind and scope instead of a Go type resolved
// through a scheme and a RESTMapper (so there is no RESTMapping error); the handler does not log
// ("OwnerReference handler event", "Could not parse OwnerReference APIVersion"); the requests of
// one event are enqueued sorted by (namespace, name), where Go iterates a map in random order.
// Single-threaded; no time.

#include <string>

#include "core/handler/event_handler.h"

namespace handler {

// EnqueueRequestForOwner returns a handler (named "EnqueueRequestForOwner", already wrapped in
// WithLowPriorityWhenUnchanged, as upstream returns it) that enqueues the owners of the event's
// object whose ownerReference matches owner_group and owner_kind; the version in apiVersion is
// ignored. The request is {object's namespace, ref.name}, or {"", ref.name} when the owner is
// cluster-scoped (owner_namespaced false).
// - only_controller_owner false: every matching reference counts.
// - only_controller_owner true (OnlyControllerOwner()): only the FIRST reference with
//   controller=true is considered, whatever its kind; if it is not the owner kind, nothing.
// - An apiVersion with more than one '/' cannot be parsed: scanning that object's references
//   stops there, but owners matched before it are still enqueued.
// - Update collects the owners of object_old and object_new and enqueues each distinct request
//   once; Create, Delete and Generic use the one object. A null object contributes nothing.
// REQUIRES: owner_kind is not empty (Go panics when the owner type has no kind).
EventHandlerPtr EnqueueRequestForOwner(const std::string& owner_group,
                                       const std::string& owner_kind, bool owner_namespaced,
                                       bool only_controller_owner);

}  // namespace handler
