#pragma once
// PriorityQueue: controller-runtime's default controller queue (v0.23+). One entry per key;
// ready keys go out by higher priority first, FIFO within a priority; delayed keys wait sorted by
// readyAt; a key being processed is locked, and a re-add makes a new entry that Get skips until
// Done. Adds merge: the highest priority and the earliest readyAt win.
// Mirrors: controller-runtime pkg/controller/priorityqueue/priorityqueue.go (AddWithOpts /
// lockedAddWithOpts, handleWaitingItems, handleReadyItems, GetWithPriority, Done, Len).
// Simplified: items are strings; no add buffer (adds apply at once); no B-trees (ordered sets);
// Get never blocks: it returns nothing when nothing is handed out, and SetOnReady says when to
// try again; one sim::Scheduler event, armed at the earliest readyAt, moves due keys to ready.
// Single-threaded; time comes from sim::Scheduler / sim::Clock.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/base/time.h"
#include "core/sim/scheduler.h"
#include "core/workqueue/default_rate_limiters.h"
#include "core/workqueue/interface.h"
#include "core/workqueue/metrics.h"

namespace workqueue {

class PriorityQueue final : public Interface {
 public:
  // rate_limiter defaults (when null) to ItemExponentialFailureRateLimiter(5ms, 1000s), with no
  // token bucket. name labels the metrics; empty records none. scheduler must outlive this.
  PriorityQueue(sim::Scheduler& scheduler, std::string name,
                std::unique_ptr<RateLimiter> rate_limiter = nullptr);
  ~PriorityQueue() override;
  PriorityQueue(const PriorityQueue&) = delete;
  PriorityQueue& operator=(const PriorityQueue&) = delete;

  // AddWithOpts adds key. Dropped after ShutDown (the limiter is not asked then). Otherwise:
  // - after = opts.after; with rate_limited, When(key) always counts a failure and replaces
  //   after when after == 0 or When is shorter (the minimum wins);
  // - after > 0 gives readyAt = now + after and counts retries_total (after == 0 does not);
  // - a new entry gets the next added counter and priority opts.priority (default 0);
  // - an existing ready entry stays ready (the delay is ignored); a waiting one keeps the
  //   earlier readyAt, and becomes ready (counted as an add) when the new add has no delay;
  // - priority becomes max(old, new); when it rises the entry gets a fresh added counter, so it
  //   goes to the back of its new priority level.
  // mirrors priorityqueue.go lockedAddWithOpts
  AddResult AddWithOpts(const AddOpts& opts, const std::string& key) override;
  // GetWithPriority hands out the first ready key that is not locked and locks it. After
  // ShutDown it reports shutdown at once, even with ready keys left (no drain).
  // mirrors priorityqueue.go GetWithPriority / handleReadyItems
  GetResult GetWithPriority() override;
  // Done unlocks key. REQUIRES: key is locked (handed out, no Done yet).
  void Done(const std::string& key) override;
  void Forget(const std::string& key) override { rate_limiter_->Forget(key); }
  int NumRequeues(const std::string& key) const override { return rate_limiter_->NumRequeues(key); }
  // Len is the number of ready entries, waiting ones excluded. NOTE: unlike client-go, it counts
  // a locked key's re-added entry. mirrors priorityqueue.go Len
  size_t Len() const override { return ready_.size(); }
  // ShutDown stops adds and hands-out; waiting entries no longer become ready. ShutDownWithDrain
  // is the same upstream ("draining is not used by controller-runtime").
  void ShutDown() override;
  void ShutDownWithDrain() { ShutDown(); }
  bool ShuttingDown() const override { return shutdown_; }

  void SetOnReady(std::function<void()> hook) override { on_ready_ = std::move(hook); }
  void SetOnDelayedAdd(std::function<void(const DelayedAdd&)> hook) override {
    on_delayed_add_ = std::move(hook);
  }
  void SetWaitingCause(const std::string& key, int64_t cause) override;

  const std::string& name() const override { return metrics_.name(); }
  bool is_priority_queue() const override { return true; }
  QueueSnapshot Snapshot() const override;
  const QueueMetrics& metrics() const override { return metrics_; }

  // Locked lists the keys handed out and not yet Done.
  const std::set<std::string>& locked() const { return locked_; }
  RateLimiter& rate_limiter() { return *rate_limiter_; }

  // CheckInvariants asserts every Invariant below (O(n); tests call it after each step).
  void CheckInvariants() const;

 private:
  struct Entry {
    uint64_t added_counter = 0;
    int priority = 0;
    std::optional<base::SimTime> ready_at;  // nullopt: ready
    int64_t cause = 0;                      // trace cause current when ready_at was set
  };
  // ReadyKey orders by higher priority, then lower added counter. mirrors lessReady
  using ReadyKey = std::tuple<int64_t /*-priority*/, uint64_t, std::string>;
  // WaitingKey orders by readyAt, then as ReadyKey. mirrors lessWaiting
  using WaitingKey = std::tuple<base::SimTime, int64_t, uint64_t, std::string>;

  static ReadyKey ReadyKeyOf(const std::string& key, const Entry& e);
  static WaitingKey WaitingKeyOf(const std::string& key, const Entry& e);
  void Insert(const std::string& key, const Entry& e);
  void Erase(const std::string& key, const Entry& e);
  void ArmTimer();
  void OnTimer();
  void NotifyReady();

  sim::Scheduler& scheduler_;
  QueueMetrics metrics_;
  std::unique_ptr<RateLimiter> rate_limiter_;  // Invariant: never null.
  // Invariant: items_ holds one entry per key not handed out, plus new entries of locked keys
  // re-added while processing; each entry is in exactly one of ready_ (ready_at unset) and
  // waiting_ (ready_at set).
  std::map<std::string, Entry> items_;
  std::set<ReadyKey> ready_;
  std::set<WaitingKey> waiting_;
  std::set<std::string> locked_;  // handed out by Get, no Done yet
  uint64_t added_counter_ = 0;    // Invariant: greater than every entry's added_counter.
  bool shutdown_ = false;
  std::optional<sim::EventId> timer_;  // Invariant: armed iff waiting_ is non-empty and not
  base::SimTime timer_at_ = 0;         //   shut down, at the earliest readyAt.
  std::function<void()> on_ready_;
  std::function<void(const DelayedAdd&)> on_delayed_add_;
};

}  // namespace workqueue
