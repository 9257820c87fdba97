#pragma once
// Queue: client-go's basic work queue. Fair (FIFO), stingy (an item is never handed out twice at
// once, and adds before processing collapse into one), and an item re-added while it is being
// processed runs exactly once more after Done.
// Mirrors: client-go util/workqueue/queue.go (Typed[T]: queue, dirty, processing).
// Simplified: items are strings; the FIFO is not pluggable (upstream's Queue[T] with Touch, a
// no-op for the default FIFO); Get does not block: with nothing queued it returns an empty
// result and SetOnReady says when to try again; ShutDownWithDrain does not wait, it reports
// whether processing is empty and SetOnDrained says when it becomes so.
// Single-threaded; time (for metrics) comes from sim::Clock.

#include <cstddef>
#include <deque>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/sim/clock.h"
#include "core/workqueue/interface.h"
#include "core/workqueue/metrics.h"

namespace workqueue {

class Queue {
 public:
  // name labels the metrics; an empty name records none. clock must outlive this object.
  Queue(const sim::Clock& clock, std::string name);
  virtual ~Queue() = default;
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  // Add marks item as needing processing. Returns kDropped while shutting down, kCoalesced when
  // item is already queued, kDirty when item is being processed (it is queued again by Done),
  // and kQueued when it was pushed to the FIFO. mirrors queue.go Typed.Add
  AddOutcome Add(const std::string& item);
  // Get pops the FIFO head and marks it processing. While shutting down it keeps handing out
  // what is still queued (drain); shutdown is reported only once the FIFO is empty.
  // mirrors queue.go Typed.Get
  GetResult Get();
  // Done ends processing of item; a dirty item goes back to the FIFO, also during shutdown.
  // REQUIRES: item was handed out by Get and not yet Done. mirrors queue.go Typed.Done
  void Done(const std::string& item);
  // Len is the FIFO length only: items being processed, dirty or not, are not counted.
  size_t Len() const { return queue_.size(); }

  // ShutDown makes Add drop items and Get report shutdown once the FIFO is empty. It does not
  // discard queued items and does not wait for items in processing. It ends a pending drain.
  // mirrors queue.go Typed.ShutDown
  virtual void ShutDown();
  // ShutDownWithDrain shuts down like ShutDown and returns true when nothing is being
  // processed; otherwise the drain completes when the last Done empties processing (the
  // SetOnDrained hook runs then). Queued items that were never handed out do not hold it.
  // mirrors queue.go Typed.ShutDownWithDrain
  virtual bool ShutDownWithDrain();
  bool ShuttingDown() const { return shutting_down_; }
  // Draining is true while ShutDownWithDrain waits for items in processing.
  bool Draining() const { return drain_waiting_; }

  // SetOnReady installs the hook run when Get may now return something: an item was pushed to
  // the FIFO, or shutdown began. Runs after the state is updated.
  void SetOnReady(std::function<void()> hook) { on_ready_ = std::move(hook); }
  // SetOnDrained installs the hook run when a pending ShutDownWithDrain completes (processing
  // became empty, or ShutDown released it).
  void SetOnDrained(std::function<void()> hook) { on_drained_ = std::move(hook); }

  // Items lists the FIFO, head first.
  std::vector<std::string> Items() const { return {queue_.begin(), queue_.end()}; }
  const std::set<std::string>& dirty() const { return dirty_; }
  const std::set<std::string>& processing() const { return processing_; }
  const QueueMetrics& metrics() const { return metrics_; }
  const std::string& name() const { return metrics_.name(); }

  // CheckInvariants asserts every Invariant below (O(n); tests call it after each step).
  void CheckInvariants() const;

 protected:
  // AddInternal is Add without the ready hook; *pushed tells whether the FIFO grew.
  AddOutcome AddInternal(const std::string& item, bool* pushed);
  void NotifyReady();
  QueueMetrics& mutable_metrics() { return metrics_; }

 private:
  void Push(const std::string& item);

  QueueMetrics metrics_;
  // Invariant: every item in queue_ is in dirty_ and not in processing_; no duplicates.
  std::deque<std::string> queue_;
  // Invariant: an item may be in dirty_ and processing_ at once (re-added while processed);
  // such an item is not in queue_ until Done.
  std::set<std::string> dirty_;
  std::set<std::string> processing_;  // handed out by Get, not yet Done
  bool shutting_down_ = false;
  bool drain_waiting_ = false;  // Invariant: implies shutting_down_ and !processing_.empty().
  std::function<void()> on_ready_;
  std::function<void()> on_drained_;
};

}  // namespace workqueue
