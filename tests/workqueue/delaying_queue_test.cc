#include "core/workqueue/delaying_queue.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/sim/clock.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace workqueue {
namespace {

using base::kMillisecond;
using base::kSecond;

struct Kernel {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
};

std::vector<std::string> DrainKeys(Queue& q) {
  std::vector<std::string> keys;
  while (true) {
    GetResult got = q.Get();
    if (!got.key) break;
    keys.push_back(*got.key);
  }
  return keys;
}

TEST(DelayingQueue, AddAfterAddsExactlyWhenTheDelayPasses) {
  Kernel k;
  DelayingQueue q(k.scheduler, "test");
  AddResult r = q.AddAfter("default/a", 50 * kMillisecond);
  EXPECT_EQ(r.outcome, AddOutcome::kDelayed);
  EXPECT_TRUE(r.delay_set);
  k.scheduler.RunUntil(50 * kMillisecond - 1);
  EXPECT_EQ(q.Len(), 0u);
  k.scheduler.RunUntil(50 * kMillisecond);
  EXPECT_EQ(q.Len(), 1u);
  EXPECT_EQ(q.NumWaiting(), 0u);
  q.CheckInvariants();
}

TEST(DelayingQueue, AnEarlierReadyAtReplacesALaterOneNeverTheReverse) {
  struct Case {
    std::string name;
    base::Duration first;
    base::Duration second;
    base::Duration want_ready;
    bool want_second_set;
  };
  const std::vector<Case> cases = {
      {"shorter replaces longer", 10 * kSecond, 1 * kSecond, 1 * kSecond, true},
      {"longer never extends shorter", 1 * kSecond, 10 * kSecond, 1 * kSecond, false},
      {"equal keeps the entry", 2 * kSecond, 2 * kSecond, 2 * kSecond, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Kernel k;
    DelayingQueue q(k.scheduler, "test");
    q.AddAfter("x", c.first);
    EXPECT_EQ(q.AddAfter("x", c.second).delay_set, c.want_second_set);
    ASSERT_EQ(q.Waiting().size(), 1u) << "at most one heap entry per item";
    EXPECT_EQ(q.Waiting()[0].ready_at, c.want_ready);
    q.CheckInvariants();
    k.scheduler.RunUntil(c.want_ready - 1);
    EXPECT_EQ(q.Len(), 0u);
    k.scheduler.RunUntil(c.want_ready);
    EXPECT_EQ(q.Len(), 1u);
    k.scheduler.RunUntil(20 * kSecond);
    EXPECT_EQ(DrainKeys(q), (std::vector<std::string>{"x"})) << "added once only";
  }
}

TEST(DelayingQueue, EntriesFireInReadyAtThenInsertionOrder) {
  Kernel k;
  DelayingQueue q(k.scheduler, "test");
  q.AddAfter("c", 30 * kMillisecond);
  q.AddAfter("b", 10 * kMillisecond);
  q.AddAfter("a", 10 * kMillisecond);
  q.AddAfter("c", 10 * kMillisecond);  // moved earlier: keeps its (first) insertion order
  ASSERT_EQ(q.Waiting().size(), 3u);
  EXPECT_EQ(q.Waiting()[0].key, "c");
  EXPECT_EQ(k.scheduler.pending(), 1u) << "one timer, armed at the heap head";
  k.scheduler.RunUntil(10 * kMillisecond);
  EXPECT_EQ(DrainKeys(q), (std::vector<std::string>{"c", "b", "a"}));
}

TEST(DelayingQueue, AddWhileWaitingIsImmediateAndTheEntryStillFiresLater) {
  Kernel k;
  DelayingQueue q(k.scheduler, "test");
  q.AddAfter("x", kSecond);
  EXPECT_EQ(q.Add("x"), AddOutcome::kQueued);
  EXPECT_EQ(q.NumWaiting(), 1u) << "the heap and the queue are independent";
  ASSERT_EQ(q.Get().key.value_or(""), "x");
  q.Done("x");
  k.scheduler.RunUntil(kSecond);
  EXPECT_EQ(DrainKeys(q), (std::vector<std::string>{"x"})) << "processed a second time";
}

TEST(DelayingQueue, AddAfterWhileQueuedStillWaitsAndThenCoalesces) {
  Kernel k;
  DelayingQueue q(k.scheduler, "test");
  std::vector<AddOutcome> fired;
  q.SetOnDelayedAdd([&](const DelayedAdd& add) { fired.push_back(add.outcome); });
  q.Add("x");
  q.AddAfter("x", kSecond);
  EXPECT_EQ(q.NumWaiting(), 1u);
  k.scheduler.RunUntil(kSecond);
  EXPECT_EQ(fired, (std::vector<AddOutcome>{AddOutcome::kCoalesced}));
  EXPECT_EQ(q.Len(), 1u);
}

TEST(DelayingQueue, ADueEntryForAnItemInProcessingMarksItDirty) {
  Kernel k;
  DelayingQueue q(k.scheduler, "test");
  std::vector<AddOutcome> fired;
  q.SetOnDelayedAdd([&](const DelayedAdd& add) { fired.push_back(add.outcome); });
  q.Add("x");
  q.Get();
  q.AddAfter("x", kSecond);
  k.scheduler.RunUntil(kSecond);
  EXPECT_EQ(fired, (std::vector<AddOutcome>{AddOutcome::kDirty}));
  EXPECT_EQ(q.Len(), 0u);
  q.Done("x");
  EXPECT_EQ(q.Len(), 1u);
}

TEST(DelayingQueue, NonPositiveDelayIsAPlainAdd) {
  Kernel k;
  DelayingQueue q(k.scheduler, "test");
  EXPECT_EQ(q.AddAfter("x", 0).outcome, AddOutcome::kQueued);
  EXPECT_EQ(q.AddAfter("x", -kSecond).outcome, AddOutcome::kCoalesced);
  EXPECT_EQ(q.Len(), 1u);
  EXPECT_EQ(q.NumWaiting(), 0u);
  EXPECT_EQ(k.scheduler.pending(), 0u);
}

TEST(DelayingQueue, RetriesCountEveryAddAfterButNoneWhileShuttingDown) {
  Kernel k;
  DelayingQueue q(k.scheduler, "test");
  q.AddAfter("a", 0);
  q.AddAfter("b", -1);
  q.AddAfter("c", kSecond);
  q.AddAfter("c", 2 * kSecond);  // discarded, still counted
  q.Add("d");                    // not a retry
  EXPECT_EQ(q.metrics().retries(), 4u);
  q.ShutDown();
  EXPECT_EQ(q.AddAfter("e", kSecond).outcome, AddOutcome::kDropped);
  EXPECT_EQ(q.metrics().retries(), 4u);
}

TEST(DelayingQueue, ShutDownDropsPendingDelayedItems) {
  Kernel k;
  DelayingQueue q(k.scheduler, "test");
  q.AddAfter("a", kSecond);
  q.AddAfter("b", 2 * kSecond);
  q.ShutDown();
  EXPECT_EQ(q.NumWaiting(), 0u);
  EXPECT_EQ(k.scheduler.pending(), 0u);
  k.scheduler.RunUntil(10 * kSecond);
  EXPECT_EQ(q.Len(), 0u);
  EXPECT_TRUE(q.Get().shutdown);
  q.CheckInvariants();
}

TEST(DelayingQueue, ShutDownWithDrainAlsoDropsPendingDelayedItems) {
  Kernel k;
  DelayingQueue q(k.scheduler, "test");
  q.AddAfter("a", kSecond);
  EXPECT_TRUE(q.ShutDownWithDrain());
  EXPECT_EQ(k.scheduler.pending(), 0u);
}

TEST(DelayingQueue, DelayedAddsReportTheCauseOfTheirDelay) {
  Kernel k;
  DelayingQueue q(k.scheduler, "test");
  std::vector<int64_t> causes;
  std::vector<int64_t> trace_causes;
  q.SetOnDelayedAdd([&](const DelayedAdd& add) {
    causes.push_back(add.cause);
    trace_causes.push_back(k.trace.current_cause());
  });
  k.trace.set_current_cause(7);
  q.AddAfter("a", kSecond);
  const AddResult r = q.AddAfter("b", kSecond);
  ASSERT_TRUE(r.delay_set);
  q.SetWaitingCause("b", 42);  // e.g. the seq of the queue.add_after event
  k.trace.set_current_cause(0);
  k.scheduler.RunUntil(kSecond);
  EXPECT_EQ(causes, (std::vector<int64_t>{7, 42}));
  EXPECT_EQ(trace_causes, (std::vector<int64_t>{7, 42})) << "the hook runs under that cause";
  EXPECT_EQ(k.trace.current_cause(), 0);
}

TEST(DelayingQueue, OnReadyRunsWhenADueEntryIsPushed) {
  Kernel k;
  DelayingQueue q(k.scheduler, "test");
  std::vector<base::SimTime> at;
  q.SetOnReady([&] { at.push_back(k.clock.Now()); });
  q.AddAfter("a", 3 * kSecond);
  EXPECT_TRUE(at.empty());
  k.scheduler.RunUntil(5 * kSecond);
  EXPECT_EQ(at, (std::vector<base::SimTime>{3 * kSecond}));
}

TEST(DelayingQueue, DestroyingTheQueueCancelsItsTimer) {
  Kernel k;
  {
    DelayingQueue q(k.scheduler, "test");
    q.AddAfter("a", kSecond);
    EXPECT_EQ(k.scheduler.pending(), 1u);
  }
  EXPECT_EQ(k.scheduler.pending(), 0u);
}

}  // namespace
}  // namespace workqueue
