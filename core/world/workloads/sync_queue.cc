#include "core/world/workloads/sync_queue.h"

#include <utility>

#include "core/base/assert.h"

namespace world {

SyncQueue::SyncQueue(sim::Scheduler& scheduler, Options options, Sync sync)
    : scheduler_(scheduler),
      options_(std::move(options)),
      sync_(std::move(sync)),
      alive_(std::make_shared<int>(0)) {
  RLAB_ASSERT(sync_ != nullptr, "SyncQueue needs a sync function");
  RLAB_ASSERT(options_.delay >= 0, "SyncQueue delay must not be negative");
}

SyncQueue::~SyncQueue() {
  Clear();
  alive_.reset();
}

void SyncQueue::Add(const std::string& key) { AddAfter(key, options_.delay); }

void SyncQueue::AddAfter(const std::string& key, base::Duration delay) {
  ++adds_;
  const base::SimTime at = scheduler_.clock().Now() + (delay < 0 ? 0 : delay);
  auto it = pending_.find(key);
  if (it != pending_.end()) {
    if (it->second.at <= at) return;  // coalesced: the earlier sync will see this change too
    scheduler_.Cancel(it->second.event);
    pending_.erase(it);
  }
  std::weak_ptr<int> alive = alive_;
  const sim::EventId id =
      scheduler_.At(at, "sync " + options_.name + " " + key, [this, alive, key] {
        if (!alive.expired()) Run(key);
      });
  pending_[key] = Pending{id, at};
}

void SyncQueue::Clear() {
  for (const auto& [key, p] : pending_) scheduler_.Cancel(p.event);
  pending_.clear();
  failures_.clear();
}

void SyncQueue::Run(const std::string& key) {
  pending_.erase(key);
  if (sync_(key)) {
    failures_.erase(key);  // Forget
    return;
  }
  // mirrors workqueue AddRateLimited: exponential per-item backoff (integer shift, capped).
  ++retries_;
  const int failures = ++failures_[key];
  base::Duration wait = options_.retry_base;
  for (int i = 1; i < failures && wait < options_.retry_max; ++i) wait *= 2;
  if (wait > options_.retry_max) wait = options_.retry_max;
  AddAfter(key, wait);
}

}  // namespace world
