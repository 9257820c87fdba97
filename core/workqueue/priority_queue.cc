#include "core/workqueue/priority_queue.h"

#include <limits>
#include <utility>

#include "core/base/assert.h"
#include "core/sim/cause_scope.h"

namespace workqueue {

namespace {
base::SimTime PqSaturatingAdd(base::SimTime now, base::Duration d) {
  if (d > std::numeric_limits<base::SimTime>::max() - now) {
    return std::numeric_limits<base::SimTime>::max();
  }
  return now + d;
}
}  // namespace

PriorityQueue::PriorityQueue(sim::Scheduler& scheduler, std::string name,
                             std::unique_ptr<RateLimiter> rate_limiter)
    : scheduler_(scheduler),
      metrics_(scheduler.clock(), std::move(name), /*with_priority=*/true),
      rate_limiter_(std::move(rate_limiter)) {
  // mirrors priorityqueue.go New: the default limiter has no token bucket.
  if (!rate_limiter_) {
    rate_limiter_ = std::make_unique<ItemExponentialFailureRateLimiter>(5 * base::kMillisecond,
                                                                        1000 * base::kSecond);
  }
}

PriorityQueue::~PriorityQueue() {
  if (timer_) scheduler_.Cancel(*timer_);
}

PriorityQueue::ReadyKey PriorityQueue::ReadyKeyOf(const std::string& key, const Entry& e) {
  return ReadyKey{-static_cast<int64_t>(e.priority), e.added_counter, key};
}

PriorityQueue::WaitingKey PriorityQueue::WaitingKeyOf(const std::string& key, const Entry& e) {
  return WaitingKey{*e.ready_at, -static_cast<int64_t>(e.priority), e.added_counter, key};
}

void PriorityQueue::Insert(const std::string& key, const Entry& e) {
  if (e.ready_at) {
    waiting_.insert(WaitingKeyOf(key, e));
  } else {
    ready_.insert(ReadyKeyOf(key, e));
  }
}

void PriorityQueue::Erase(const std::string& key, const Entry& e) {
  const size_t erased =
      e.ready_at ? waiting_.erase(WaitingKeyOf(key, e)) : ready_.erase(ReadyKeyOf(key, e));
  RLAB_ASSERT(erased == 1, "priority queue entry missing from its ordered set");
}

// mirrors priorityqueue.go lockedAddWithOpts
AddResult PriorityQueue::AddWithOpts(const AddOpts& opts, const std::string& key) {
  AddResult result;
  const int new_priority = opts.priority.value_or(0);
  result.priority = new_priority;
  if (shutdown_) {  // AddWithOpts returns before the limiter is asked
    result.outcome = AddOutcome::kDropped;
    result.requeues = NumRequeues(key);
    return result;
  }

  base::Duration after = opts.after;
  if (opts.rate_limited) {
    const base::Duration rl_after = rate_limiter_->When(key);  // always counts a failure
    if (after == 0 || rl_after < after) after = rl_after;
  }
  result.delay = after;

  std::optional<base::SimTime> ready_at;
  if (after > 0) {
    ready_at = PqSaturatingAdd(scheduler_.clock().Now(), after);
    metrics_.Retry();  // only a non-zero delay counts here, unlike client-go's AddAfter
  }
  const int64_t cause = scheduler_.trace().current_cause();
  const bool locked = locked_.count(key) > 0;
  bool notify = false;

  auto it = items_.find(key);
  if (it == items_.end()) {
    Entry e;
    e.added_counter = added_counter_++;
    e.priority = new_priority;
    e.ready_at = ready_at;
    e.cause = cause;
    items_.emplace(key, e);
    Insert(key, e);
    if (ready_at) {
      result.outcome = AddOutcome::kDelayed;
      result.delay_set = true;
    } else {
      metrics_.Add(key, e.priority);
      result.outcome = locked ? AddOutcome::kDirty : AddOutcome::kQueued;
      notify = !locked;
    }
  } else {
    Entry& e = it->second;
    Erase(key, e);
    const bool was_ready = !e.ready_at.has_value();

    // readyAt: a ready entry stays ready; otherwise the earlier of the two wins.
    std::optional<base::SimTime> next_ready_at = ready_at;
    if (was_ready) {
      next_ready_at.reset();
    } else if (ready_at && *e.ready_at < *ready_at) {
      next_ready_at = e.ready_at;
    }

    // Priority: never lowered; a rise gets a fresh counter (back of the new level).
    if (new_priority > e.priority) {
      if (was_ready) metrics_.UpdateDepthPriority(e.priority, new_priority);
      e.priority = new_priority;
      e.added_counter = added_counter_++;
    }

    if (was_ready) {
      result.outcome = locked ? AddOutcome::kDirty : AddOutcome::kCoalesced;
    } else if (!next_ready_at) {
      metrics_.Add(key, e.priority);  // a waiting entry made ready counts as an add
      result.outcome = locked ? AddOutcome::kDirty : AddOutcome::kQueued;
      notify = !locked;
    } else {
      result.outcome = AddOutcome::kDelayed;
      if (*next_ready_at < *e.ready_at) {
        result.delay_set = true;
        e.cause = cause;
      }
    }
    e.ready_at = next_ready_at;
    Insert(key, e);
    result.priority = e.priority;
  }

  result.requeues = NumRequeues(key);
  ArmTimer();
  if (notify) NotifyReady();
  return result;
}

// mirrors priorityqueue.go GetWithPriority and handleReadyItems
GetResult PriorityQueue::GetWithPriority() {
  GetResult result;
  if (shutdown_) {
    result.shutdown = true;
    return result;
  }
  for (auto it = ready_.begin(); it != ready_.end(); ++it) {
    const std::string& key = std::get<2>(*it);
    if (locked_.count(key) > 0) continue;  // being processed: skipped until Done
    auto entry = items_.find(key);
    RLAB_ASSERT(entry != items_.end(), "ready key without an entry");
    RLAB_ASSERT(!entry->second.ready_at.has_value(), "a ready entry must have no readyAt");
    result.key = key;
    result.priority = entry->second.priority;
    metrics_.Get(key, entry->second.priority);
    locked_.insert(key);
    items_.erase(entry);
    ready_.erase(it);
    return result;
  }
  return result;
}

// mirrors priorityqueue.go Done
void PriorityQueue::Done(const std::string& key) {
  RLAB_ASSERT(locked_.count(key) > 0, "Done for a key Get did not hand out (or Done twice)");
  locked_.erase(key);
  metrics_.Done(key);
  auto it = items_.find(key);
  if (it != items_.end() && !it->second.ready_at) NotifyReady();  // its re-added entry is free
}

// mirrors priorityqueue.go ShutDown
void PriorityQueue::ShutDown() {
  if (shutdown_) return;
  shutdown_ = true;
  ArmTimer();  // disarms: waiting entries never become ready after shutdown
  NotifyReady();
}

void PriorityQueue::SetWaitingCause(const std::string& key, int64_t cause) {
  auto it = items_.find(key);
  if (it != items_.end() && it->second.ready_at) it->second.cause = cause;
}

void PriorityQueue::NotifyReady() {
  if (on_ready_) on_ready_();
}

void PriorityQueue::ArmTimer() {
  if (waiting_.empty() || shutdown_) {
    if (timer_) scheduler_.Cancel(*timer_);
    timer_.reset();
    return;
  }
  const WaitingKey& head = *waiting_.begin();
  const base::SimTime head_at = std::get<0>(head);
  if (timer_ && timer_at_ == head_at) return;
  if (timer_) scheduler_.Cancel(*timer_);
  const int64_t cause = items_.at(std::get<3>(head)).cause;
  timer_at_ = head_at;
  timer_ = scheduler_.At(
      head_at, "priorityqueue " + name() + ": delay elapsed", [this] { OnTimer(); }, cause);
}

// mirrors priorityqueue.go handleWaitingItems: every due entry, in waiting order, becomes ready
// with a fresh added counter (ordered by when it became ready) and counts as an add.
void PriorityQueue::OnTimer() {
  timer_.reset();
  const base::SimTime now = scheduler_.clock().Now();
  std::vector<DelayedAdd> moved;
  while (!waiting_.empty() && std::get<0>(*waiting_.begin()) <= now) {
    const std::string key = std::get<3>(*waiting_.begin());
    waiting_.erase(waiting_.begin());
    Entry& e = items_.at(key);
    e.ready_at.reset();
    e.added_counter = added_counter_++;
    metrics_.Add(key, e.priority);
    ready_.insert(ReadyKeyOf(key, e));
    const bool locked = locked_.count(key) > 0;
    moved.push_back(
        DelayedAdd{key, locked ? AddOutcome::kDirty : AddOutcome::kQueued, e.priority, e.cause});
  }
  ArmTimer();
  sim::Trace& trace = scheduler_.trace();
  for (const DelayedAdd& add : moved) {
    const sim::CauseScope add_cause(trace, add.cause);
    if (on_delayed_add_) on_delayed_add_(add);
    if (add.outcome == AddOutcome::kQueued) NotifyReady();
  }
}

QueueSnapshot PriorityQueue::Snapshot() const {
  QueueSnapshot snap;
  snap.name = name();
  snap.priority_queue = true;
  snap.shutting_down = shutdown_;
  snap.len = Len();
  for (const ReadyKey& rk : ready_) {
    const std::string& key = std::get<2>(rk);
    snap.ready.push_back({key, -static_cast<int>(std::get<0>(rk)), locked_.count(key) > 0});
  }
  for (const WaitingKey& wk : waiting_) {
    snap.waiting.push_back({std::get<3>(wk), std::get<0>(wk), -static_cast<int>(std::get<1>(wk))});
  }
  snap.processing.assign(locked_.begin(), locked_.end());
  for (const std::string& key : locked_) {
    if (items_.count(key) > 0) snap.dirty.push_back(key);
  }
  auto note = [&](const std::string& key) {
    const int n = NumRequeues(key);
    if (n > 0) snap.requeues[key] = n;
  };
  for (const auto& [key, entry] : items_) note(key);
  for (const auto& key : locked_) note(key);
  return snap;
}

void PriorityQueue::CheckInvariants() const {
  RLAB_ASSERT(items_.size() == ready_.size() + waiting_.size(),
              "every entry is in exactly one of ready and waiting");
  for (const auto& [key, e] : items_) {
    RLAB_ASSERT(e.added_counter < added_counter_, "added counter not fresh");
    if (e.ready_at) {
      RLAB_ASSERT(waiting_.count(WaitingKeyOf(key, e)) == 1, "waiting entry missing");
    } else {
      RLAB_ASSERT(ready_.count(ReadyKeyOf(key, e)) == 1, "ready entry missing");
    }
  }
  const bool want_timer = !waiting_.empty() && !shutdown_;
  RLAB_ASSERT(timer_.has_value() == want_timer, "the timer is armed iff entries wait");
  if (timer_) {
    RLAB_ASSERT(timer_at_ == std::get<0>(*waiting_.begin()), "the timer is armed at the head");
  }
}

}  // namespace workqueue
