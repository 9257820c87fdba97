#include "core/sim/scheduler.h"

#include "core/base/assert.h"

namespace sim {

Scheduler::Scheduler(Clock& clock, Trace& trace) : clock_(clock), trace_(trace) {}

EventId Scheduler::At(base::SimTime at, std::string label, std::function<void()> fn,
                      std::optional<int64_t> cause) {
  if (at < clock_.Now()) at = clock_.Now();
  const EventId id = next_id_++;
  events_.emplace(Key{at, id}, Entry{std::move(label), std::move(fn),
                                     cause.value_or(trace_.current_cause())});
  when_.emplace(id, at);
  RLAB_ASSERT(events_.size() == when_.size(), "scheduler index out of sync");
  return id;
}

EventId Scheduler::After(base::Duration delay, std::string label, std::function<void()> fn,
                         std::optional<int64_t> cause) {
  RLAB_ASSERT(delay >= 0, "negative delay");
  return At(clock_.Now() + delay, std::move(label), std::move(fn), cause);
}

bool Scheduler::Cancel(EventId id) {
  auto it = when_.find(id);
  if (it == when_.end()) return false;
  events_.erase(Key{it->second, id});
  when_.erase(it);
  return true;
}

std::vector<PendingEvent> Scheduler::DueNext() const {
  std::vector<PendingEvent> due;
  if (events_.empty()) return due;
  const base::SimTime t = events_.begin()->first.first;
  for (auto it = events_.begin(); it != events_.end() && it->first.first == t; ++it) {
    due.push_back(PendingEvent{it->first.second, t, it->second.label, it->second.cause});
  }
  return due;
}

std::optional<base::SimTime> Scheduler::NextTime() const {
  if (events_.empty()) return std::nullopt;
  return events_.begin()->first.first;
}

bool Scheduler::Step() {
  if (events_.empty()) return false;
  auto it = events_.begin();
  if (chooser_) {
    std::vector<PendingEvent> due = DueNext();
    if (due.size() > 1) {
      const size_t pick = chooser_(due);
      RLAB_ASSERT(pick < due.size(), "Chooser returned an index out of range");
      it = events_.find(Key{due[pick].at, due[pick].id});
    }
  }
  const base::SimTime at = it->first.first;
  const EventId id = it->first.second;
  Entry entry = std::move(it->second);
  events_.erase(it);
  when_.erase(id);
  clock_.AdvanceTo(at);
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
