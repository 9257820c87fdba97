#pragma once
// Patch: the two JSON patch formats every API server speaks — JSON merge patch (RFC 7386) and
// JSON patch (RFC 6902) — plus the two-way merge patch controller-runtime's client.MergeFrom sends.
// Mirrors: evanphx/json-patch merge.go (MergePatch, CreateMergePatch) and patch.go (Apply), as
// kube-apiserver pkg/endpoints/handlers/patch.go uses them; kubectl's patch argument parsing.
// Simplified: merge patch follows RFC 7386 exactly (evanphx additionally prunes nulls inside
// arrays of a non-object patch); JSON patch keeps evanphx v4's messages and its quirks that
// matter (negative array indices, "add" on an existing object key replaces it, and the
// AccumulatedCopySizeLimit kube-apiserver sets). Parsing is JSON only (kubectl also accepts
// YAML for -p). Patches and patched documents nest at most kMaxPatchDepth levels (Go's JSON
// decoder stops at 10000), so no recursive code here can exhaust the stack.
// Single-threaded; no time. Never throws: nlohmann's throwing accessors are not used.

#include <cstdint>
#include <string>

#include "core/api/object.h"
#include "core/base/status.h"

namespace api {

// ApplyMergePatch applies an RFC 7386 JSON merge patch: objects merge recursively, a null value
// deletes the key, arrays and scalars replace, and a patch that is not an object replaces the
// whole target. It cannot fail, which is why a merge patch can never express "set to null".
Json ApplyMergePatch(const Json& target, const Json& patch);

// CreateMergePatch returns the smallest RFC 7386 patch that turns original into modified: null
// for removed keys, changed leaves, and lists sent whole (a merge patch cannot address list
// elements). {} means no change. Mirrors controller-runtime client.MergeFrom.
Json CreateMergePatch(const Json& original, const Json& modified);

// kMaxJsonPatchOperations is kube-apiserver's limit on operations in one JSON patch.
inline constexpr int kMaxJsonPatchOperations = 10000;

// kJsonPatchMaxCopyBytes is kube-apiserver's default JSONPatchMaxCopyBytes (3 MiB): the most
// that "copy" operations of one JSON patch may add, in bytes of JSON (evanphx's
// AccumulatedCopySizeLimit). Without it a few copies of a list into itself grow the document
// exponentially (found by fuzz/patch.cc).
inline constexpr int64_t kJsonPatchMaxCopyBytes = 3 * 1024 * 1024;

// ApplyJsonPatch applies an RFC 6902 patch (add, remove, replace, move, copy, test; JSON pointers
// with ~0/~1 escapes; "-" appends). Errors carry kube-apiserver's codes and jsonpatch's messages:
// kBadRequest when the document is not a list of operations ("json: cannot unmarshal object into
// Go value of type jsonpatch.Patch"), kRequestEntityTooLarge over kMaxJsonPatchOperations, and
// kInvalid (422) when an operation does not apply, e.g.
// `add operation does not apply: doc is missing path: "/spec/foo": missing value`,
// `testing value /spec/x failed: test failed`, `Unexpected kind: badop`,
// `Unable to complete the copy, the accumulated size increase of copy is N, exceeding the
// limit 3145728`, or `add operation does not apply: the result would nest deeper than 200
// levels` (also for replace, move and copy).
// Operations apply in order; on error nothing of the patch is applied.
base::StatusOr<Json> ApplyJsonPatch(const Json& target, const Json& ops);

// kMaxPatchDepth bounds how deeply objects and arrays may nest in a patch, so the recursive code
// that copies, applies and destroys documents cannot exhaust the stack (as kMaxManifestDepth
// does for manifests; found by fuzz/patch.cc).
inline constexpr int kMaxPatchDepth = 200;

// ExceedsMaxPatchDepth reports whether objects and arrays in the JSON text nest deeper than
// kMaxPatchDepth (strings skipped; the text need not be valid JSON). Callers that parse JSON text
// on their own before merging it check this first.
bool ExceedsMaxPatchDepth(const std::string& text);

// ParsePatch parses the text of `kubectl patch -p` without exceptions. On bad input it returns
// kBadRequest with kubectl's shape, `unable to parse "<text>": <reason>`; the console adds the
// leading "error: " as kubectl does for client-side errors. The reason is nlohmann's (kubectl's
// would be the YAML parser's), or `exceeded max depth of 200` beyond kMaxPatchDepth.
base::StatusOr<Json> ParsePatch(const std::string& text);

}  // namespace api
