#pragma once
// Steering: the race explorer's choice points, named and numbered so a schedule can be pinned
// and replayed. Four kinds: `order` (several events due at one instant: which runs first),
// `worker` (the same, between worker slots of one controller: MaxConcurrentReconciles > 1),
// `replica` (the same, between two operator replicas' events) and `lag` (a watch delivery to an
// operator's informer arrives on time or `lag` later, so a reconcile may read a stale cache).
// Option 0 is always what an unsteered simulation does, so an all-default schedule leaves the
// trace byte-identical.
// No Go counterpart; follows CHESS (Musuvathi et al., OSDI 2008): choice points made explicit
// and enumerated, with schedules bounded by how many non-default choices they make.
// Simplified: the kind of an ordering choice is read from the events' labels (see
// ClassifyOrder); lag has two options (on time, or late by one fixed bound).
// Single-threaded; Decide is called from inside Scheduler::Step and ApiServer deliveries.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/base/time.h"
#include "core/sim/scheduler.h"

namespace sim {

enum class ChoiceKind { kOrder, kWorker, kReplica, kLag };

// ChoiceKindName is the kind as `schedule show` and the explorer print it ("order", "lag", …).
const char* ChoiceKindName(ChoiceKind kind);

// ChoicePoint is one decision a run made.
struct ChoicePoint {
  ChoiceKind kind = ChoiceKind::kOrder;
  base::SimTime at = 0;
  std::vector<std::string> options;  // what each option means; option 0 is the default
  size_t chosen = 0;
  uint64_t fingerprint = 0;  // the state it was reached in (the explorer's deduplication)
};

class Steering {
 public:
  // Pin starts recording choice points: the i-th from now takes pins[i] when present, else the
  // default 0. lag is how late a lagged delivery arrives. Clears the record.
  void Pin(std::map<size_t, size_t> pins, base::Duration lag);
  // Stop ends the window: later choice points are neither recorded nor steered.
  void Stop() { active_ = false; }
  bool active() const { return active_; }
  base::Duration lag() const { return lag_; }

  // Decide records one choice point and returns the option it takes. A pinned value out of
  // range falls back to 0 and counts in mismatches() (a schedule replayed on another script).
  size_t Decide(ChoiceKind kind, base::SimTime at, std::vector<std::string> options);

  const std::vector<ChoicePoint>& points() const { return points_; }
  const std::map<size_t, size_t>& pins() const { return pins_; }
  size_t mismatches() const { return mismatches_; }
  // SetFingerprint installs what Decide stores as each point's fingerprint (0 without one).
  void SetFingerprint(std::function<uint64_t()> fingerprint) {
    fingerprint_ = std::move(fingerprint);
  }

 private:
  bool active_ = false;
  base::Duration lag_ = 0;
  std::map<size_t, size_t> pins_;
  std::vector<ChoicePoint> points_;
  size_t mismatches_ = 0;
  std::function<uint64_t()> fingerprint_;
};

// ClassifyOrder names a same-instant choice: kWorker when two of the events are worker slots of
// one controller ("<controller> worker N …"), kReplica when they are deliveries to informers of
// two operator replicas ("watch deliver <pod>/<kind>-informer"), else kOrder.
ChoiceKind ClassifyOrder(const std::vector<PendingEvent>& due);

}  // namespace sim
