#pragma once
// Scheduler: the discrete-event kernel. Events run in (time, sequence) order, FIFO within an
// instant, and only the scheduler moves the clock.
// No Go counterpart; follows FoundationDB's Sim2 run loop (timers + ready queue, ties broken by a
// counter) and TigerBeetle's budgets.
// Choice points: when several events are due at the same instant, DueNext() lists them and an
// optional Chooser picks which runs first, so tests and the race explorer can permute orderings.
// Single-threaded; pointer values never affect order.

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/time.h"
#include "core/sim/clock.h"
#include "core/sim/trace.h"

namespace sim {

using EventId = uint64_t;

// PendingEvent describes a scheduled event without exposing its callback.
struct PendingEvent {
  EventId id = 0;
  base::SimTime at = 0;
  std::string label;  // e.g. "watch deliver raycluster-informer" (for the UI and the explorer)
  int64_t cause = kNoCause;
};

class Scheduler {
 public:
  // Chooser picks the index of the event to run among events due at one instant (size >= 2).
  using Chooser = std::function<size_t(const std::vector<PendingEvent>&)>;

  // clock and trace must outlive this object.
  Scheduler(Clock& clock, Trace& trace);
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // At schedules fn at time `at` (clamped to now if earlier). While fn runs, the trace's current
  // cause is `cause`; by default the cause current when At was called.
  // The label is copied into storage the scheduler reuses from event to event.
  EventId At(base::SimTime at, std::string_view label, std::function<void()> fn,
             std::optional<int64_t> cause = std::nullopt);
  // After schedules fn at Now() + delay.
  EventId After(base::Duration delay, std::string_view label, std::function<void()> fn,
                std::optional<int64_t> cause = std::nullopt);
  // Cancel removes a pending event; returns false when it already ran or never existed.
  bool Cancel(EventId id);

  // DueNext lists the events sharing the earliest pending time, in FIFO order.
  std::vector<PendingEvent> DueNext() const;
  // NextTime is the earliest pending time, if any.
  std::optional<base::SimTime> NextTime() const;
  size_t pending() const { return live_; }
  uint64_t executed() const { return executed_; }

  // Step runs one event (advancing the clock to its time). Returns false when nothing is pending.
  bool Step();
  // RunUntil runs every event due at or before t, then sets the clock to t. `budget` bounds the
  // number of events; returns the number run (== budget means the budget ran out).
  uint64_t RunUntil(base::SimTime t, uint64_t budget = UINT64_MAX);

  void SetChooser(Chooser chooser) { chooser_ = std::move(chooser); }
  // SetStepObserver installs a hook called after every event Step runs (the invariant checker's
  // "after every step"). It must not schedule events, emit trace records or draw randomness, so
  // a checked run stays identical to an unchecked one. An empty function removes it (no cost).
  void SetStepObserver(std::function<void()> observer) { step_observer_ = std::move(observer); }

  Clock& clock() { return clock_; }
  Trace& trace() { return trace_; }

 private:
  struct Entry {
    EventId id = 0;  // 0 while the slot is free
    base::SimTime at = 0;
    std::string label;
    std::function<void()> fn;
    int64_t cause = kNoCause;
  };
  using Key = std::pair<base::SimTime, EventId>;  // (time, sequence): the total order
  // Later is the heap's comparator: std::push_heap keeps the greatest on top, so ordering by
  // "later" puts the earliest (time, sequence) first. A type, so the heap operations inline it.
  struct Later {
    bool operator()(const Key& a, const Key& b) const { return a > b; }
  };
  static constexpr uint32_t kNoSlot = UINT32_MAX;

  // SlotOf is the slot of a pending event, or kNoSlot when it already ran, was cancelled or
  // never existed.
  uint32_t SlotOf(EventId id) const {
    if (id < first_id_ || id >= next_id_) return kNoSlot;
    return slot_of_[id - first_id_];
  }
  // Release frees the slot of a pending event (moved from or cancelled).
  void Release(EventId id, uint32_t slot);
  // PruneTop drops cancelled (or already run) keys from the top of the heap, so heap_.front(),
  // if any, is the next event to run.
  void PruneTop() const;
  // PopDue removes the live keys due at the earliest time from the heap, in FIFO order.
  std::vector<Key> PopDue() const;

  Clock& clock_;
  Trace& trace_;
  // heap_ orders the pending events, a binary min-heap on Key: cheaper to push and pop than a
  // tree (777,011 events in `rlab bench rayclusters 1000`). Cancel leaves the key behind (it is
  // skipped when it reaches the top), so the slots are the truth. Mutable: the const readers
  // (NextTime, DueNext) prune it, which changes no observable state.
  mutable std::vector<Key> heap_;
  // The pending events live in reused slots rather than a hash map keyed by id: a step then
  // costs no node allocation and no hashing. Ids are handed out in sequence, so slot_of_ maps
  // id - first_id_ to a slot (kNoSlot once done); its done prefix is trimmed as events run.
  // Invariant: each pending event has a key in heap_, a slot holding its id, and at >= now.
  std::vector<Entry> slots_;
  std::vector<uint32_t> free_slots_;
  std::deque<uint32_t> slot_of_;
  EventId first_id_ = 1;
  size_t live_ = 0;
  EventId next_id_ = 1;
  uint64_t executed_ = 0;
  Chooser chooser_;
  std::function<void()> step_observer_;
};

}  // namespace sim
