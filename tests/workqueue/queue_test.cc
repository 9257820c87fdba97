#include "core/workqueue/queue.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/sim/clock.h"

namespace workqueue {
namespace {

// Step is one call on a queue in a table-driven sequence.
struct Step {
  enum Op { kAdd, kGet, kDone, kShutDown } op;
  std::string item;
  AddOutcome want_outcome = AddOutcome::kQueued;  // for kAdd
  std::string want_get = "";                      // for kGet ("" = nothing)
  size_t want_len = 0;
};

void RunSteps(Queue& q, const std::vector<Step>& steps) {
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    switch (s.op) {
      case Step::kAdd:
        EXPECT_EQ(q.Add(s.item), s.want_outcome) << "step " << i;
        break;
      case Step::kGet: {
        GetResult got = q.Get();
        EXPECT_EQ(got.key.value_or(""), s.want_get) << "step " << i;
        break;
      }
      case Step::kDone:
        q.Done(s.item);
        break;
      case Step::kShutDown:
        q.ShutDown();
        break;
    }
    EXPECT_EQ(q.Len(), s.want_len) << "step " << i;
    q.CheckInvariants();
  }
}

TEST(Queue, AddOutcomesFollowDirtyAndProcessing) {
  struct Case {
    std::string name;
    std::vector<Step> steps;
  };
  using S = Step;
  const std::vector<Case> cases = {
      {"fifo order",
       {{S::kAdd, "a", AddOutcome::kQueued, "", 1},
        {S::kAdd, "b", AddOutcome::kQueued, "", 2},
        {S::kAdd, "c", AddOutcome::kQueued, "", 3},
        {S::kGet, "", {}, "a", 2},
        {S::kGet, "", {}, "b", 1},
        {S::kGet, "", {}, "c", 0}}},
      {"adds before processing collapse into one",
       {{S::kAdd, "a", AddOutcome::kQueued, "", 1},
        {S::kAdd, "a", AddOutcome::kCoalesced, "", 1},
        {S::kAdd, "a", AddOutcome::kCoalesced, "", 1},
        {S::kGet, "", {}, "a", 0},
        {S::kGet, "", {}, "", 0}}},
      {"adds during processing mark dirty and Done re-queues once",
       {{S::kAdd, "a", AddOutcome::kQueued, "", 1},
        {S::kGet, "", {}, "a", 0},
        {S::kAdd, "a", AddOutcome::kDirty, "", 0},
        {S::kAdd, "a", AddOutcome::kDirty, "", 0},
        {S::kAdd, "a", AddOutcome::kDirty, "", 0},
        {S::kGet, "", {}, "", 0},  // never handed out twice at once
        {S::kDone, "a", {}, "", 1},
        {S::kGet, "", {}, "a", 0},
        {S::kDone, "a", {}, "", 0},
        {S::kGet, "", {}, "", 0}}},
      {"a re-queued dirty item goes to the back",
       {{S::kAdd, "a", AddOutcome::kQueued, "", 1},
        {S::kGet, "", {}, "a", 0},
        {S::kAdd, "a", AddOutcome::kDirty, "", 0},
        {S::kAdd, "b", AddOutcome::kQueued, "", 1},
        {S::kDone, "a", {}, "", 2},
        {S::kGet, "", {}, "b", 1},
        {S::kGet, "", {}, "a", 0}}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    sim::Clock clock;
    Queue q(clock, "test");
    RunSteps(q, c.steps);
  }
}

TEST(Queue, DepthCountsADirtyItemThatLenDoesNot) {
  sim::Clock clock;
  Queue q(clock, "test");
  q.Add("a");
  ASSERT_EQ(q.Get().key.value_or(""), "a");
  q.Add("a");
  EXPECT_EQ(q.Len(), 0u);
  EXPECT_EQ(q.metrics().depth(), 1);
  EXPECT_EQ(q.metrics().adds(), 2u);
  EXPECT_EQ(q.dirty().count("a"), 1u);
  EXPECT_EQ(q.processing().count("a"), 1u);
}

TEST(Queue, GetOnAnEmptyQueueReturnsNothingWithoutShutdown) {
  sim::Clock clock;
  Queue q(clock, "test");
  GetResult got = q.Get();
  EXPECT_FALSE(got.key.has_value());
  EXPECT_FALSE(got.shutdown);
}

TEST(Queue, ShutDownDropsAddsButDrainsWhatIsQueued) {
  sim::Clock clock;
  Queue q(clock, "test");
  q.Add("a");
  q.Add("b");
  ASSERT_EQ(q.Get().key.value_or(""), "a");
  q.Add("a");  // dirty while processing
  q.ShutDown();
  EXPECT_TRUE(q.ShuttingDown());
  EXPECT_EQ(q.Add("c"), AddOutcome::kDropped);
  EXPECT_EQ(q.Len(), 1u);
  GetResult b = q.Get();
  EXPECT_EQ(b.key.value_or(""), "b");
  EXPECT_FALSE(b.shutdown);
  q.Done("a");  // a dirty item is re-queued even during shutdown
  EXPECT_EQ(q.Len(), 1u);
  EXPECT_EQ(q.Get().key.value_or(""), "a");
  GetResult end = q.Get();
  EXPECT_FALSE(end.key.has_value());
  EXPECT_TRUE(end.shutdown);
  q.CheckInvariants();
}

TEST(Queue, ShutDownWithDrainWaitsOnlyForItemsBeingProcessed) {
  sim::Clock clock;
  Queue q(clock, "test");
  int drained = 0;
  q.SetOnDrained([&] { ++drained; });
  q.Add("a");
  q.Add("b");
  q.Add("c");
  q.Get();  // a
  q.Get();  // b
  EXPECT_FALSE(q.ShutDownWithDrain());
  EXPECT_TRUE(q.Draining());
  q.Done("a");
  EXPECT_EQ(drained, 0);
  q.Done("b");  // c is still queued but was never handed out: it does not hold the drain
  EXPECT_EQ(drained, 1);
  EXPECT_FALSE(q.Draining());
  EXPECT_EQ(q.Len(), 1u);
}

TEST(Queue, ShutDownWithDrainOnAnIdleQueueCompletesAtOnce) {
  sim::Clock clock;
  Queue q(clock, "test");
  q.Add("a");
  EXPECT_TRUE(q.ShutDownWithDrain());
  EXPECT_FALSE(q.Draining());
}

TEST(Queue, ShutDownReleasesAPendingDrain) {
  sim::Clock clock;
  Queue q(clock, "test");
  int drained = 0;
  q.SetOnDrained([&] { ++drained; });
  q.Add("a");
  q.Get();
  EXPECT_FALSE(q.ShutDownWithDrain());
  q.ShutDown();
  EXPECT_EQ(drained, 1);
  EXPECT_FALSE(q.Draining());
  q.Done("a");
  EXPECT_EQ(drained, 1);
}

TEST(Queue, OnReadyRunsWhenAnItemCanBeHandedOut) {
  sim::Clock clock;
  Queue q(clock, "test");
  std::vector<size_t> lens;  // Len seen by the hook: the state is already updated
  q.SetOnReady([&] { lens.push_back(q.Len()); });
  q.Add("a");  // pushed
  q.Add("a");  // coalesced: no call
  q.Get();
  q.Add("a");  // dirty: no call
  EXPECT_EQ(lens, (std::vector<size_t>{1}));
  q.Done("a");  // re-queued
  EXPECT_EQ(lens, (std::vector<size_t>{1, 1}));
  q.ShutDown();  // workers must see shutdown
  EXPECT_EQ(lens, (std::vector<size_t>{1, 1, 1}));
}

TEST(Queue, RecordsQueueAndWorkDurationsOnTheVirtualClock) {
  sim::Clock clock;
  Queue q(clock, "test");
  q.Add("a");
  clock.AdvanceTo(3 * base::kMillisecond);
  q.Add("a");  // coalesced: the first add time is kept
  clock.AdvanceTo(5 * base::kMillisecond);
  q.Get();
  EXPECT_EQ(q.metrics().queue_duration().count(), 1u);
  EXPECT_EQ(q.metrics().queue_duration().sum_us(), 5 * base::kMillisecond);
  clock.AdvanceTo(12 * base::kMillisecond);
  EXPECT_EQ(q.metrics().UnfinishedWork(), 7 * base::kMillisecond);
  q.Done("a");
  EXPECT_EQ(q.metrics().work_duration().sum_us(), 7 * base::kMillisecond);
  EXPECT_EQ(q.metrics().UnfinishedWork(), 0);
  EXPECT_EQ(q.metrics().depth(), 0);
}

TEST(Queue, AnUnnamedQueueRecordsNoMetrics) {
  sim::Clock clock;
  Queue q(clock, "");
  q.Add("a");
  q.Get();
  q.Done("a");
  EXPECT_FALSE(q.metrics().enabled());
  EXPECT_EQ(q.metrics().adds(), 0u);
  EXPECT_EQ(q.metrics().work_duration().count(), 0u);
  EXPECT_TRUE(q.metrics().Samples().empty());
}

TEST(QueueDeathTest, DoneForAnItemNotHandedOutIsAProgrammerError) {
  sim::Clock clock;
  Queue q(clock, "test");
  q.Add("a");
  EXPECT_DEATH(q.Done("a"), "Done for an item Get did not hand out");
}

}  // namespace
}  // namespace workqueue
