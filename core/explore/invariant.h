#pragma once
// Invariant: a predicate over a Simulation the race explorer checks after every scheduler step.
// No Go counterpart (CHESS and TigerBeetle's VOPR check a safety property after every step).
// Teaching: the explorer only reads; checking never schedules events, emits trace records or
// draws randomness, so a checked run's trace equals an unchecked one's.
// Single-threaded.

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lab {
class Simulation;
}  // namespace lab

namespace explore {

class Invariant {
 public:
  virtual ~Invariant() = default;
  // name is short and stable ("one-deployment-per-inferenceservice").
  virtual std::string name() const = 0;
  // statement is the property in one line.
  virtual std::string statement() const = 0;
  // Check returns what breaks the property now, or nothing when it holds.
  virtual std::optional<std::string> Check(lab::Simulation& sim) = 0;
};

// OneDeploymentPerInferenceService: an InferenceService controls at most one Deployment (the
// tutorial operator's contract; the stale-cache-create bug breaks it).
std::unique_ptr<Invariant> OneDeploymentPerInferenceService();

// DefaultInvariants lists the invariants `rlab explore` checks, in order.
std::vector<std::unique_ptr<Invariant>> DefaultInvariants();

}  // namespace explore
