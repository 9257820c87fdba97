#pragma once
// Patch objects: what controller-runtime's client.Patch(ctx, obj, patch) sends — a patch type and
// a body worked out from the object being patched.
//  - MergeFrom(base): a JSON merge patch of what changed from base to obj. No resourceVersion
//    in it, so the server applies it to whatever is stored (last writer wins).
//  - MergeFromWithOptions(base, MergeFromWithOptimisticLock{}): the same plus base's
//    resourceVersion, so a patch computed from a stale base fails with 409 Conflict.
//  - StrategicMergeFrom(base[, MergeFromWithOptimisticLock{}]): the two-way strategic merge patch
//    (keyed lists diffed element by element); the API server answers 415 for custom resources.
//  - Merge: obj itself as a merge patch. Apply: obj as a server-side apply configuration.
//  - RawPatch(type, body): a body you wrote.
// Mirrors: controller-runtime pkg/client/patch.go (mergeFromPatch.Data, MergeFromOptions),
// evanphx/json-patch v5 CreateMergePatch, apimachinery strategicpatch.CreateTwoWayMergePatch,
// pkg/client/typed_client.go Patch (obj's kind, namespace and name address the request).
// Simplified: objects here are JSON maps, so the bodies are byte for byte what controller-runtime
// sends for unstructured.Unstructured objects (Go's encoding/json with sorted keys; api/go_json.h);
// for a typed Go struct, Merge's and Apply's bodies would list fields in struct order. The error
// for an optimistic lock on an object without resourceVersion names it by namespace/name, where
// Go prints the whole object with %q.
// Pure computation plus one request per PatchObject call; single-threaded.

#include <memory>
#include <string>

#include "core/api/object.h"
#include "core/base/status.h"
#include "core/client/client.h"

namespace client {

// Patch is upstream's client.Patch interface.
class Patch {
 public:
  virtual ~Patch() = default;
  virtual PatchType Type() const = 0;
  // Data is the request body for obj, exactly as sent.
  virtual base::StatusOr<std::string> Data(const api::Json& obj) const = 0;
};
using PatchPtr = std::shared_ptr<const Patch>;

// MergeFromOptions is upstream's struct: OptimisticLock puts base's resourceVersion in the patch.
struct MergeFromOptions {
  bool optimistic_lock = false;
};

// MergeFromWithOptimisticLock{} is the option that sets optimistic_lock (upstream's type).
struct MergeFromWithOptimisticLock {
  operator MergeFromOptions() const { return MergeFromOptions{true}; }
};

PatchPtr MergeFrom(api::Json base);
PatchPtr MergeFromWithOptions(api::Json base, MergeFromOptions options);
PatchPtr StrategicMergeFrom(api::Json base, MergeFromOptions options = {});
// Merge is client.Merge: json.Marshal(obj) as a merge patch.
PatchPtr Merge();
// Apply is client.Apply: json.Marshal(obj) as application/apply-patch+yaml.
PatchPtr Apply();
PatchPtr RawPatch(PatchType type, std::string body);

// ContentType is the request's Content-Type for type ("application/merge-patch+json", …).
const char* ContentType(PatchType type);

// PatchObject is client.Patch(ctx, obj, patch): the body patch.Data(obj) sent for obj's kind,
// namespace and name. Errors from Data come back before any request is made.
base::StatusOr<api::ObjectPtr> PatchObject(Client& client, const api::Json& obj,
                                           const Patch& patch);
// PatchObjectStatus is client.Status().Patch(ctx, obj, patch): the same against /status.
base::StatusOr<api::ObjectPtr> PatchObjectStatus(Client& client, const api::Json& obj,
                                                 const Patch& patch);

}  // namespace client
