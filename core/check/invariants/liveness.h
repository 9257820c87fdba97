#pragma once
// Liveness invariants: once the faults have healed and the quiet phase has run, work that was
// started must have finished or still be visibly moving. A lost watch, a dropped event or a
// controller that gave up shows up here as an object stuck half-way, long after the world that
// stalled it recovered.
// - RayJobSettles: every RayJob that is not being deleted is terminal (Complete, Failed,
//   ValidationFailed), Suspended, or its Ray job is PENDING or RUNNING on the dashboard. A
//   RayJob Running with no job status was never submitted: its submitter stalled.
//   Mirrors KubeRay ray-operator/controllers/ray/rayjob_controller.go (the JobDeploymentStatus
//   state machine) and utils/constant.go (the terminal statuses).
// - NamespaceFinishes: a Namespace in phase Terminating still holds something that blocks it
//   (an object being deleted whose finalizers have not run yet): a Terminating namespace that
//   is empty, or whose contents are not even being deleted, was forgotten by the namespace
//   controller. Mirrors kubernetes pkg/controller/namespace/deletion/namespaced_resources_deleter.go.
// Single-threaded.

#include "core/check/invariant.h"

namespace check {

class RayJobSettles : public Invariant {
 public:
  const char* name() const override { return "rayjob-settles"; }
  const char* statement() const override {
    return "after quiet, every RayJob is terminal, suspended, or its Ray job is pending or "
           "running";
  }
  bool quiet_only() const override { return true; }
  void Check(const State& state, std::vector<Violation>* out) override;
};

class NamespaceFinishes : public Invariant {
 public:
  const char* name() const override { return "namespace-finishes"; }
  const char* statement() const override {
    return "after quiet, no Namespace stays Terminating unless an object being deleted in it "
           "still has finalizers";
  }
  bool quiet_only() const override { return true; }
  void Check(const State& state, std::vector<Violation>* out) override;
};

}  // namespace check
