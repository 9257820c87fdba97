#pragma once
// Interface: the queue a controller programs against, so one controller can run on the classic
// client-go rate-limiting queue or on controller-runtime's priority queue.
// Mirrors: controller-runtime pkg/controller/priorityqueue/priorityqueue.go (PriorityQueue:
// TypedRateLimitingInterface + AddWithOpts + GetWithPriority, AddOpts), the classic-queue adapter
// priorityQueueWrapper in pkg/internal/controller/controller.go, and the NewQueue / RateLimiter
// defaults of pkg/controller/controller.go (NewTypedUnmanaged).
// Simplified: items are "namespace/name" strings; one key per AddWithOpts call; Get never blocks
// (it returns nothing when nothing is ready; SetOnReady says when to try again); every add
// reports what it did (AddResult) so the caller can emit DESIGN.md's queue.* trace events.
// Single-threaded; all time comes from sim::Clock through sim::Scheduler events.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/time.h"
#include "core/sim/scheduler.h"
#include "core/workqueue/default_rate_limiters.h"
#include "core/workqueue/metrics.h"

namespace workqueue {

// kLowPriority is the priority controller-runtime's handlers give to events that carry no news:
// Create events from the initial list and resync Updates (old RV == new RV).
// mirrors controller-runtime pkg/handler/eventhandler.go LowPriority
constexpr int kLowPriority = -100;

// AddOutcome says what an add did; DESIGN.md's queue.add `outcome` field prints AddOutcomeName.
enum class AddOutcome {
  kQueued,     // the key became ready (a new entry, or a waiting entry made ready)
  kCoalesced,  // the key was already ready; nothing new (the priority queue may raise priority)
  kDirty,      // the key is being processed (Get handed it out, no Done yet); it runs again after
  kDelayed,    // the key waits for a delay; a DelayedAdd hook call follows when it elapses
  kDropped,    // the queue is shutting down; the add was ignored
};

// AddOutcomeName returns "queued", "coalesced", "dirty", "delayed" or "dropped".
const char* AddOutcomeName(AddOutcome outcome);

// AddOpts are the options of AddWithOpts. mirrors priorityqueue.go AddOpts
struct AddOpts {
  // after delays the add. Defaults to 0 (immediately).
  base::Duration after = 0;
  // rate_limited asks the rate limiter for a delay (When counts a failure). On the priority queue
  // the shorter of `after` and the limiter's delay wins; the classic queue ignores `after`.
  // Defaults to false.
  bool rate_limited = false;
  // priority: higher runs first. Defaults to unset (0). The classic queue ignores it.
  std::optional<int> priority;
};

// AddResult is what an add did, with what the queue.* trace events need.
struct AddResult {
  AddOutcome outcome = AddOutcome::kQueued;
  // delay is the effective delay asked for: AddAfter's d, the limiter's When, or the priority
  // queue's min rule. A ready entry on the priority queue ignores it (outcome says so).
  base::Duration delay = 0;
  // requeues is NumRequeues(key) after the add.
  int requeues = 0;
  // priority is the key's entry priority after the add (always 0 on the classic queue).
  int priority = 0;
  // delay_set is true when this add created a waiting entry or moved its readyAt earlier; a
  // caller that wants precise trace causes then calls SetWaitingCause.
  bool delay_set = false;
};

// GetResult is what Get hands out. Exactly one of: a key; shutdown; or neither (nothing ready
// now, where client-go's Get would block).
struct GetResult {
  std::optional<std::string> key;
  int priority = 0;  // always 0 on the classic queue
  bool shutdown = false;
};

// DelayedAdd describes an add that happens when a delay elapses (no caller is on the stack).
struct DelayedAdd {
  std::string key;
  AddOutcome outcome = AddOutcome::kQueued;  // kQueued, kCoalesced or kDirty
  int priority = 0;
  int64_t cause = 0;  // the trace cause recorded when the delay was set (see SetWaitingCause)
};

// ReadyEntry is one ready key, listed in the order Get would hand keys out.
struct ReadyEntry {
  std::string key;
  int priority = 0;
  bool locked = false;  // priority queue: re-added while being processed; Get skips it until Done
};

// WaitingEntry is one key waiting for its delay.
struct WaitingEntry {
  std::string key;
  base::SimTime ready_at = 0;
  int priority = 0;
};

// QueueSnapshot is a read-only picture of a queue for the UI and the `queue` command.
struct QueueSnapshot {
  std::string name;
  bool priority_queue = false;
  bool shutting_down = false;
  size_t len = 0;                       // what Len() returns
  std::vector<ReadyEntry> ready;        // in hand-out order (classic: the FIFO)
  std::vector<WaitingEntry> waiting;    // by readyAt (then insertion / ready order)
  std::vector<std::string> processing;  // handed out, no Done yet (sorted)
  std::vector<std::string> dirty;       // classic: the dirty set; priority queue: locked keys
                                        // that were re-added (sorted)
  std::map<std::string, int> requeues;  // NumRequeues of every key above, when non-zero
};

// Interface is what a controller's worker loop uses. Implementations: PriorityQueue
// (priority_queue.h) and PriorityQueueWrapper over the classic RateLimitingQueue
// (rate_limiting_queue.h).
class Interface {
 public:
  virtual ~Interface() = default;

