#pragma once
// controllerutil: the helpers almost every reconciler calls — set an owner (or the one
// controller) reference on an object it creates, create-or-update an object in one call, and
// add or remove a finalizer on the in-memory object before writing it back.
// Mirrors: controller-runtime pkg/controller/controllerutil/controllerutil.go (v0.24):
// SetControllerReference, SetOwnerReference, WithBlockOwnerDeletion, AlreadyOwnedError,
// CreateOrUpdate, CreateOrPatch, OperationResult, AddFinalizer, RemoveFinalizer,
// ContainsFinalizer.
// Simplified: objects are api::Json documents, as controller-runtime's unstructured.Unstructured
// (so "deep equal" is JSON equality); the scheme is the kind registry (api::FindKindFor); Go's
// MutateFn closure over obj receives obj as a parameter; Go's (OperationResult, error) pair is
// OperationOutcome; AlreadyOwnedError is a kInvalid status recognised by IsAlreadyOwned.
// RemoveOwnerReference, RemoveControllerReference and HasOwnerReference are not offered.
// Single-threaded; no time. Only CreateOrUpdate and CreateOrPatch call the API (through c).

#include <functional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/status.h"
#include "core/client/client.h"

namespace controllerutil {

// OwnerReferenceOption edits the reference SetControllerReference / SetOwnerReference is about
// to write (the JSON object {apiVersion, kind, name, uid, ...}). mirrors OwnerReferenceOption
using OwnerReferenceOption = std::function<void(api::Json& ref)>;

// WithBlockOwnerDeletion sets blockOwnerDeletion to block (explicitly, even when false), e.g. to
// let foreground deletion of the owner proceed without waiting for this dependent.
// mirrors controllerutil.go WithBlockOwnerDeletion
OwnerReferenceOption WithBlockOwnerDeletion(bool block);

// SetControllerReference makes owner the controller of controlled: it writes the reference
// {apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true} (then opts) into
// controlled's metadata.ownerReferences, so the garbage collector deletes controlled with its
// owner and an Owns() watch maps controlled's events back to the owner.
// A reference to the same object — same group, kind and name; version and uid are ignored —
// is replaced in place (upsert); otherwise the reference is appended.
// Errors (all kInvalid, messages as upstream):
// - owner is not a JSON object: "<type> is not a runtime.Object, cannot call
//   SetControllerReference";
// - owner namespaced, controlled not: "cluster-scoped resource must not have a namespace-scoped
//   owner, owner's namespace <ns>";
// - different namespaces: "cross-namespace owner references are disallowed, owner's namespace
//   <a>, obj's namespace <b>";
// - owner without kind / version, or a kind the registry does not serve (the scheme check);
// - controlled already has a controller reference to another object: the AlreadyOwnedError
//   "Object <ns>/<name> is already owned by another <Kind> controller <name>".
// On error controlled is unchanged. mirrors controllerutil.go SetControllerReference
base::Status SetControllerReference(const api::Json& owner, api::Json& controlled,
                                    const std::vector<OwnerReferenceOption>& opts = {});

// SetOwnerReference adds (or replaces, by the same group+kind+name rule) a plain owner reference
// {apiVersion, kind, name, uid}: no controller or blockOwnerDeletion flag, and no
// already-owned check, since an object may have many owners but only one controller. Errors as
// SetControllerReference, with "cannot call SetOwnerReference".
// mirrors controllerutil.go SetOwnerReference
base::Status SetOwnerReference(const api::Json& owner, api::Json& object,
                               const std::vector<OwnerReferenceOption>& opts = {});

// IsAlreadyOwned is Go's errors.As(err, &AlreadyOwnedError{}): the status SetControllerReference
// returns when another object already controls the target.
bool IsAlreadyOwned(const base::Status& status);

// OperationResult says what CreateOrUpdate / CreateOrPatch did; its name completes the sentence
// "Deployment default/foo has been ...". mirrors controllerutil.go OperationResult
enum class OperationResult {
  kNone,               // "unchanged": no API write
  kCreated,            // "created"
  kUpdated,            // "updated"
  kUpdatedStatus,      // "updatedStatus": the object and its status were patched
  kUpdatedStatusOnly,  // "updatedStatusOnly": only the status was patched
};
// OperationResultName returns upstream's string ("unchanged", "created", ...).
const char* OperationResultName(OperationResult result);

// OperationOutcome is Go's (OperationResult, error) pair: CreateOrPatch can report "updated"
// together with the error of the status patch that followed. Intentionally copyable.
struct [[nodiscard]] OperationOutcome {
  OperationResult result = OperationResult::kNone;
  base::Status error;

  bool ok() const { return error.ok(); }
};

// MutateFn moves obj toward the desired state; it runs on the object as read from the server
// (or, when absent, on the caller's skeleton) and must not change its name or namespace.
// mirrors controllerutil.go MutateFn (which closes over obj instead of receiving it)
using MutateFn = std::function<base::Status(api::Json& obj)>;

// CreateOrUpdate reads obj (identified by its kind, metadata.namespace and metadata.name)
// through c. Absent: it runs f on the skeleton and creates it ("created"). Present: obj becomes
// the stored object, f runs on it, and if the result differs from what was read (JSON equality,
// status included) it is written with Update ("updated"), else nothing is written ("unchanged").
// After a write obj holds the server's answer. Any error returns "unchanged" with the error: a
// Get error other than NotFound, f's error, "MutateFn cannot mutate object name and/or object
// namespace" (kInvalid), or the write's error (a stale read is 409 Conflict).
// NOTE: c's reads may come from a cache, so an update can conflict; and f clearing a field the
// server defaults makes every call an update (upstream's WARNING).
// mirrors controllerutil.go CreateOrUpdate
OperationOutcome CreateOrUpdate(client::Client& c, api::Json& obj, const MutateFn& f);

// CreateOrPatch is CreateOrUpdate with JSON merge patches instead of Update: when obj outside
// status changed it sends CreateMergePatch(read, mutated) to the main resource ("updated"); when
// status changed it then sends the status difference to /status ("updatedStatus", or
// "updatedStatusOnly" without a main patch). Status set by f on a created object is dropped by
// the server (create ignores status). An error after the main patch is returned with "updated".
// mirrors controllerutil.go CreateOrPatch
OperationOutcome CreateOrPatch(client::Client& c, api::Json& obj, const MutateFn& f);

// AddFinalizer appends finalizer to metadata.finalizers unless present; returns whether it
// changed obj. Like the other finalizer helpers it only edits the document: an Update or Patch
// must follow. mirrors controllerutil.go AddFinalizer
bool AddFinalizer(api::Json& obj, const std::string& finalizer);
// RemoveFinalizer removes every occurrence of finalizer; returns whether any was removed. A
// present list that becomes empty stays as []. mirrors controllerutil.go RemoveFinalizer
bool RemoveFinalizer(api::Json& obj, const std::string& finalizer);
// ContainsFinalizer reports whether metadata.finalizers holds finalizer.
// mirrors controllerutil.go ContainsFinalizer
bool ContainsFinalizer(const api::Json& obj, const std::string& finalizer);

}  // namespace controllerutil
