#pragma once
// Invariant: one property of the whole system, stated in one line and checked against a
// read-only State the checker gathers after a scheduler step (or after the run went quiet).
// No Go counterpart (TigerBeetle's VOPR checkers, FoundationDB's workload `check` phase).
// Teaching: every invariant reads only what a State holds, so a test can hand it a deliberately
// broken State (a fake watcher, a queue with a duplicate key) and see it fire.
// Single-threaded; invariants may keep cursors between calls (e.g. how far a watch was checked).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/check/recorder.h"
#include "core/check/violation.h"
#include "core/controller/controller.h"
#include "core/workqueue/interface.h"

namespace check {

// QueueState is one running controller's queue ("kuberay-operator/<pod>/raycluster").
struct QueueState {
  std::string controller;
  workqueue::QueueSnapshot snapshot;
};

// WorkerSet is one running controller's worker slots.
struct WorkerSet {
  std::string controller;
  std::vector<controller::WorkerState> workers;
};

// CacheState is one synced informer's local store and the scope it watches.
struct CacheState {
  std::string informer;   // the informer's name ("kuberay-operator/<pod>/pod-informer")
  std::string kind;
  std::string namespace_;       // "" = every namespace
  std::string label_selector;   // "" = everything
  std::vector<api::ObjectPtr> objects;
};

// State is what one check reads.
struct State {
  uint64_t step = 0;
  bool quiet = false;                        // true for CheckQuiet
  const Recorder* recorder = nullptr;        // never null when checked
  std::vector<api::ObjectPtr> objects;       // the API server's store, every kind
  std::vector<QueueState> queues;
  std::vector<WorkerSet> workers;
  std::vector<CacheState> caches;            // filled for quiet checks only
};

class Invariant {
 public:
  virtual ~Invariant() = default;
  // name is short and stable ("watch-order"); statement is the one-line property.
  virtual const char* name() const = 0;
  virtual const char* statement() const = 0;
  // quiet_only invariants hold only once the system has settled (run by CheckQuiet).
  virtual bool quiet_only() const { return false; }
  // Check appends a Violation per broken instance.
  virtual void Check(const State& state, std::vector<Violation>* out) = 0;
};

// AllInvariants returns one of each invariant, per-step ones first.
std::vector<std::unique_ptr<Invariant>> AllInvariants();

}  // namespace check
