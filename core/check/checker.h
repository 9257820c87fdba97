#pragma once
// Checker: runs every invariant (invariant.h) against a Simulation from outside it. Attached, it
// records the API server's commits and watch fan-out (apiserver::WatchObserver) and checks the
// per-step invariants after every scheduler event (Scheduler::SetStepObserver); CheckQuiet adds
// the invariants that hold only once the system has settled.
// No Go counterpart (TigerBeetle's VOPR, FoundationDB's simulation checkers).
// Teaching: the checker never changes the simulation — no PRNG draws, no scheduler events, no
// trace records — so a checked run's trace hash equals an unchecked run's (a test asserts it).
// Single-threaded. Stable API: the race explorer (core/lab's neighbours) reuses it.
//
//   lab::Lab session(options);
//   check::Checker checker;
//   checker.Attach(session);           // from now on every scheduler step is checked
//   session.RunScript(text, ".", false, nullptr);
//   checker.CheckQuiet();
//   if (!checker.violations().empty()) std::cout << checker.violations()[0].ToString();

#include <cstdint>
#include <memory>
#include <vector>

#include "core/check/invariant.h"
#include "core/check/recorder.h"
#include "core/check/violation.h"

namespace lab {
class Lab;
class Simulation;
}  // namespace lab

namespace check {

struct CheckerOptions {
  // check_every_step runs the per-step invariants after every scheduler event. Defaults to true;
  // false leaves CheckStep to the caller (the race explorer calls it at its own points).
  bool check_every_step = true;
  // stop_after is how many violations are kept before checking stops. Defaults to 20.
  size_t stop_after = 20;
};

class Checker {
 public:
  // Checker checks AllInvariants(); the second form checks the given ones (the race explorer
  // passes its scenario's, after AllInvariants() when it checks the machinery too).
  explicit Checker(CheckerOptions options = {});
  Checker(CheckerOptions options, std::vector<std::unique_ptr<Invariant>> invariants);
  ~Checker();  // detaches
  Checker(const Checker&) = delete;
  Checker& operator=(const Checker&) = delete;

  // Attach starts observing sim (or lab.sim()). REQUIRES: not attached; sim outlives the
  // attachment (call Detach or destroy the Checker first).
  void Attach(lab::Lab& lab);
  void Attach(lab::Simulation& sim);
  void Detach();
  bool attached() const { return sim_ != nullptr; }

  // CheckStep runs the per-step invariants now; returns the violations it found.
  std::vector<Violation> CheckStep();
  // CheckQuiet runs every invariant, the settled-state ones included; returns what it found.
  std::vector<Violation> CheckQuiet();

  // violations is everything found so far (up to options.stop_after).
  const std::vector<Violation>& violations() const { return violations_; }
  bool ok() const { return violations_.empty(); }
  // steps_checked counts CheckStep runs (automatic and explicit).
  uint64_t steps_checked() const { return steps_checked_; }
  const Recorder& recorder() const { return recorder_; }
  // invariants lists the invariants in the order they run.
  const std::vector<std::unique_ptr<Invariant>>& invariants() const { return invariants_; }

 private:
  std::vector<Violation> Run(bool quiet);
  State Gather(bool quiet);

  CheckerOptions options_;
  lab::Simulation* sim_ = nullptr;
  Recorder recorder_;
  std::vector<std::unique_ptr<Invariant>> invariants_;
  std::vector<Violation> violations_;
  uint64_t steps_checked_ = 0;
};

}  // namespace check
