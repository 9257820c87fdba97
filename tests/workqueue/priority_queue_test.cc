#include "core/workqueue/priority_queue.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/sim/clock.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace workqueue {
namespace {

using base::kMillisecond;
using base::kSecond;

struct PqKernel {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
};

AddOpts Opts(base::Duration after, bool rate_limited = false,
             std::optional<int> priority = std::nullopt) {
  AddOpts o;
  o.after = after;
  o.rate_limited = rate_limited;
  o.priority = priority;
  return o;
}

AddOpts Priority(int priority) { return Opts(0, false, priority); }

// Drain hands out every ready key (without Done) and returns "key@priority" strings.
std::vector<std::string> Drain(PriorityQueue& q) {
  std::vector<std::string> out;
  while (true) {
    GetResult got = q.GetWithPriority();
    if (!got.key) break;
    out.push_back(*got.key + "@" + std::to_string(got.priority));
  }
  return out;
}

TEST(PriorityQueue, HandsOutHigherPriorityFirstAndFifoWithinAPriority) {
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  q.AddWithOpts(Priority(kLowPriority), "default/initial-list");
  q.AddWithOpts(Priority(0), "default/a");
  q.AddWithOpts(Priority(1), "default/b");
  q.AddWithOpts(Priority(0), "default/c");
  q.AddWithOpts(Priority(1), "default/d");
  q.CheckInvariants();
  EXPECT_EQ(Drain(q), (std::vector<std::string>{"default/b@1", "default/d@1", "default/a@0",
                                                "default/c@0", "default/initial-list@-100"}));
}

TEST(PriorityQueue, DeduplicatesAKeyIntoOneEntry) {
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  EXPECT_EQ(q.Add("foo").outcome, AddOutcome::kQueued);
  EXPECT_EQ(q.Add("foo").outcome, AddOutcome::kCoalesced);
  EXPECT_EQ(q.Len(), 1u);
  EXPECT_EQ(q.metrics().adds(), 1u);
  EXPECT_EQ(q.metrics().depth_by_priority(), (std::map<std::string, int64_t>{{"0", 1}}));
}

TEST(PriorityQueue, ALockedKeyReAddedIsCountedByLenButSkippedUntilDone) {
  // controller-runtime priorityqueue_test.go "enqueues a locked item"
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  q.Add("foo");
  ASSERT_EQ(q.Get().key.value_or(""), "foo");
  EXPECT_EQ(q.Add("foo").outcome, AddOutcome::kDirty);
  EXPECT_EQ(q.Add("foo").outcome, AddOutcome::kDirty) << "still being processed";
  EXPECT_EQ(q.Len(), 1u) << "unlike client-go, Len counts the locked key's new entry";
  EXPECT_FALSE(q.Get().key.has_value());
  q.Add("bar");
  EXPECT_EQ(q.Get().key.value_or(""), "bar") << "a locked key does not block others";
  q.Done("foo");
  GetResult again = q.Get();
  EXPECT_EQ(again.key.value_or(""), "foo");
  EXPECT_EQ(again.priority, 0);
  EXPECT_EQ(q.metrics().adds(), 3u);
  EXPECT_EQ(q.metrics().depth_by_priority(), (std::map<std::string, int64_t>{{"0", 0}}));
  q.CheckInvariants();
}

TEST(PriorityQueue, PriorityIsTheMaximumOfAllAdds) {
  struct Case {
    std::string name;
    std::vector<int> priorities;
    int want;
    std::map<std::string, int64_t> want_depth_after_get;
  };
  const std::vector<Case> cases = {
      {"retains the highest priority", {1, 2}, 2, {{"1", 0}, {"2", 0}}},
      {"will not decrease the priority", {2, 1}, 2, {{"2", 0}}},
      {"low priority then default", {kLowPriority, 0}, 0, {{"-100", 0}, {"0", 0}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    PqKernel k;
    PriorityQueue q(k.scheduler, "test");
    for (int p : c.priorities) q.AddWithOpts(Priority(p), "foo");
    GetResult got = q.Get();
    EXPECT_EQ(got.key.value_or(""), "foo");
    EXPECT_EQ(got.priority, c.want);
    EXPECT_EQ(q.Len(), 0u);
    EXPECT_EQ(q.metrics().adds(), 1u);
    EXPECT_EQ(q.metrics().depth_by_priority(), c.want_depth_after_get);
  }
}

TEST(PriorityQueue, ARaisedPriorityGoesToTheBackOfItsNewLevel) {
  // priorityqueue_test.go "follows FIFO order ... when item priority changes" and
  // "gets pushed to the front if the priority increases"
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  q.AddWithOpts(Priority(0), "foo");
  q.AddWithOpts(Priority(1), "bar");
  q.AddWithOpts(Priority(0), "baz");
  AddResult r = q.AddWithOpts(Priority(1), "foo");
  EXPECT_EQ(r.outcome, AddOutcome::kCoalesced);
  EXPECT_EQ(r.priority, 1);
  EXPECT_EQ(q.Len(), 3u);
  EXPECT_EQ(q.metrics().depth_by_priority(), (std::map<std::string, int64_t>{{"0", 1}, {"1", 2}}));
  EXPECT_EQ(Drain(q), (std::vector<std::string>{"bar@1", "foo@1", "baz@0"}));
}

TEST(PriorityQueue, AReadyKeyIgnoresALaterDelay) {
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  q.Add("foo");
  AddResult r = q.AddAfter("foo", 3600 * kSecond);
  EXPECT_EQ(r.outcome, AddOutcome::kCoalesced);
  EXPECT_FALSE(r.delay_set);
  EXPECT_EQ(q.Get().key.value_or(""), "foo");
  EXPECT_EQ(q.Len(), 0u);
  EXPECT_EQ(k.scheduler.pending(), 0u);
  EXPECT_EQ(q.metrics().adds(), 1u);
  EXPECT_EQ(q.metrics().retries(), 1u) << "a non-zero delay counts even when ignored";
}

TEST(PriorityQueue, AWaitingKeyKeepsTheEarliestReadyAt) {
  struct Case {
    std::string name;
    base::Duration first, second, want_ready;
  };
  const std::vector<Case> cases = {
      {"shorter replaces longer", 3600 * kSecond, kSecond, kSecond},
      {"longer never extends shorter", kSecond, 3600 * kSecond, kSecond},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    PqKernel k;
    PriorityQueue q(k.scheduler, "test");
    EXPECT_EQ(q.AddAfter("foo", c.first).outcome, AddOutcome::kDelayed);
    EXPECT_EQ(q.AddAfter("foo", c.second).outcome, AddOutcome::kDelayed);
    ASSERT_EQ(q.Snapshot().waiting.size(), 1u);
    EXPECT_EQ(q.Snapshot().waiting[0].ready_at, c.want_ready);
    EXPECT_EQ(q.Len(), 0u) << "waiting keys are not counted";
    k.scheduler.RunUntil(c.want_ready - 1);
    EXPECT_FALSE(q.Get().key.has_value());
    k.scheduler.RunUntil(c.want_ready);
    EXPECT_EQ(q.Len(), 1u);
    EXPECT_EQ(q.Get().key.value_or(""), "foo");
    q.CheckInvariants();
  }
}

TEST(PriorityQueue, RateLimitedAndAfterTakeTheShorterDelay) {
  struct Case {
    std::string name;
    base::Duration after;
    int prior_failures;
    base::Duration want_delay;
  };
  const std::vector<Case> cases = {
      {"limiter alone", 0, 0, 5 * kMillisecond},
      {"limiter shorter than after", kSecond, 0, 5 * kMillisecond},
      {"after shorter than limiter", kMillisecond, 0, kMillisecond},
      {"after shorter than a grown backoff", 30 * kMillisecond, 3, 30 * kMillisecond},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    PqKernel k;
    PriorityQueue q(k.scheduler, "test");
    for (int i = 0; i < c.prior_failures; ++i) q.rate_limiter().When("foo");
    AddResult r = q.AddWithOpts(Opts(c.after, true), "foo");
    EXPECT_EQ(r.delay, c.want_delay);
    EXPECT_EQ(r.requeues, c.prior_failures + 1) << "When always counts a failure";
    k.scheduler.RunUntil(c.want_delay - 1);
    EXPECT_EQ(q.Len(), 0u);
    k.scheduler.RunUntil(c.want_delay);
    EXPECT_EQ(q.Len(), 1u);
  }
}

TEST(PriorityQueue, RetriesCountOnlyNonZeroDelays) {
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  q.AddAfter("a", 0);
  q.AddAfter("b", -kSecond);
  EXPECT_EQ(q.metrics().retries(), 0u);
  q.AddAfter("c", kSecond);
  q.AddRateLimited("d");
  EXPECT_EQ(q.metrics().retries(), 2u);
}

TEST(PriorityQueue, AWaitingKeyMadeReadyByAnAddCountsAsAnAdd) {
  // priorityqueue_test.go "updates metrics correctly for an item that gets initially added with
  // after and then without" and "... re-added with higher priority and no after"
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  q.AddWithOpts(Opts(3600 * kSecond, false, 0), "foo");
  EXPECT_EQ(q.Len(), 0u);
  EXPECT_TRUE(q.metrics().depth_by_priority().empty());
  AddResult r = q.AddWithOpts(Priority(1), "foo");
  EXPECT_EQ(r.outcome, AddOutcome::kQueued);
  EXPECT_EQ(q.Len(), 1u);
  EXPECT_EQ(q.metrics().depth_by_priority(), (std::map<std::string, int64_t>{{"1", 1}}));
  GetResult got = q.Get();
  EXPECT_EQ(got.priority, 1);
  EXPECT_EQ(q.metrics().depth_by_priority(), (std::map<std::string, int64_t>{{"1", 0}}));
  EXPECT_EQ(q.metrics().adds(), 1u);
  EXPECT_EQ(k.scheduler.pending(), 0u) << "nothing waits any more";
}

TEST(PriorityQueue, AKeyThatBecomesReadyQueuesBehindKeysAlreadyReady) {
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  std::vector<std::string> fired;
  q.SetOnDelayedAdd(
      [&](const DelayedAdd& add) { fired.push_back(add.key + ":" + AddOutcomeName(add.outcome)); });
  q.AddAfter("early", 10 * kMillisecond);  // added first, counter 0
  q.Add("ready");                          // counter 1
  k.scheduler.RunUntil(10 * kMillisecond);
  EXPECT_EQ(fired, (std::vector<std::string>{"early:queued"}));
  EXPECT_EQ(q.metrics().adds(), 2u);
  EXPECT_EQ(Drain(q), (std::vector<std::string>{"ready@0", "early@0"}))
      << "a fresh counter orders it by when it became ready";
}

TEST(PriorityQueue, KeysDueAtOneInstantBecomeReadyInPriorityOrder) {
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  q.AddWithOpts(Opts(kSecond, false, 0), "low");
  q.AddWithOpts(Opts(kSecond, false, 5), "high");
  q.AddWithOpts(Opts(kSecond, false, 0), "low2");
  EXPECT_EQ(q.Snapshot().waiting[0].key, "high");
  k.scheduler.RunUntil(kSecond);
  EXPECT_EQ(Drain(q), (std::vector<std::string>{"high@5", "low@0", "low2@0"}));
}

TEST(PriorityQueue, ALockedKeyWaitingEntryFiresAsDirty) {
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  std::vector<AddOutcome> fired;
  q.SetOnDelayedAdd([&](const DelayedAdd& add) { fired.push_back(add.outcome); });
  q.Add("foo");
  q.Get();
  EXPECT_EQ(q.AddAfter("foo", kSecond).outcome, AddOutcome::kDelayed);
  k.scheduler.RunUntil(kSecond);
  EXPECT_EQ(fired, (std::vector<AddOutcome>{AddOutcome::kDirty}));
  EXPECT_FALSE(q.Get().key.has_value());
  int ready_calls = 0;
  q.SetOnReady([&] { ++ready_calls; });
  q.Done("foo");
  EXPECT_EQ(ready_calls, 1) << "Done frees the re-added entry";
  EXPECT_EQ(q.Get().key.value_or(""), "foo");
}

TEST(PriorityQueue, AfterShutDownGetReturnsShutdownAtOnceWithoutDraining) {
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  q.Add("baz");
  q.AddAfter("later", kSecond);
  q.Add("held");
  ASSERT_EQ(q.Get().key.value_or(""), "baz");
  q.ShutDown();
  EXPECT_TRUE(q.ShuttingDown());
  EXPECT_EQ(q.AddWithOpts(Opts(kSecond, true), "foo").outcome, AddOutcome::kDropped);
  EXPECT_EQ(q.NumRequeues("foo"), 0) << "a dropped add does not ask the limiter";
  GetResult got = q.Get();
  EXPECT_FALSE(got.key.has_value());
  EXPECT_TRUE(got.shutdown);
  EXPECT_EQ(q.Len(), 1u) << "the ready key is still there, just never handed out";
  EXPECT_EQ(k.scheduler.pending(), 0u) << "waiting keys never become ready";
  q.Done("baz");  // in-flight work still finishes
  q.CheckInvariants();
}

TEST(PriorityQueue, DefaultRateLimiterHasNoTokenBucket) {
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  for (int i = 0; i <= 100; ++i) {
    EXPECT_EQ(q.AddRateLimited("default/item-" + std::to_string(i)).delay, 5 * kMillisecond);
  }
}

TEST(PriorityQueue, SnapshotShowsReadyWaitingLockedAndRequeues) {
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  q.Add("default/a");
  ASSERT_EQ(q.Get().key.value_or(""), "default/a");
  q.AddWithOpts(Priority(kLowPriority), "default/b");
  q.Add("default/a");             // locked re-add
  q.AddRateLimited("default/c");  // waits 5ms
  QueueSnapshot snap = q.Snapshot();
  EXPECT_TRUE(snap.priority_queue);
  EXPECT_EQ(snap.len, 2u);
  ASSERT_EQ(snap.ready.size(), 2u);
  EXPECT_EQ(snap.ready[0].key, "default/a");
  EXPECT_TRUE(snap.ready[0].locked);
  EXPECT_EQ(snap.ready[1].key, "default/b");
  EXPECT_EQ(snap.ready[1].priority, kLowPriority);
  EXPECT_FALSE(snap.ready[1].locked);
  ASSERT_EQ(snap.waiting.size(), 1u);
  EXPECT_EQ(snap.waiting[0].key, "default/c");
  EXPECT_EQ(snap.waiting[0].ready_at, 5 * kMillisecond);
  EXPECT_EQ(snap.processing, (std::vector<std::string>{"default/a"}));
  EXPECT_EQ(snap.dirty, (std::vector<std::string>{"default/a"}));
  EXPECT_EQ(snap.requeues, (std::map<std::string, int>{{"default/c", 1}}));
}

TEST(PriorityQueueDeathTest, DoneForAKeyNotHandedOutIsAProgrammerError) {
  PqKernel k;
  PriorityQueue q(k.scheduler, "test");
  q.Add("a");
  EXPECT_DEATH(q.Done("a"), "Done for a key Get did not hand out");
}

}  // namespace
}  // namespace workqueue
