#include "core/sim/scheduler.h"

#include <algorithm>

#include "core/base/assert.h"
#include "core/sim/cause_scope.h"

namespace sim {

Scheduler::Scheduler(Clock& clock, Trace& trace) : clock_(clock), trace_(trace) {}

EventId Scheduler::At(base::SimTime at, std::string_view label, std::function<void()> fn,
                      std::optional<int64_t> cause) {
  if (at < clock_.Now()) at = clock_.Now();
  const EventId id = next_id_++;
  uint32_t slot;
  if (free_slots_.empty()) {
    slot = static_cast<uint32_t>(slots_.size());
    slots_.emplace_back();
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
  }
  Entry& entry = slots_[slot];
  entry.id = id;
  entry.at = at;
  entry.label.assign(label.data(), label.size());  // keeps the slot's capacity
  entry.fn = std::move(fn);
  entry.cause = cause.value_or(trace_.current_cause());
  slot_of_.push_back(slot);
  ++live_;
  heap_.emplace_back(at, id);
  std::push_heap(heap_.begin(), heap_.end(), Later());
  return id;
}

void Scheduler::Release(EventId id, uint32_t slot) {
  Entry& entry = slots_[slot];
  entry.id = 0;
  entry.fn = nullptr;
  free_slots_.push_back(slot);
  slot_of_[id - first_id_] = kNoSlot;
  while (!slot_of_.empty() && slot_of_.front() == kNoSlot) {
    slot_of_.pop_front();
    ++first_id_;
  }
  --live_;
}

EventId Scheduler::After(base::Duration delay, std::string_view label, std::function<void()> fn,
                         std::optional<int64_t> cause) {
  RLAB_ASSERT(delay >= 0, "negative delay");
  return At(clock_.Now() + delay, label, std::move(fn), cause);
}

bool Scheduler::Cancel(EventId id) {
  const uint32_t slot = SlotOf(id);
  if (slot == kNoSlot) return false;
  Release(id, slot);
  if (heap_.size() > 2 * live_ + 64) {
    // Mostly cancelled keys (timers re-armed far ahead): rebuild from the live ones so the heap
    // stays proportional to what is pending.
    std::vector<Key> live;
    live.reserve(live_);
    for (const Key& key : heap_) {
      if (SlotOf(key.second) != kNoSlot) live.push_back(key);
    }
    std::make_heap(live.begin(), live.end(), Later());
    heap_.swap(live);
  }
  return true;
}

void Scheduler::PruneTop() const {
  while (!heap_.empty() && SlotOf(heap_.front().second) == kNoSlot) {
    std::pop_heap(heap_.begin(), heap_.end(), Later());
    heap_.pop_back();
  }
}

std::vector<Scheduler::Key> Scheduler::PopDue() const {
  std::vector<Key> due;
  PruneTop();
  if (heap_.empty()) return due;
  const base::SimTime t = heap_.front().first;
  while (!heap_.empty() && heap_.front().first == t) {
    std::pop_heap(heap_.begin(), heap_.end(), Later());
    due.push_back(heap_.back());
    heap_.pop_back();
    PruneTop();
  }
  return due;
}

std::vector<PendingEvent> Scheduler::DueNext() const {
  std::vector<Key> keys = PopDue();
  std::vector<PendingEvent> due;
  for (const Key& key : keys) {
    const Entry& entry = slots_[SlotOf(key.second)];
    due.push_back(PendingEvent{key.second, key.first, entry.label, entry.cause});
    heap_.push_back(key);
    std::push_heap(heap_.begin(), heap_.end(), Later());
  }
  return due;
}

std::optional<base::SimTime> Scheduler::NextTime() const {
  PruneTop();
  if (heap_.empty()) return std::nullopt;
  return heap_.front().first;
}

bool Scheduler::Step() {
  PruneTop();
  if (heap_.empty()) return false;
  EventId id = heap_.front().second;
  if (chooser_) {
    std::vector<PendingEvent> due = DueNext();
    if (due.size() > 1) {
      const size_t pick = chooser_(due);
      RLAB_ASSERT(pick < due.size(), "Chooser returned an index out of range");
      id = due[pick].id;  // its key stays in the heap and is pruned when it reaches the top
    }
  }
  const uint32_t slot = SlotOf(id);
  RLAB_ASSERT(slot != kNoSlot, "the next event has no entry");
  const base::SimTime at = slots_[slot].at;
  const int64_t cause = slots_[slot].cause;
  // Moved out before the slot is reused: fn may schedule events, which may take this slot.
  std::function<void()> fn = std::move(slots_[slot].fn);
  Release(id, slot);
  PruneTop();  // drops the chosen key when it was the top
  clock_.AdvanceTo(at);
  {
    const CauseScope event_cause(trace_, cause);
    ++executed_;
    fn();
  }
  if (step_observer_) step_observer_();
  return true;
}

uint64_t Scheduler::RunUntil(base::SimTime t, uint64_t budget) {
  uint64_t ran = 0;
  while (ran < budget) {
    auto next = NextTime();
    if (!next.has_value() || *next > t) break;
    Step();
    ++ran;
  }
  if (ran < budget && clock_.Now() < t) clock_.AdvanceTo(t);
  return ran;
}

}  // namespace sim
