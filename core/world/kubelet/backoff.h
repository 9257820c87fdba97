#pragma once
// Backoff: per-id exponential backoff with expiry, the kubelet's timer for restarting crashed
// containers (CrashLoopBackOff) and for retrying failed image pulls (ImagePullBackOff).
// Mirrors: client-go util/flowcontrol/backoff.go (Backoff.Next, IsInBackOffSince,
// IsInBackOffSinceUpdate, hasExpired) as the kubelet configures it (10s initial, 300s max,
// pkg/kubelet/kubelet.go backOffPeriod / MaxContainerBackOff).
// Simplified: no jitter, no garbage collection of old entries.
// Single-threaded; time is passed in (integer microseconds), doubling is a saturating multiply.

#include <map>
#include <string>

#include "core/base/time.h"

namespace world {

// Backoff keeps one delay per id. Intentionally copyable (plain data).
class Backoff {
 public:
  // initial and max are the first delay and the cap; an entry not updated for 2*max expires.
  Backoff(base::Duration initial, base::Duration max);

  // Next records an event now: the delay becomes initial for a new or expired entry, else
  // doubles (capped at max).
  void Next(const std::string& id, base::SimTime now);
  // Get returns the current delay of id (0 when absent).
  base::Duration Get(const std::string& id) const;
  // IsInBackOffSince reports whether now is within the delay of id measured from event_time
  // (the crashed container's finishedAt). An expired entry is never in backoff.
  bool IsInBackOffSince(const std::string& id, base::SimTime event_time, base::SimTime now) const;
  // IsInBackOffSinceUpdate measures the delay from the entry's last Next (image pulls).
  bool IsInBackOffSinceUpdate(const std::string& id, base::SimTime now) const;
  // Reset forgets id.
  void Reset(const std::string& id) { entries_.erase(id); }

 private:
  struct Entry {
    base::Duration backoff = 0;
    base::SimTime last_update = 0;
  };
  // Expired mirrors backoff.go hasExpired: no update for more than 2*max.
  bool Expired(const Entry& e, base::SimTime event_time) const;

  base::Duration initial_;
  base::Duration max_;
  std::map<std::string, Entry> entries_;
};

}  // namespace world