  // AddWithOpts adds key with options; see AddOpts and each implementation for the rules.
  virtual AddResult AddWithOpts(const AddOpts& opts, const std::string& key) = 0;
  // GetWithPriority hands out the next ready key (and locks it until Done).
  virtual GetResult GetWithPriority() = 0;
  // Done marks key as processed. REQUIRES: key was handed out by Get and not yet Done.
  virtual void Done(const std::string& key) = 0;
  // Forget clears the rate limiter's history of key; it does not remove key from the queue.
  virtual void Forget(const std::string& key) = 0;
  // NumRequeues is the rate limiter's failure count for key.
  virtual int NumRequeues(const std::string& key) const = 0;
  // Len counts what is ready (see each implementation for what that includes).
  virtual size_t Len() const = 0;
  // ShutDown stops the queue (adds are dropped from now on).
  virtual void ShutDown() = 0;
  virtual bool ShuttingDown() const = 0;

  // SetOnReady installs the hook called when a Get may now return something (a key became
  // ready, a Done unlocked a key, or shutdown began). It may be spurious; the hook should
  // schedule or call Get and accept an empty result. Runs after the queue's state is updated.
  virtual void SetOnReady(std::function<void()> hook) = 0;
  // SetOnDelayedAdd installs the hook called for every add made when a delay elapses.
  virtual void SetOnDelayedAdd(std::function<void(const DelayedAdd&)> hook) = 0;
  // SetWaitingCause sets the trace cause reported when key's waiting entry fires (no-op when key
  // is not waiting). Call it after emitting queue.add_after for an add with delay_set.
  virtual void SetWaitingCause(const std::string& key, int64_t cause) = 0;

  virtual const std::string& name() const = 0;
  virtual bool is_priority_queue() const = 0;
  virtual QueueSnapshot Snapshot() const = 0;
  virtual const QueueMetrics& metrics() const = 0;

  // Add is AddWithOpts({}, key).
  AddResult Add(const std::string& key) { return AddWithOpts(AddOpts{}, key); }
  // AddAfter is AddWithOpts({.after = d}, key).
  AddResult AddAfter(const std::string& key, base::Duration d) {
    AddOpts opts;
    opts.after = d;
    return AddWithOpts(opts, key);
  }
  // AddRateLimited is AddWithOpts({.rate_limited = true}, key).
  AddResult AddRateLimited(const std::string& key) {
    AddOpts opts;
    opts.rate_limited = true;
    return AddWithOpts(opts, key);
  }
  // Get is GetWithPriority without caring about the priority.
  GetResult Get() { return GetWithPriority(); }
};

// QueueOptions are the queue-related controller options. mirrors controller-runtime
// pkg/controller/controller.go Options (UsePriorityQueue, RateLimiter)
struct QueueOptions {
  // use_priority_queue: defaults to true (controller-runtime v0.23+; nil means true).
  bool use_priority_queue = true;
  // rate_limiter: defaults to ItemExponentialFailureRateLimiter(5ms, 1000s) with the priority
  // queue, and DefaultControllerRateLimiter (that plus a 10 qps / 100 burst bucket) without it.
  std::unique_ptr<RateLimiter> rate_limiter;
};

// NewQueue builds a controller's queue the way NewTypedUnmanaged's defaults do: a PriorityQueue,
// or a RateLimitingQueue named `name` behind PriorityQueueWrapper.
// scheduler must outlive the queue.
std::unique_ptr<Interface> NewQueue(sim::Scheduler& scheduler, const std::string& name,
                                    QueueOptions options);

}  // namespace workqueue
