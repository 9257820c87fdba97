#pragma once
// Runnable: anything the manager starts — controllers, and the manager's own helpers.
// Mirrors: controller-runtime pkg/manager/manager.go (Runnable, LeaderElectionRunnable).
// Simplified: Start returns at once; work continues as scheduler events.
// Single-threaded.

#include "core/base/status.h"

namespace manager {

class Runnable {
 public:
  virtual ~Runnable() = default;
  // Start begins the runnable's work (scheduled in virtual time).
  virtual base::Status Start() = 0;
  // Stop ends it (the manager's context is cancelled).
  virtual void Stop() = 0;
  // NeedLeaderElection: start only while this replica holds the lease. Defaults to true.
  virtual bool NeedLeaderElection() const { return true; }
};

}  // namespace manager
