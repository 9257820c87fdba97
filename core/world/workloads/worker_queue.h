#pragma once
// WorkerQueue: a kube-controller-manager controller's work queue and its workers. Handlers Add
// "namespace/name" keys; a worker takes each out, calls the controller's sync, and on failure
// puts it back rate-limited (on success the limiter forgets it).
// Mirrors: the controllers in kubernetes pkg/controller (replicaset/replica_set.go,
// deployment/deployment_controller.go, job/job_controller.go, endpoint/endpoints_controller.go,
// namespace/namespace_controller.go): workqueue.NewTypedRateLimitingQueueWithConfig with
// DefaultTypedControllerRateLimiter, worker() / processNextWorkItem (Get, sync, Forget or
// AddRateLimited, Done). The queue is core/workqueue's RateLimitingQueue.
// Simplified: no goroutines. When the queue has a ready key, one scheduler event runs
// `pickup` later and syncs, one after another, the keys that were ready when it began (the
// concurrent workers of upstream, e.g. 5 for ReplicaSets, become one sequence); a key added
// meanwhile waits for the next event.
// Single-threaded; delays are virtual time.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>

#include "core/base/time.h"
#include "core/sim/scheduler.h"
#include "core/workqueue/metrics.h"
#include "core/workqueue/rate_limiting_queue.h"

namespace world {

// WorkerQueueOptions tunes one queue.
struct WorkerQueueOptions {
  // name is the queue's name (workqueue metrics) and labels its scheduler events. Defaults to "".
  std::string name;
  // pickup is the time from a key becoming ready to a worker syncing it (the modelled latency of
  // an idle worker's Get). Defaults to 5ms.
  base::Duration pickup = 5 * base::kMillisecond;
};

// WorkerQueue calls sync(key) for queued keys. scheduler must outlive this object. Not copyable.
class WorkerQueue {
 public:
  using Options = WorkerQueueOptions;
  // Sync handles one key; false asks for a rate-limited retry (processNextWorkItem's error path).
  using Sync = std::function<bool(const std::string& key)>;

  WorkerQueue(sim::Scheduler& scheduler, Options options, Sync sync);
  ~WorkerQueue();
  WorkerQueue(const WorkerQueue&) = delete;
  WorkerQueue& operator=(const WorkerQueue&) = delete;

  // Add queues key (queue.Add: once while it waits, again after Done while it is synced).
  void Add(const std::string& key);
  // AddAfter queues key after delay (queue.AddAfter).
  void AddAfter(const std::string& key, base::Duration delay);
  // ShutDown stops the workers; queued keys are dropped.
  void ShutDown();

  // pending is the number of keys ready or waiting for a delay.
  size_t pending() const { return queue_.Len() + queue_.NumWaiting(); }
  // metrics are the queue's workqueue_* series (adds_total counts every add that queued a key;
  // retries_total every delayed add, as client-go counts them).
  const workqueue::QueueMetrics& metrics() const { return queue_.metrics(); }
  const workqueue::RateLimitingQueue& queue() const { return queue_; }

 private:
  void Arm();
  void Work();
  // NoteCause keeps the trace cause current at a key's first add until a worker takes it.
  void NoteCause(const std::string& key);

  sim::Scheduler& scheduler_;
  Options options_;
  Sync sync_;
  workqueue::RateLimitingQueue queue_;
  bool armed_ = false;  // a worker event is scheduled
  // What the sync of each queued key runs under (the change that queued it).
  std::unordered_map<std::string, int64_t> causes_;
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace world
