#include "core/world/workloads/worker_queue.h"

#include <utility>

#include "core/base/assert.h"
#include "core/sim/cause_scope.h"

namespace world {

WorkerQueue::WorkerQueue(sim::Scheduler& scheduler, Options options, Sync sync)
    : scheduler_(scheduler),
      options_(std::move(options)),
      sync_(std::move(sync)),
      queue_(scheduler, options_.name) {
  RLAB_ASSERT(sync_ != nullptr, "WorkerQueue needs a sync function");
  RLAB_ASSERT(options_.pickup > 0, "WorkerQueue pickup must be positive");
  queue_.SetOnReady([this] { Arm(); });
  queue_.SetOnDelayedAdd(
      [this](const workqueue::DelayedAdd& add) { causes_.try_emplace(add.key, add.cause); });
}

WorkerQueue::~WorkerQueue() {
  alive_.reset();
  queue_.ShutDown();
}

void WorkerQueue::NoteCause(const std::string& key) {
  causes_.try_emplace(key, scheduler_.trace().current_cause());
}

void WorkerQueue::Add(const std::string& key) {
  NoteCause(key);
  queue_.Add(key);
}

void WorkerQueue::AddAfter(const std::string& key, base::Duration delay) {
  if (delay <= 0) return Add(key);
  queue_.AddAfter(key, delay);
}

void WorkerQueue::ShutDown() {
  queue_.ShutDown();
  causes_.clear();
}

void WorkerQueue::Arm() {
  if (armed_ || queue_.ShuttingDown()) return;
  armed_ = true;
  std::weak_ptr<int> alive = alive_;
  scheduler_.After(options_.pickup, "sync " + options_.name, [this, alive] {
    if (alive.expired()) return;
    armed_ = false;
    Work();
  });
}

// mirrors the controllers' processNextWorkItem, once per key that was ready.
void WorkerQueue::Work() {
  sim::Trace& trace = scheduler_.trace();
  // The workers stop with the controller's context, even while keys remain (the classic queue
  // would still hand them out).
  for (size_t ready = queue_.Len(); ready > 0 && !queue_.ShuttingDown(); --ready) {
    workqueue::GetResult got = queue_.Get();
    if (!got.key.has_value()) return;
    const std::string key = *std::move(got.key);
    int64_t cause = sim::kNoCause;
    if (auto it = causes_.find(key); it != causes_.end()) {
      cause = it->second;
      causes_.erase(it);
    }
    bool ok;
    {
      const sim::CauseScope scope(trace, cause, sim::CauseScope::kIfKnown);
      ok = sync_(key);
    }
    if (ok) {
      queue_.Forget(key);
    } else {
      queue_.AddRateLimited(key);
    }
    queue_.Done(key);
  }
}

}  // namespace world
