#pragma once
// Strategic merge patch: a JSON merge patch that knows which lists of the built-in kinds are keyed
// maps (containers by name, env by name, ports by containerPort, ...), so a patch can add or change
// one element instead of replacing the list. Also the three-way patch kubectl client-side apply
// computes from last-applied, the new manifest and the live object.
// Mirrors: apimachinery pkg/util/strategicpatch/patch.go (StrategicMergeMapPatch, mergeMap,
// mergeSlice, normalizeElementOrder, CreateThreeWayMergePatch), the patchStrategy/patchMergeKey
// struct tags of k8s.io/api, and kubectl apply's patcher (jsonmergepatch for custom resources).
// Simplified:
//  - Teaching: patch metadata comes from a small table of (kind, field path) rules instead of Go
//    struct tags; a list not in the table is replaced, as an untagged Go field is.
//  - A key the target lacks takes the patch value merged into an empty value, so directives and
//    nulls never leak into the result (older apimachinery copied them verbatim).
//  - The three-way patch is computed in one pass rather than as deletions + delta patches merged
//    together; it emits the same directives ($patch: delete, $setElementOrder,
//    $deleteFromPrimitiveList) but no $retainKeys, and never reports conflicts (overwrite=true).
//  - Ordering follows apimachinery: items named in the patch keep the patch's order and new items
//    are placed before server-only items unless the live order says otherwise (so adding a
//    container puts it first, as the Kubernetes docs show).
// Single-threaded; no time. Never throws.

#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/status.h"

namespace api {

// PatchMeta is what a struct tag says about one field: how its list merges.
struct PatchMeta {
  enum class Strategy {
    kReplace,          // the patch's list replaces the target's (no patchStrategy tag)
    kMergeByKey,       // patchStrategy:"merge" patchMergeKey:"<merge_key>" on a list of maps
    kMergePrimitives,  // patchStrategy:"merge" on a list of scalars: a set union, order kept
  };
  Strategy strategy = Strategy::kReplace;
  std::string merge_key;  // for kMergeByKey
  // retain_keys: patchStrategy:"merge,retainKeys" (a Pod's volumes and resourceClaims): a two-way
  // patch lists the keys each changed element keeps in $retainKeys.
  bool retain_keys = false;
};

// LookupPatchMeta returns the strategy for the list at path (field names from the object root,
// list indices left out: {"spec","template","spec","containers","env"}) in an object of kind.
// Rules are "field name + being under a PodSpec / ObjectMeta": a PodSpec is `spec` of a Pod,
// `template.spec` of a PodTemplate, `spec.template.spec` of Deployment, ReplicaSet,
// ReplicationController, Job, DaemonSet and StatefulSet, and `spec.jobTemplate.spec.template.spec`
// of a CronJob. mirrors forkedjson.LookupPatchMetadata over the k8s.io/api struct tags.
PatchMeta LookupPatchMeta(const std::string& kind, const std::vector<std::string>& path);

// ApplyStrategicMergePatch applies patch to target (an object of the built-in kind) the way
// kube-apiserver does for `application/strategic-merge-patch+json`: like a merge patch, except
// that merge lists merge by key (an element matching no target element is added, `$patch: delete`
// in an element removes the keyed element), primitive merge lists are unions, `$patch: replace`
// on a map or in a list replaces it, `$patch: delete` on a map removes it, `$retainKeys` clears
// unlisted keys, `$setElementOrder/<field>` orders a list and `$deleteFromPrimitiveList/<field>`
// removes scalars. Errors: kBadRequest for a patch that is not an object or a malformed directive;
// kUnsupportedMediaType when kind is not a built-in kind (custom resources have no struct tags);
// kInternal for a list element without its merge key (the API server answers 500:
// `map: map[image:nginx] does not contain declared merge key: name`).
base::StatusOr<Json> ApplyStrategicMergePatch(const std::string& kind, const Json& target,
                                              const Json& patch);

// CreateThreeWayMergePatch returns the patch `kubectl apply` sends: deletions are the fields of
// original (the last-applied configuration) that modified no longer sets; changes are the fields
// of modified that differ from current (the live object). Fields only the server or another
// writer set (in current but never in original) are left alone. With strategic=true, merge lists
// are diffed element by element (by merge key) for kind; with strategic=false (custom resources)
// every list is sent whole and the result is a JSON merge patch. {} means "unchanged".
// NOTE: never fails: a list element without its merge key makes the whole list go into the patch,
// and the API server then reports the missing key as kubectl shows it.
Json CreateThreeWayMergePatch(const std::string& kind, const Json& original, const Json& modified,
                              const Json& current, bool strategic);

// CreateTwoWayMergePatch returns the strategic merge patch that turns original into modified,
// as controller-runtime's client.StrategicMergeFrom computes it (strategicpatch
// CreateTwoWayMergePatch with SetElementOrder): changed fields, nulls for removed ones, keyed
// lists diffed by merge key with `$setElementOrder/<field>` and `{"$patch":"delete",key}` entries,
// primitive merge lists with `$deleteFromPrimitiveList/<field>`, `$retainKeys` for retainKeys
// fields; replace lists and custom resources' lists sent whole. A type change (1 → 1.5: int64 →
// float64 after decoding) replaces the value. {} means no change. Errors (kInternal, upstream's
// texts): a merge-list element without its merge key, mixed element types, lists of lists.
// NOTE: strategic_two_way.cc.
base::StatusOr<Json> CreateTwoWayMergePatch(const std::string& kind, const Json& original,
                                            const Json& modified);

}  // namespace api
