#include "core/workqueue/rate_limiting_queue.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/sim/clock.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace workqueue {
namespace {

using base::kMillisecond;
using base::kSecond;

struct RlKernel {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
};

std::unique_ptr<RateLimiter> Exponential5ms() {
  return std::make_unique<ItemExponentialFailureRateLimiter>(5 * kMillisecond, 1000 * kSecond);
}

TEST(RateLimitingQueue, AddRateLimitedWaitsForTheLimitersDelay) {
  RlKernel k;
  RateLimitingQueue q(k.scheduler, "test", Exponential5ms());
  AddResult first = q.AddRateLimited("default/a");
  EXPECT_EQ(first.outcome, AddOutcome::kDelayed);
  EXPECT_EQ(first.delay, 5 * kMillisecond);
  EXPECT_EQ(first.requeues, 1);
  k.scheduler.RunUntil(5 * kMillisecond - 1);
  EXPECT_EQ(q.Len(), 0u);
  k.scheduler.RunUntil(5 * kMillisecond);
  EXPECT_EQ(q.Len(), 1u);
  AddResult second = q.AddRateLimited("default/a");
  EXPECT_EQ(second.delay, 10 * kMillisecond);
  EXPECT_EQ(second.requeues, 2);
  EXPECT_EQ(q.metrics().retries(), 2u);
}

TEST(RateLimitingQueue, ForgetResetsTheBackoffButLeavesTheItemWaiting) {
  RlKernel k;
  RateLimitingQueue q(k.scheduler, "test", Exponential5ms());
  q.AddRateLimited("x");
  q.AddRateLimited("x");
  q.Forget("x");
  EXPECT_EQ(q.NumRequeues("x"), 0);
  EXPECT_EQ(q.NumWaiting(), 1u);
  k.scheduler.RunUntil(5 * kMillisecond);
  EXPECT_EQ(q.Len(), 1u);
  EXPECT_EQ(q.AddRateLimited("x").delay, 5 * kMillisecond);
}

TEST(RateLimitingQueue, WhenCountsAFailureEvenWhileShuttingDown) {
  RlKernel k;
  RateLimitingQueue q(k.scheduler, "test", Exponential5ms());
  q.ShutDown();
  AddResult r = q.AddRateLimited("x");
  EXPECT_EQ(r.outcome, AddOutcome::kDropped);
  EXPECT_EQ(r.requeues, 1);
  EXPECT_EQ(q.NumRequeues("x"), 1);
  EXPECT_EQ(q.metrics().retries(), 0u) << "AddAfter returns before counting a retry";
}

TEST(RateLimitingQueue, DefaultsToTheControllerLimiterWithItsTokenBucket) {
  RlKernel k;
  RateLimitingQueue q(k.scheduler, "test");
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(q.AddRateLimited("default/item-" + std::to_string(i)).delay, 5 * kMillisecond);
  }
  EXPECT_EQ(q.AddRateLimited("default/item-100").delay, 100 * kMillisecond);
}

TEST(PriorityQueueWrapper, MapsAddOptsOntoTheClassicQueue) {
  struct Case {
    std::string name;
    AddOpts opts;
    AddOutcome want_outcome;
    base::Duration want_delay;
    int want_requeues;
    uint64_t want_retries;
  };
  auto opts = [](base::Duration after, bool rate_limited, std::optional<int> priority) {
    AddOpts o;
    o.after = after;
    o.rate_limited = rate_limited;
    o.priority = priority;
    return o;
  };
  const std::vector<Case> cases = {
      {"plain add", opts(0, false, std::nullopt), AddOutcome::kQueued, 0, 0, 0},
      {"priority is ignored", opts(0, false, 5), AddOutcome::kQueued, 0, 0, 0},
      {"after > 0 is AddAfter", opts(kSecond, false, std::nullopt), AddOutcome::kDelayed, kSecond,
       0, 1},
      {"rate limited ignores after", opts(kSecond, true, std::nullopt), AddOutcome::kDelayed,
       5 * kMillisecond, 1, 1},
      {"negative after is a plain Add, not AddAfter", opts(-kSecond, false, std::nullopt),
       AddOutcome::kQueued, 0, 0, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    RlKernel k;
    PriorityQueueWrapper q(
        std::make_unique<RateLimitingQueue>(k.scheduler, "test", Exponential5ms()));
    AddResult r = q.AddWithOpts(c.opts, "default/a");
    EXPECT_EQ(r.outcome, c.want_outcome);
    EXPECT_EQ(r.delay, c.want_delay);
    EXPECT_EQ(r.requeues, c.want_requeues);
    EXPECT_EQ(r.priority, 0);
    EXPECT_EQ(q.metrics().retries(), c.want_retries);
    k.scheduler.RunUntil(10 * kSecond);
    GetResult got = q.GetWithPriority();
    EXPECT_EQ(got.key.value_or(""), "default/a");
    EXPECT_EQ(got.priority, 0);
  }
}

TEST(PriorityQueueWrapper, SnapshotShowsFifoWaitingProcessingDirtyAndRequeues) {
  RlKernel k;
  PriorityQueueWrapper q(
      std::make_unique<RateLimitingQueue>(k.scheduler, "test", Exponential5ms()));
  q.Add("default/a");
  q.Add("default/b");
  q.Add("default/c");
  ASSERT_EQ(q.Get().key.value_or(""), "default/a");
  q.Add("default/a");             // dirty while processing
  q.AddRateLimited("default/d");  // waiting 5ms
  q.AddAfter("default/e", kSecond);
  QueueSnapshot snap = q.Snapshot();
  EXPECT_FALSE(snap.priority_queue);
  EXPECT_EQ(snap.len, 2u);
  ASSERT_EQ(snap.ready.size(), 2u);
  EXPECT_EQ(snap.ready[0].key, "default/b");
  EXPECT_EQ(snap.ready[1].key, "default/c");
  ASSERT_EQ(snap.waiting.size(), 2u);
  EXPECT_EQ(snap.waiting[0].key, "default/d");
  EXPECT_EQ(snap.waiting[0].ready_at, 5 * kMillisecond);
  EXPECT_EQ(snap.waiting[1].key, "default/e");
  EXPECT_EQ(snap.processing, (std::vector<std::string>{"default/a"}));
  EXPECT_EQ(snap.dirty, (std::vector<std::string>{"default/a", "default/b", "default/c"}));
  EXPECT_EQ(snap.requeues, (std::map<std::string, int>{{"default/d", 1}}));
}

}  // namespace
}  // namespace workqueue
