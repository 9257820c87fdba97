#include "core/workqueue/queue.h"

#include <algorithm>
#include <utility>

#include "core/base/assert.h"

namespace workqueue {

Queue::Queue(const sim::Clock& clock, std::string name)
    : metrics_(clock, std::move(name), /*with_priority=*/false) {}

AddOutcome Queue::Add(const std::string& item) {
  bool pushed = false;
  const AddOutcome outcome = AddInternal(item, &pushed);
  if (pushed) NotifyReady();
  return outcome;
}

// mirrors queue.go Typed.Add
AddOutcome Queue::AddInternal(const std::string& item, bool* pushed) {
  *pushed = false;
  if (shutting_down_) return AddOutcome::kDropped;
  const bool processing = processing_.count(item) > 0;
  if (dirty_.count(item) > 0) {
    // Already waiting (coalesced) or already marked to run again after Done (dirty).
    // Upstream calls queue.Touch(item) here when not processing; a no-op for the FIFO.
    return processing ? AddOutcome::kDirty : AddOutcome::kCoalesced;
  }
  mutable_metrics().Add(item, 0);
  dirty_.insert(item);
  if (processing) return AddOutcome::kDirty;  // Done pushes it; Len() does not count it yet
  Push(item);
  *pushed = true;
  return AddOutcome::kQueued;
}

void Queue::Push(const std::string& item) {
  RLAB_ASSERT(dirty_.count(item) > 0, "only dirty items enter the FIFO");
  RLAB_ASSERT(processing_.count(item) == 0, "an item being processed must not enter the FIFO");
  queue_.push_back(item);
}

// mirrors queue.go Typed.Get
GetResult Queue::Get() {
  GetResult result;
  if (queue_.empty()) {
    result.shutdown = shutting_down_;  // upstream blocks here unless shutting down
    return result;
  }
  std::string item = std::move(queue_.front());
  queue_.pop_front();
  RLAB_ASSERT(dirty_.count(item) > 0, "a queued item must be dirty");
  RLAB_ASSERT(processing_.count(item) == 0, "a queued item must not be processing");
  mutable_metrics().Get(item, 0);
  processing_.insert(item);
  dirty_.erase(item);
  result.key = std::move(item);
  return result;
}

// mirrors queue.go Typed.Done
void Queue::Done(const std::string& item) {
  RLAB_ASSERT(processing_.count(item) > 0,
              "Done for an item Get did not hand out (or Done called twice)");
  mutable_metrics().Done(item);
  processing_.erase(item);
  if (dirty_.count(item) > 0) {
    Push(item);
    NotifyReady();
  } else if (processing_.empty() && drain_waiting_) {
    drain_waiting_ = false;
    if (on_drained_) on_drained_();
  }
}

// mirrors queue.go Typed.ShutDown
void Queue::ShutDown() {
  const bool was_shutting_down = shutting_down_;
  shutting_down_ = true;
  if (drain_waiting_) {  // clearing `drain` releases a waiting ShutDownWithDrain
    drain_waiting_ = false;
    if (on_drained_) on_drained_();
  }
  if (!was_shutting_down) NotifyReady();
}

// mirrors queue.go Typed.ShutDownWithDrain
bool Queue::ShutDownWithDrain() {
  const bool was_shutting_down = shutting_down_;
  shutting_down_ = true;
  drain_waiting_ = !processing_.empty();
  if (!was_shutting_down) NotifyReady();
  return !drain_waiting_;
}

void Queue::NotifyReady() {
  if (on_ready_) on_ready_();
}

void Queue::CheckInvariants() const {
  std::set<std::string> seen;
  for (const std::string& item : queue_) {
    RLAB_ASSERT(seen.insert(item).second, "an item is in the FIFO twice");
    RLAB_ASSERT(dirty_.count(item) > 0, "an item in the FIFO is not dirty");
    RLAB_ASSERT(processing_.count(item) == 0, "an item in the FIFO is being processed");
  }
  for (const std::string& item : dirty_) {
    const bool queued = seen.count(item) > 0;
    const bool processing = processing_.count(item) > 0;
    RLAB_ASSERT(queued != processing, "a dirty item is either queued or being processed");
  }
  if (drain_waiting_) {
    RLAB_ASSERT(shutting_down_, "draining implies shutting down");
    RLAB_ASSERT(!processing_.empty(), "draining waits only while items are processing");
  }
}

}  // namespace workqueue
