#pragma once
// RayClusterPods: once quiet, every RayCluster that is not being deleted has exactly its desired
// Pods — one head (none when suspended) and, per worker group, replicas clamped to
// [minReplicas, maxReplicas] times numOfHosts (none when the group or cluster is suspended) —
// and its status counts (desired/ready/available workers) match them; observedGeneration may
// lag (see the .cc) but never leads.
// Mirrors KubeRay ray-operator/controllers/ray/raycluster_controller.go (reconcilePods,
// calculateStatus) and utils/util.go GetWorkerGroupDesiredReplicas, re-derived from the spec
// here rather than calling the operator's code, so a bug there cannot hide itself.
// Simplified: clusters with in-tree autoscaling are skipped (the autoscaler owns replicas).
// Single-threaded.

#include "core/check/invariant.h"

namespace check {

class RayClusterPods : public Invariant {
 public:
  const char* name() const override { return "raycluster-pods"; }
  const char* statement() const override {
    return "after quiet, every RayCluster has exactly its desired Pods and a status that counts "
           "them";
  }
  bool quiet_only() const override { return true; }
  void Check(const State& state, std::vector<Violation>* out) override;
};

}  // namespace check
