#pragma once
// DelayingQueue: a Queue plus AddAfter, which adds an item once a delay has passed. Waiting
// items sit in a heap ordered by readyAt, at most one entry per item; a shorter delay replaces a
// longer one, a longer one never extends a shorter one. The heap and the queue are independent.
// Mirrors: client-go util/workqueue/delaying_queue.go (delayingType, waitingLoop, insert).
// Simplified: no goroutine and no channel: AddAfter inserts directly, and one sim::Scheduler
// event, armed at the heap head's readyAt, adds every due item in heap order.
// Teaching: upstream also wakes every 10s (maxWait heartbeat) in case a timer was missed under a
// real clock; virtual time never misses a timer, so there is no heartbeat here.
// Single-threaded; time comes from sim::Scheduler / sim::Clock.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/base/time.h"
#include "core/sim/scheduler.h"
#include "core/workqueue/interface.h"
#include "core/workqueue/queue.h"

namespace workqueue {

class DelayingQueue : public Queue {
 public:
  // scheduler (and its clock and trace) must outlive this object.
  DelayingQueue(sim::Scheduler& scheduler, std::string name);
  ~DelayingQueue() override;

  // AddAfter adds item after d. While shutting down it does nothing at all (kDropped). Otherwise
  // retries_total goes up (on every call, d <= 0 included); d <= 0 is a plain Add (its outcome
  // is returned); d > 0 inserts a heap entry at now + d or moves an existing entry's readyAt
  // earlier (delay_set) and returns kDelayed. mirrors delaying_queue.go AddAfter and insert
  AddResult AddAfter(const std::string& item, base::Duration d);

  // ShutDown / ShutDownWithDrain shut the inner queue down and drop every pending delayed item.
  // mirrors delaying_queue.go delayingType.ShutDown (the waiting loop exits)
  void ShutDown() override;
  bool ShutDownWithDrain() override;

  // SetOnDelayedAdd installs the hook run for every Add a due heap entry makes.
  void SetOnDelayedAdd(std::function<void(const DelayedAdd&)> hook) {
    on_delayed_add_ = std::move(hook);
  }
  // SetWaitingCause replaces the trace cause recorded on item's heap entry (no-op if none).
  void SetWaitingCause(const std::string& item, int64_t cause);

  // Waiting lists the heap in firing order (readyAt, then insertion order).
  std::vector<WaitingEntry> Waiting() const;
  size_t NumWaiting() const { return waiting_.size(); }

  void CheckInvariants() const;

 protected:
  sim::Scheduler& scheduler() { return scheduler_; }

 private:
  struct Wait {
    base::SimTime ready_at = 0;
    uint64_t seq = 0;   // insertion order; breaks readyAt ties
    int64_t cause = 0;  // trace cause current when readyAt was set
  };
  using HeapKey = std::tuple<base::SimTime, uint64_t, std::string>;

  void DropWaiting();
  void ArmTimer();
  void OnTimer();

  sim::Scheduler& scheduler_;
  std::map<std::string, Wait> waiting_;  // Invariant: at most one entry per item.
  std::set<HeapKey> heap_;               // Invariant: exactly the entries of waiting_.
  uint64_t next_seq_ = 0;
  std::optional<sim::EventId> timer_;  // Invariant: armed iff heap_ is non-empty,
  base::SimTime timer_at_ = 0;         //   at the head's readyAt.
  std::function<void(const DelayedAdd&)> on_delayed_add_;
};

}  // namespace workqueue
