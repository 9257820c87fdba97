#pragma once
// OneDeploymentPerInferenceService: an InferenceService controls at most one Deployment — the
// tutorial operator's contract, which its stale-cache-create bug breaks (two reconciles that both
// miss the first Deployment in a lagging cache each create one). The race explorer's default
// invariant; the seed sweep leaves it out (the sweep's scenarios do not steer the cache's lag).
// Mirrors the operator's reconcile contract in the seeds' InferenceService tutorial.
// Single-threaded.

#include <memory>

#include "core/check/invariant.h"

namespace check {

class OneDeploymentPerInferenceService : public Invariant {
 public:
  const char* name() const override { return "one-deployment-per-inferenceservice"; }
  const char* statement() const override {
    return "an InferenceService controls at most one Deployment";
  }
  void Check(const State& state, std::vector<Violation>* out) override;
};

}  // namespace check
