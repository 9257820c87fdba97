#pragma once
// WatchOrder: every watcher receives exactly what the API server queued for it, in commit order,
// with strictly increasing resourceVersions — nothing lost, duplicated or reordered on the way.
// Mirrors the guarantee of apiserver's cacheWatcher (one ordered stream per watch) that
// client-go's reflector relies on (tools/cache/reflector.go watchHandler).
// Single-threaded; keeps a cursor per watch so each delivery is checked once.

#include <map>

#include "core/check/invariant.h"

namespace check {

class WatchOrder : public Invariant {
 public:
  const char* name() const override { return "watch-order"; }
  const char* statement() const override {
    return "every watcher sees its events in commit order, none lost or repeated, with "
           "strictly increasing resourceVersions";
  }
  void Check(const State& state, std::vector<Violation>* out) override;

 private:
  std::map<apiserver::WatchId, size_t> checked_;  // deliveries already checked per watch
};

// WatchComplete: the server queues to each watch exactly the changes in its scope (kind,
// namespace, label selector; leaving the selector is a DELETED), as the recorder's own model of
// the store computes them.
class WatchComplete : public Invariant {
 public:
  const char* name() const override { return "watch-complete"; }
  const char* statement() const override {
    return "every change in a watch's scope is queued to it exactly once, in commit order";
  }
  void Check(const State& state, std::vector<Violation>* out) override;

 private:
  std::map<apiserver::WatchId, size_t> checked_;
};

}  // namespace check
