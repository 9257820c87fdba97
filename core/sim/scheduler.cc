#include "core/sim/scheduler.h"

#include <algorithm>

#include "core/base/assert.h"

namespace sim {

Scheduler::Scheduler(Clock& clock, Trace& trace) : clock_(clock), trace_(trace) {}

namespace {

// Later is the heap's comparator: std::push_heap keeps the greatest on top, so ordering by
// "later" puts the earliest (time, sequence) first.
bool Later(const std::pair<base::SimTime, EventId>& a,
           const std::pair<base::SimTime, EventId>& b) {
  return a > b;
}

}  // namespace

EventId Scheduler::At(base::SimTime at, std::string label, std::function<void()> fn,
                      std::optional<int64_t> cause) {
  if (at < clock_.Now()) at = clock_.Now();
  const EventId id = next_id_++;
  entries_.emplace(id, Entry{at, std::move(label), std::move(fn),
                             cause.value_or(trace_.current_cause())});
  heap_.emplace_back(at, id);
  std::push_heap(heap_.begin(), heap_.end(), Later);
  return id;
}

EventId Scheduler::After(base::Duration delay, std::string label, std::function<void()> fn,
                         std::optional<int64_t> cause) {
  RLAB_ASSERT(delay >= 0, "negative delay");
  return At(clock_.Now() + delay, std::move(label), std::move(fn), cause);
}

bool Scheduler::Cancel(EventId id) {
  if (entries_.erase(id) == 0) return false;
  if (heap_.size() > 2 * entries_.size() + 64) {
    // Mostly cancelled keys (timers re-armed far ahead): rebuild from the live ones so the heap
    // stays proportional to what is pending.
    std::vector<Key> live;
    live.reserve(entries_.size());
    for (const Key& key : heap_) {
      if (entries_.count(key.second) != 0) live.push_back(key);
    }
    std::make_heap(live.begin(), live.end(), Later);
    heap_.swap(live);
  }
  return true;
}

void Scheduler::PruneTop() const {
  while (!heap_.empty() && entries_.count(heap_.front().second) == 0) {
    std::pop_heap(heap_.begin(), heap_.end(), Later);
    heap_.pop_back();
  }
}

std::vector<Scheduler::Key> Scheduler::PopDue() const {
  std::vector<Key> due;
  PruneTop();
  if (heap_.empty()) return due;
  const base::SimTime t = heap_.front().first;
  while (!heap_.empty() && heap_.front().first == t) {
    std::pop_heap(heap_.begin(), heap_.end(), Later);
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
    const Entry& entry = entries_.at(key.second);
    due.push_back(PendingEvent{key.second, key.first, entry.label, entry.cause});
    heap_.push_back(key);
    std::push_heap(heap_.begin(), heap_.end(), Later);
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
  auto it = entries_.find(id);
  RLAB_ASSERT(it != entries_.end(), "the next event has no entry");
  Entry entry = std::move(it->second);
  entries_.erase(it);
  PruneTop();  // drops the chosen key when it was the top
  clock_.AdvanceTo(entry.at);
  const int64_t saved_cause = trace_.current_cause();
  trace_.set_current_cause(entry.cause);
  ++executed_;
  entry.fn();
  trace_.set_current_cause(saved_cause);
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
