#pragma once
// CachesMatch: once quiet, every synced informer's local store holds exactly the API server's
// objects in its scope, at the same resourceVersions — no object lost or duplicated on the way
// from the store through the watch into a cache.
// Mirrors client-go tools/cache's contract (reflector.go + delta_fifo.go + shared_informer.go:
// the indexer converges to the server's state).
// Single-threaded.

#include "core/check/invariant.h"

namespace check {

class CachesMatch : public Invariant {
 public:
  const char* name() const override { return "caches-match"; }
  const char* statement() const override {
    return "after quiet, every informer cache equals the API server's objects in its scope";
  }
  bool quiet_only() const override { return true; }
  void Check(const State& state, std::vector<Violation>* out) override;
};

}  // namespace check
