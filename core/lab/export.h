#pragma once
// Export: the learner's objects as clean manifests that `kubectl apply -f DIR` accepts on a real
// cluster with KubeRay installed, plus a README with the commands to get there (issue 4).
//
// Which objects: "user-created" means the most recent successful create of that kind, namespace
// and name in the trace is an `api.request` by `kubernetes-admin` with cause 0 — a learner's
// `apply`/`create` command (DESIGN.md: every learner command's requests have cause 0). The
// operator install and the system namespaces are created while the trace is muted, and
// controllers, the world and the garbage collector use their own identities, so none of their
// objects qualify; an object the learner created and a controller later re-created under the same
// name is the controller's. Objects being deleted are skipped.
//
// Clean: metadata.{uid, resourceVersion, generation, creationTimestamp, managedFields, selfLink,
// deletionTimestamp, deletionGracePeriodSeconds} and status are dropped, as are every
// ownerReference (the new cluster assigns new uids, and a reference to a uid that does not exist
// there makes its garbage collector delete the object), the last-applied annotation, fields the cluster
// allocates (Service spec.clusterIP/clusterIPs unless headless, a Pod's spec.nodeName, a
// Deployment's revision annotation) and finalizers a controller added (those missing from the
// learner's last-applied configuration). `sim.reconcile-lab.io/` annotations are kept, as
// DESIGN.md's contract says (a real cluster ignores them, and re-importing the folder gives the
// sandbox the same world); the README lists them.
//
// No Go counterpart (the closest is `kubectl get -o yaml` followed by hand-editing).
// Teaching: a real cluster defaults more fields than we do; those are harmless in a manifest.
// Single-threaded; reads the simulation, never the file system (the command writes the files).

#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/lab/simulation.h"

namespace lab {

// ExportedFile is one file of an export: a bare file name and its text.
struct ExportedFile {
  std::string name;
  std::string content;
};

// LearnerCreatedObjects lists the live objects the learner created (rule above), in apply order:
// Namespaces, then built-in kinds, then KubeRay (ray.io) kinds, then other custom resources;
// within a kind by namespace, then name.
std::vector<api::ObjectPtr> LearnerCreatedObjects(Simulation& sim);

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

// ExportManifests renders the learner's objects as `NN-kind-name.yaml` files in apply order,
// followed by README.md, whose commands name the folder as `dir`. Same state, same bytes.
std::vector<ExportedFile> ExportManifests(Simulation& sim, const std::string& dir);

}  // namespace lab
