#pragma once
// RateLimitingQueue: a DelayingQueue whose AddRateLimited asks a RateLimiter how long to wait;
// PriorityQueueWrapper presents it as the Interface controllers use (priority always 0).
// Mirrors: client-go util/workqueue/rate_limiting_queue.go (AddRateLimited, Forget,
// NumRequeues) and controller-runtime pkg/internal/controller/controller.go priorityQueueWrapper.
// Simplified: items are strings; AddRateLimited reports the delay and NumRequeues it caused.
// Single-threaded; time comes from sim::Scheduler / sim::Clock.

#include <memory>
#include <string>

#include "core/sim/scheduler.h"
#include "core/workqueue/default_rate_limiters.h"
#include "core/workqueue/delaying_queue.h"
#include "core/workqueue/interface.h"

namespace workqueue {

class RateLimitingQueue : public DelayingQueue {
 public:
  // rate_limiter defaults (when null) to DefaultControllerRateLimiter on the scheduler's clock.
  // scheduler must outlive this object.
  RateLimitingQueue(sim::Scheduler& scheduler, std::string name,
                    std::unique_ptr<RateLimiter> rate_limiter = nullptr);

  // AddRateLimited is AddAfter(item, When(item)). When runs first, so the failure is counted
  // even while shutting down (then the add itself is dropped). Returns the delay and
  // NumRequeues after the add. mirrors rate_limiting_queue.go AddRateLimited
  AddResult AddRateLimited(const std::string& item);
  // Forget clears the limiter's history of item; the queue and the delay heap are untouched.
  void Forget(const std::string& item) { rate_limiter_->Forget(item); }
  // NumRequeues is the limiter's failure count for item.
  int NumRequeues(const std::string& item) const { return rate_limiter_->NumRequeues(item); }

  RateLimiter& rate_limiter() { return *rate_limiter_; }

 private:
  std::unique_ptr<RateLimiter> rate_limiter_;  // Invariant: never null.
};

// PriorityQueueWrapper maps AddWithOpts onto the classic queue: rate_limited -> AddRateLimited
// (after is then ignored), after > 0 -> AddAfter, otherwise Add; priorities are ignored and Get
// reports priority 0. Len is the FIFO length. mirrors controller-runtime priorityQueueWrapper
class PriorityQueueWrapper final : public Interface {
 public:
  explicit PriorityQueueWrapper(std::unique_ptr<RateLimitingQueue> queue);

  AddResult AddWithOpts(const AddOpts& opts, const std::string& key) override;
  GetResult GetWithPriority() override { return queue_->Get(); }
  void Done(const std::string& key) override { queue_->Done(key); }
  void Forget(const std::string& key) override { queue_->Forget(key); }
  int NumRequeues(const std::string& key) const override { return queue_->NumRequeues(key); }
  size_t Len() const override { return queue_->Len(); }
  void ShutDown() override { queue_->ShutDown(); }
  bool ShuttingDown() const override { return queue_->ShuttingDown(); }
  void SetOnReady(std::function<void()> hook) override { queue_->SetOnReady(std::move(hook)); }
  void SetOnDelayedAdd(std::function<void(const DelayedAdd&)> hook) override {
    queue_->SetOnDelayedAdd(std::move(hook));
  }
  void SetWaitingCause(const std::string& key, int64_t cause) override {
    queue_->SetWaitingCause(key, cause);
  }
  const std::string& name() const override { return queue_->name(); }
  bool is_priority_queue() const override { return false; }
  QueueSnapshot Snapshot() const override;
  const QueueMetrics& metrics() const override { return queue_->metrics(); }

  RateLimitingQueue& queue() { return *queue_; }
  const RateLimitingQueue& queue() const { return *queue_; }

 private:
  std::unique_ptr<RateLimitingQueue> queue_;  // Invariant: never null.
};

}  // namespace workqueue
