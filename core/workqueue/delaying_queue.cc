#include "core/workqueue/delaying_queue.h"

#include <limits>
#include <utility>

#include "core/base/assert.h"
#include "core/sim/cause_scope.h"

namespace workqueue {

namespace {
base::SimTime SaturatingAdd(base::SimTime now, base::Duration d) {
  if (d > std::numeric_limits<base::SimTime>::max() - now) {
    return std::numeric_limits<base::SimTime>::max();
  }
  return now + d;
}
}  // namespace

DelayingQueue::DelayingQueue(sim::Scheduler& scheduler, std::string name)
    : Queue(scheduler.clock(), std::move(name)), scheduler_(scheduler) {}

DelayingQueue::~DelayingQueue() {
  if (timer_) scheduler_.Cancel(*timer_);
}

// mirrors delaying_queue.go delayingType.AddAfter and insert
AddResult DelayingQueue::AddAfter(const std::string& item, base::Duration d) {
  AddResult result;
  result.delay = d;
  if (ShuttingDown()) {
    result.outcome = AddOutcome::kDropped;
    return result;
  }
  mutable_metrics().Retry();  // every call, d <= 0 included
  if (d <= 0) {
    result.outcome = Add(item);
    return result;
  }
  result.outcome = AddOutcome::kDelayed;
  const base::SimTime ready_at = SaturatingAdd(scheduler_.clock().Now(), d);
  const int64_t cause = scheduler_.trace().current_cause();
  auto it = waiting_.find(item);
  if (it == waiting_.end()) {
    Wait wait{ready_at, next_seq_++, cause};
    heap_.emplace(wait.ready_at, wait.seq, item);
    waiting_.emplace(item, wait);
    result.delay_set = true;
  } else if (ready_at < it->second.ready_at) {
    // Only an earlier readyAt replaces the entry; a later one is discarded.
    Wait& wait = it->second;
    heap_.erase(HeapKey{wait.ready_at, wait.seq, item});
    wait.ready_at = ready_at;
    wait.cause = cause;
    heap_.emplace(wait.ready_at, wait.seq, item);
    result.delay_set = true;
  }
  ArmTimer();
  return result;
}

void DelayingQueue::ShutDown() {
  Queue::ShutDown();
  DropWaiting();
}

bool DelayingQueue::ShutDownWithDrain() {
  const bool drained = Queue::ShutDownWithDrain();
  DropWaiting();
  return drained;
}

void DelayingQueue::DropWaiting() {
  waiting_.clear();
  heap_.clear();
  ArmTimer();
}

void DelayingQueue::SetWaitingCause(const std::string& item, int64_t cause) {
  auto it = waiting_.find(item);
  if (it != waiting_.end()) it->second.cause = cause;
}

std::vector<WaitingEntry> DelayingQueue::Waiting() const {
  std::vector<WaitingEntry> out;
  out.reserve(heap_.size());
  for (const HeapKey& key : heap_) out.push_back({std::get<2>(key), std::get<0>(key), 0});
  return out;
}

void DelayingQueue::ArmTimer() {
  if (heap_.empty()) {
    if (timer_) scheduler_.Cancel(*timer_);
    timer_.reset();
    return;
  }
  const HeapKey& head = *heap_.begin();
  const base::SimTime head_at = std::get<0>(head);
  if (timer_ && timer_at_ == head_at) return;
  if (timer_) scheduler_.Cancel(*timer_);
  const int64_t cause = waiting_.at(std::get<2>(head)).cause;
  timer_at_ = head_at;
  timer_ = scheduler_.At(
      head_at, "workqueue " + name() + ": delay elapsed", [this] { OnTimer(); }, cause);
}

// mirrors delaying_queue.go waitingLoop: pop every entry whose readyAt has come, Add each.
void DelayingQueue::OnTimer() {
  timer_.reset();
  const base::SimTime now = scheduler_.clock().Now();
  struct Due {
    std::string item;
    int64_t cause;
  };
  std::vector<Due> due;
  while (!heap_.empty() && std::get<0>(*heap_.begin()) <= now) {
    const std::string item = std::get<2>(*heap_.begin());
    heap_.erase(heap_.begin());
    auto it = waiting_.find(item);
    RLAB_ASSERT(it != waiting_.end(), "heap entry without a waiting record");
    due.push_back({item, it->second.cause});
    waiting_.erase(it);
  }
  ArmTimer();  // before the hooks, which may add again
  sim::Trace& trace = scheduler_.trace();
  for (const Due& d : due) {
    const sim::CauseScope add_cause(trace, d.cause);
    bool pushed = false;
    const AddOutcome outcome = AddInternal(d.item, &pushed);
    if (on_delayed_add_ && outcome != AddOutcome::kDropped) {
      on_delayed_add_(DelayedAdd{d.item, outcome, 0, d.cause});
    }
    if (pushed) NotifyReady();
  }
}

void DelayingQueue::CheckInvariants() const {
  Queue::CheckInvariants();
  RLAB_ASSERT(heap_.size() == waiting_.size(), "delay heap and waiting map out of sync");
  for (const HeapKey& key : heap_) {
    auto it = waiting_.find(std::get<2>(key));
    RLAB_ASSERT(it != waiting_.end(), "heap entry without a waiting record");
    RLAB_ASSERT(it->second.ready_at == std::get<0>(key), "heap readyAt differs from its record");
    RLAB_ASSERT(it->second.seq == std::get<1>(key), "heap sequence differs from its record");
  }
  RLAB_ASSERT(timer_.has_value() == !heap_.empty(), "the timer is armed iff items wait");
  if (timer_) {
    RLAB_ASSERT(timer_at_ == std::get<0>(*heap_.begin()), "the timer is armed at the head");
  }
}

}  // namespace workqueue
