#pragma once
// SyncQueue: the small work queue of a built-in controller — a set of dirty keys, each with one
// scheduled "sync" event a short delay after it was first marked, so every change to one object
// within that delay is handled by one sync.
// Mirrors: the pattern of kube-controller-manager controllers (pkg/controller/replicaset,
// deployment, job, endpoint): handlers call queue.Add(key), a worker calls syncHandler(key),
// errors are retried with AddRateLimited.
// Simplified: no separate worker goroutines (a sync runs as its scheduler event); retries wait
// retry_base << failures (capped), not a full rate limiter. A key marked while its sync runs is
// scheduled again (the queue's "dirty" rule).
// Single-threaded; all delays are virtual time.

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "core/base/time.h"
#include "core/sim/scheduler.h"

namespace world {

// SyncQueueOptions tunes one queue.
struct SyncQueueOptions {
  // name labels the scheduler events ("sync <name> <key>"). Defaults to "".
  std::string name;
  // delay is the wait between marking a key and syncing it. Defaults to 5ms.
  base::Duration delay = 5 * base::kMillisecond;
  // retry_base is the first wait after a failed sync; it doubles per failure. Defaults to 50ms.
  base::Duration retry_base = 50 * base::kMillisecond;
  // retry_max caps the retry wait. Defaults to 10s.
  base::Duration retry_max = 10 * base::kSecond;
};

// SyncQueue calls sync(key) for marked keys. scheduler must outlive this object. Not copyable.
class SyncQueue {
 public:
  using Options = SyncQueueOptions;
  // Sync handles one key; false asks for a retry with backoff.
  using Sync = std::function<bool(const std::string& key)>;

  SyncQueue(sim::Scheduler& scheduler, Options options, Sync sync);
  ~SyncQueue();
  SyncQueue(const SyncQueue&) = delete;
  SyncQueue& operator=(const SyncQueue&) = delete;

  // Add marks key for a sync after options.delay (coalesced with a sync already pending).
  void Add(const std::string& key);
  // AddAfter marks key for a sync after delay; an earlier pending sync wins.
  void AddAfter(const std::string& key, base::Duration delay);
  // Clear cancels every pending sync.
  void Clear();
  // pending is the number of keys waiting.
  size_t pending() const { return pending_.size(); }
  // adds counts every Add/AddAfter (workqueue_adds_total counts coalesced adds too); retries
  // counts the syncs that failed and were scheduled again (workqueue_retries_total).
  uint64_t adds() const { return adds_; }
  uint64_t retries() const { return retries_; }
  bool IsPending(const std::string& key) const { return pending_.count(key) > 0; }

 private:
  struct Pending {
    sim::EventId event = 0;
    base::SimTime at = 0;
  };
  void Run(const std::string& key);

  sim::Scheduler& scheduler_;
  Options options_;
  Sync sync_;
  std::shared_ptr<int> alive_;
  std::map<std::string, Pending> pending_;  // Invariant: one scheduled event per key.
  std::map<std::string, int> failures_;     // consecutive failed syncs per key
  uint64_t adds_ = 0;
  uint64_t retries_ = 0;
};

}  // namespace world
