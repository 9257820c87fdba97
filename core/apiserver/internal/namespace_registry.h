#pragma once
// The Namespace registry's rules: what a Namespace looks like when created, what the main
// endpoint and the finalize subresource may change, when a deleting Namespace is removed, and
// NamespaceLifecycle admission's refusal of new content in a Terminating namespace.
// Mirrors: kubernetes pkg/registry/core/namespace/strategy.go (PrepareForCreate,
// PrepareForUpdate, the finalize strategy), pkg/registry/core/namespace/storage/storage.go
// (Delete, ShouldDeleteNamespaceDuringUpdate), plugin/pkg/admission/namespace/lifecycle/
// admission.go (the Terminating check).
// Simplified: finalizer names are not validated; the orphan finalizer a DELETE may ask for is
// not added to namespaces.
// Single-threaded; no time.

#include <string>

#include "core/api/kind.h"
#include "core/api/object.h"
#include "core/base/status.h"

namespace apiserver::internal {

// kKubernetesFinalizer is the namespace controller's token in spec.finalizers
// (v1.FinalizerKubernetes).
inline constexpr const char* kKubernetesFinalizer = "kubernetes";
// kFinalizeSubresource is namespaces/finalize, the only way to change spec.finalizers.
inline constexpr const char* kFinalizeSubresource = "finalize";

// IsNamespace: the core/v1 Namespace.
bool IsNamespace(const api::KindInfo* kind);
// IsTerminating reports whether a Namespace's status.phase is Terminating.
bool IsTerminating(const api::Json& ns);
// HasSpecFinalizers reports whether a Namespace's spec.finalizers is non-empty.
bool HasSpecFinalizers(const api::Json& ns);

// PrepareNamespaceForCreate sets status.phase Active and adds the kubernetes finalizer to
// spec.finalizers when absent (strategy.go PrepareForCreate).
void PrepareNamespaceForCreate(api::Json& ns);
// KeepSpecFinalizers copies spec.finalizers from stored into next: the main endpoint cannot
// change them (strategy.go PrepareForUpdate).
void KeepSpecFinalizers(const api::Json& stored, api::Json& next);
// MarkTerminating is the first DELETE of a Namespace: deletionTimestamp `now` and phase
// Terminating (storage.go Delete).
void MarkTerminating(api::Json& ns, const std::string& now);

// TerminatingConflict is the 409 of a DELETE while the namespace still waits on its
// spec.finalizers.
base::Status TerminatingConflict(const std::string& name);
// TerminatingForbidden is NamespaceLifecycle admission's 403 for a create in a Terminating
// namespace; `name` is the object's name (or its generateName prefix).
base::Status TerminatingForbidden(const api::KindInfo& kind, const std::string& name,
                                  const std::string& ns);

}  // namespace apiserver::internal
