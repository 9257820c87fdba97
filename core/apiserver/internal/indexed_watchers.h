#pragma once
// IndexedWatchers: the watchers of one kind, split by whether their field selector pins the
// kind's trigger field (a Pod's spec.nodeName) to one value. A change is offered to every
// watcher of allWatchers and only to the valueWatchers of the values the object had before and
// after the change, so 100 kubelets each watching their own node's Pods cost one lookup per Pod
// write, not 100 filter evaluations.
// Mirrors: apiserver pkg/storage/cacher/cacher.go (indexedWatchers: allWatchers, valueWatchers;
// dispatchEvent gathering the watchers of the event's trigger values) and
// kubernetes pkg/registry/core/pod/strategy.go (NodeNameTriggerFunc: Pods index spec.nodeName).
// Simplified: one trigger field per kind, and only Pods have one, as upstream.
// Single-threaded; candidates come out in watch id order, so deliveries are scheduled in the
// order a scan of every watcher would schedule them.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/apiserver/internal/filters.h"

namespace apiserver::internal {

// TriggerField is the field selector field a kind's watchers are indexed by ("" = none).
const std::string& TriggerField(const std::string& kind);
// TriggerValue reads the trigger field from an object of that kind (absent reads as "").
std::string TriggerValue(const std::string& kind, const api::Json& obj);

class IndexedWatchers {
 public:
  // Add files a watcher under `value` when the watcher's selector requires the trigger field to
  // equal it (supported, in upstream's words), else under allWatchers.
  void Add(uint64_t id, const std::optional<std::string>& value);
  // Remove undoes Add with the same arguments.
  void Remove(uint64_t id, const std::optional<std::string>& value);
  // Candidates replaces *out with the ids of every watcher that an object whose trigger values
  // are `values` may match, ascending and without duplicates.
  void Candidates(const std::vector<std::string>& values, std::vector<uint64_t>* out) const;
  bool empty() const { return all_watchers_.empty() && value_watchers_.empty(); }

 private:
  std::set<uint64_t> all_watchers_;
  std::map<std::string, std::set<uint64_t>> value_watchers_;  // Invariant: no empty set.
};

}  // namespace apiserver::internal
