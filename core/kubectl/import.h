#pragma once
// Import: `apply -f` of objects read back from a cluster (`kubectl get rayclusters,pods,svc -o
// yaml`, a `kind: List` of live objects) becomes a clean starting state for the sandbox (issue 4).
//
// When: an apply runs as an import when any of its documents carries metadata only a server sets
// (uid, creationTimestamp or managedFields); a hand-written manifest never does. resourceVersion
// alone does not count: kubectl apply sends it, and a stale one is the optimistic-concurrency 409
// the conflicts lesson shows.
// What is kept: each object is cleaned as `export` cleans it (server-set metadata, status,
// allocated fields, controller-added finalizers go) but keeps its sandbox annotations.
// Children are dropped: an object whose controller ownerReference names an object in the bundle
// was made by a controller or an operator, which recreates it from its owner — so the starting
// state is the learner's intent, and the world and operators compute everything else, status
// included, as they do on a real cluster after a restore. Other ownerReferences are re-linked by
// kind, namespace and name to the new uids when the owner is in the bundle or already exists here,
// and dropped otherwise (a partial bundle must not make the garbage collector delete objects).
// All-or-nothing: every document is checked (kind served, name, namespace, schema, owner cycles)
// before the first write; an error changes nothing.
//
// No Go counterpart (the closest is a backup tool's restore, e.g. Velero's, which also skips
// owned children and lets controllers rebuild them).
// Single-threaded; reads the simulation's store without tracing (checks are not API requests).

#include <string>
#include <vector>

#include "core/api/kind.h"
#include "core/api/object.h"
#include "core/apiserver/api_server.h"
#include "core/base/status.h"

namespace kubectl {

// HasServerSetFields reports whether doc carries uid, creationTimestamp or managedFields in its
// metadata.
bool HasServerSetFields(const api::Json& doc);

// ImportItem is one object to apply, cleaned, with its owners' uids still to re-link.
struct ImportItem {
  const api::KindInfo* kind = nullptr;
  std::string ns;
  api::Json object;
};

// SkippedChild is an object left to its controller: "pod/x", controlled by "raycluster.ray.io/y".
struct SkippedChild {
  std::string object;
  std::string controller;
};

struct ImportPlan {
  std::vector<ImportItem> items;  // in apply order: Namespaces, then owners before dependents
  std::vector<SkippedChild> left_to_controllers;  // in bundle order
};

// PlanImport checks and orders docs (as decoded from `source`). flag_namespace is `-n`'s value
// when flag_set. Errors use kubectl's wording; nothing is written either way.
base::StatusOr<ImportPlan> PlanImport(const apiserver::ApiServer& server,
                                      std::vector<api::Json> docs, const std::string& source,
                                      const std::string& flag_namespace, bool flag_set);

// RelinkOwners rewrites each ownerReference's uid to the live owner's (same namespace, or
// cluster-scoped). REQUIRES: the owners of item exist (PlanImport's order guarantees it).
base::Status RelinkOwners(const apiserver::ApiServer& server, ImportItem& item);

}  // namespace kubectl
