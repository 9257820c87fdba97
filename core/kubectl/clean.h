#pragma once
// CleanManifest: an object as the server returned it, cut back to a manifest a learner could have
// written: what `export DIR` writes for a real cluster and what `apply -f` of a cluster's
// `kubectl get -o yaml` output applies (import.h).
//
// Clean: metadata.{uid, resourceVersion, generation, creationTimestamp, managedFields, selfLink,
// deletionTimestamp, deletionGracePeriodSeconds} and status are dropped, as are every
// ownerReference (the new cluster assigns new uids, and a reference to a uid that does not exist
// there makes its garbage collector delete the object), the last-applied annotation, fields the
// cluster allocates (Service spec.clusterIP/clusterIPs unless headless, a Pod's spec.nodeName, a
// Deployment's revision annotation) and finalizers a controller added (those missing from the
// learner's last-applied configuration). `sim.reconcile-lab.io/` annotations are kept, as
// DESIGN.md's contract says (a real cluster ignores them, and re-importing the folder gives the
// sandbox the same world).
//
// No Go counterpart (the closest is `kubectl get -o yaml` followed by hand-editing).
// Teaching: a real cluster defaults more fields than we do; those are harmless in a manifest.
// Single-threaded; a pure function of the object.

#include <string>
#include <vector>

#include "core/api/object.h"

namespace kubectl {

// CleanOptions says what CleanManifest keeps. Defaults give an export for a real cluster.
struct CleanOptions {
  // keep_owner_references keeps ownerReferences (uids included). Defaults to false.
  bool keep_owner_references = false;
  // keep_sandbox_annotations keeps sim.reconcile-lab.io/ annotations (export and import do).
  bool keep_sandbox_annotations = true;
};

// CleanManifest returns obj without what a server, controller or the sandbox set (rule above).
// sandbox_annotations, if given, receives the sim.reconcile-lab.io/ keys found (and removed
// unless options keep them).
api::Json CleanManifest(const api::Json& obj, const CleanOptions& options = {},
                        std::vector<std::string>* sandbox_annotations = nullptr);

}  // namespace kubectl
