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
// Clean: kubectl::CleanManifest (core/kubectl/clean.h); the README lists the
// `sim.reconcile-lab.io/` annotations kept.
//
// No Go counterpart (the closest is `kubectl get -o yaml` followed by hand-editing).
// Teaching: a real cluster defaults more fields than we do; those are harmless in a manifest.
// Single-threaded; reads the simulation, never the file system (the command writes the files).

#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/kubectl/clean.h"
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

// ExportManifests renders the learner's objects as `NN-kind-name.yaml` files in apply order,
// followed by README.md, whose commands name the folder as `dir`. Same state, same bytes.
std::vector<ExportedFile> ExportManifests(Simulation& sim, const std::string& dir);

}  // namespace lab
