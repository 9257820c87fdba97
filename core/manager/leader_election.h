#pragma once
// LeaderElector: acquires and renews a coordination.k8s.io Lease so that only one operator
// replica runs its controllers.
// Mirrors: client-go tools/leaderelection/leaderelection.go (tryAcquireOrRenew, renew loop) and
// resourcelock/leaselock.go; controller-runtime's defaults LeaseDuration 15s, RenewDeadline 10s,
// RetryPeriod 2s.
// Simplified: no jitter on the retry period (JitterFactor 1.2 is validated, not applied) so runs
// stay deterministic; the clock is the simulation's, shared by every replica (no skew).
// Single-threaded; every attempt is a scheduler event.

#include <functional>
#include <string>

#include "core/base/time.h"
#include "core/client/client.h"
#include "core/sim/scheduler.h"

namespace manager {

struct LeaderElectionOptions {
  std::string lease_name;                               // e.g. "ray-operator-leader"
  std::string lease_namespace = "default";              // Defaults to "default".
  std::string identity;                                 // the replica's Pod name
  base::Duration lease_duration = 15 * base::kSecond;   // Defaults to 15s.
  base::Duration renew_deadline = 10 * base::kSecond;   // Defaults to 10s.
  base::Duration retry_period = 2 * base::kSecond;      // Defaults to 2s.
  bool release_on_cancel = false;                       // Defaults to false.
};

class LeaderElector {
 public:
  // client and scheduler must outlive this object.
  LeaderElector(client::Client& client, sim::Scheduler& scheduler, LeaderElectionOptions options,
                std::function<void()> on_started_leading, std::function<void()> on_stopped_leading);
  ~LeaderElector();
  LeaderElector(const LeaderElector&) = delete;
  LeaderElector& operator=(const LeaderElector&) = delete;

  // Validate checks LeaseDuration > RenewDeadline > 1.2 * RetryPeriod (client-go's rule).
  static base::Status Validate(const LeaderElectionOptions& options);

  void Run();
  // Stop ends the loop; with release_on_cancel the lease is given up at once. A leader records
  // `leader.election` action=lost (on_stopped_leading is not called: the caller is stopping).
  void Stop();
  bool IsLeader() const { return leading_; }

 private:
  void TryAcquireOrRenew();
  void Emit(const std::string& what, const std::string& holder);

  client::Client& client_;
  sim::Scheduler& scheduler_;
  LeaderElectionOptions options_;
  std::function<void()> on_started_leading_;
  std::function<void()> on_stopped_leading_;
  bool leading_ = false;
  bool stopped_ = false;
  base::SimTime last_renew_ = 0;  // when this replica last renewed successfully
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace manager
