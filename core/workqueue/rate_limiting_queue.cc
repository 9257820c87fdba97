#include "core/workqueue/rate_limiting_queue.h"

#include <utility>

#include "core/base/assert.h"

namespace workqueue {

RateLimitingQueue::RateLimitingQueue(sim::Scheduler& scheduler, std::string name,
                                     std::unique_ptr<RateLimiter> rate_limiter)
    : DelayingQueue(scheduler, std::move(name)), rate_limiter_(std::move(rate_limiter)) {
  if (!rate_limiter_) rate_limiter_ = DefaultControllerRateLimiter(scheduler.clock());
}

// mirrors rate_limiting_queue.go AddRateLimited: When first, then AddAfter.
AddResult RateLimitingQueue::AddRateLimited(const std::string& item) {
  const base::Duration delay = rate_limiter_->When(item);
  AddResult result = AddAfter(item, delay);
  result.requeues = NumRequeues(item);
  return result;
}

PriorityQueueWrapper::PriorityQueueWrapper(std::unique_ptr<RateLimitingQueue> queue)
    : queue_(std::move(queue)) {
  RLAB_ASSERT(queue_ != nullptr, "PriorityQueueWrapper needs a queue");
}

// mirrors controller-runtime pkg/internal/controller/controller.go priorityQueueWrapper.AddWithOpts
AddResult PriorityQueueWrapper::AddWithOpts(const AddOpts& opts, const std::string& key) {
  AddResult result;
  if (opts.rate_limited) {
    result = queue_->AddRateLimited(key);
  } else if (opts.after > 0) {
    result = queue_->AddAfter(key, opts.after);
  } else {
    result.outcome = queue_->Add(key);
  }
  result.requeues = queue_->NumRequeues(key);
  result.priority = 0;
  return result;
}

QueueSnapshot PriorityQueueWrapper::Snapshot() const {
  QueueSnapshot snap;
  snap.name = queue_->name();
  snap.priority_queue = false;
  snap.shutting_down = queue_->ShuttingDown();
  snap.len = queue_->Len();
  for (const std::string& key : queue_->Items()) snap.ready.push_back({key, 0, false});
  snap.waiting = queue_->Waiting();
  snap.processing.assign(queue_->processing().begin(), queue_->processing().end());
  snap.dirty.assign(queue_->dirty().begin(), queue_->dirty().end());
  auto note = [&](const std::string& key) {
    const int n = queue_->NumRequeues(key);
    if (n > 0) snap.requeues[key] = n;
  };
  for (const auto& entry : snap.ready) note(entry.key);
  for (const auto& entry : snap.waiting) note(entry.key);
  for (const auto& key : snap.processing) note(key);
  for (const auto& key : snap.dirty) note(key);
  return snap;
}

}  // namespace workqueue
