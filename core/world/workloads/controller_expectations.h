#pragma once
// ControllerExpectations: how a controller avoids acting twice on a cache that has not yet seen
// its own writes. Before creating N Pods for a ReplicaSet it expects N creations; the Pod
// informer's add handler observes each; until all are observed (or five minutes pass) a sync of
// that ReplicaSet does not create or delete again. Deletions are expected by Pod key, so only
// the Pods this controller chose to delete count.
// Mirrors: kubernetes pkg/controller/controller_utils.go (ControllerExpectations,
// UIDTrackingControllerExpectations, ExpectationsTimeout, SatisfiedExpectations).
// Simplified: one class holds both the counts and the tracked deletion keys (upstream wraps the
// first in the second).
// Single-threaded; the timeout is virtual time.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/time.h"
#include "core/sim/clock.h"

namespace world {

// kExpectationsTimeout is how long unmet expectations hold a controller back (upstream's
// ExpectationsTimeout: a lost watch event must not stall it forever).
inline constexpr base::Duration kExpectationsTimeout = 5 * base::kMinute;

// ControllerExpectations tracks, per controller key, the creations and deletions a controller
// has asked for and not yet seen in its cache. clock must outlive this object.
class ControllerExpectations {
 public:
  explicit ControllerExpectations(const sim::Clock& clock) : clock_(clock) {}

  // SatisfiedExpectations is true when key has no record, every expected change was observed,
  // or the record is older than kExpectationsTimeout.
  bool SatisfiedExpectations(const std::string& key) const;
  // ExpectCreations records that adds creations are on their way (replacing any record).
  void ExpectCreations(const std::string& key, int64_t adds);
  // ExpectDeletions records the deletion of the objects with these keys (replacing any record).
  void ExpectDeletions(const std::string& key, const std::vector<std::string>& deleted_keys);
  // CreationObserved lowers key's expected creations by one (an add seen, or a create failed).
  void CreationObserved(const std::string& key);
  // DeletionObserved lowers key's expected deletions by one when deleted_key was expected.
  void DeletionObserved(const std::string& key, const std::string& deleted_key);
  // ObserveChange applies one change of an object that key's controller owns: an add is a
  // creation observed; an object newly marked for deletion, or deleted, is a deletion observed
  // (replica_set.go and job_controller.go addPod, updatePod, deletePod).
  void ObserveChange(const std::string& key, const api::ObjectPtr& old_obj,
                     const api::ObjectPtr& new_obj);
  // DeleteExpectations forgets key (its object was deleted).
  void DeleteExpectations(const std::string& key) { records_.erase(key); }

 private:
  struct Record {
    int64_t adds = 0;
    std::set<std::string> deletions;  // keys not yet seen deleted
    base::SimTime timestamp = 0;
  };
  const sim::Clock& clock_;
  std::map<std::string, Record> records_;
};

}  // namespace world
