#include "core/workqueue/interface.h"

#include <utility>

#include "core/workqueue/priority_queue.h"
#include "core/workqueue/rate_limiting_queue.h"

namespace workqueue {

const char* AddOutcomeName(AddOutcome outcome) {
  switch (outcome) {
    case AddOutcome::kQueued:
      return "queued";
    case AddOutcome::kCoalesced:
      return "coalesced";
    case AddOutcome::kDirty:
      return "dirty";
    case AddOutcome::kDelayed:
      return "delayed";
    case AddOutcome::kDropped:
      return "dropped";
  }
  return "unknown";
}

// mirrors controller-runtime pkg/controller/controller.go NewTypedUnmanaged (RateLimiter and
// NewQueue defaults)
std::unique_ptr<Interface> NewQueue(sim::Scheduler& scheduler, const std::string& name,
                                    QueueOptions options) {
  if (options.use_priority_queue) {
    if (!options.rate_limiter) {
      options.rate_limiter = std::make_unique<ItemExponentialFailureRateLimiter>(
          5 * base::kMillisecond, 1000 * base::kSecond);
    }
    return std::make_unique<PriorityQueue>(scheduler, name, std::move(options.rate_limiter));
  }
  if (!options.rate_limiter) options.rate_limiter = DefaultControllerRateLimiter(scheduler.clock());
  return std::make_unique<PriorityQueueWrapper>(
      std::make_unique<RateLimitingQueue>(scheduler, name, std::move(options.rate_limiter)));
}

}  // namespace workqueue
