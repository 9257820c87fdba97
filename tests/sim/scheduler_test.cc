#include "core/sim/scheduler.h"

#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace sim {
namespace {

struct Kernel {
  Clock clock;
  Trace trace{clock};
  Scheduler scheduler{clock, trace};
};

TEST(Scheduler, RunsEventsInTimeThenFifoOrder) {
  Kernel k;
  std::vector<std::string> ran;
  k.scheduler.At(20, "b", [&] { ran.push_back("b"); });
  k.scheduler.At(10, "a1", [&] { ran.push_back("a1"); });
  k.scheduler.At(10, "a2", [&] { ran.push_back("a2"); });
  while (k.scheduler.Step()) {
  }
  EXPECT_EQ(ran, (std::vector<std::string>{"a1", "a2", "b"}));
  EXPECT_EQ(k.clock.Now(), 20);
}

TEST(Scheduler, DueNextExposesEventsSharingAnInstant) {
  Kernel k;
  k.scheduler.At(5, "x", [] {});
  k.scheduler.At(5, "y", [] {});
  k.scheduler.At(6, "z", [] {});
  auto due = k.scheduler.DueNext();
  ASSERT_EQ(due.size(), 2u);
  EXPECT_EQ(due[0].label, "x");
  EXPECT_EQ(due[1].label, "y");
}

TEST(Scheduler, ChooserPermutesEventsAtTheSameInstant) {
  Kernel k;
  std::vector<std::string> ran;
  k.scheduler.At(5, "x", [&] { ran.push_back("x"); });
  k.scheduler.At(5, "y", [&] { ran.push_back("y"); });
  k.scheduler.SetChooser([](const std::vector<PendingEvent>& due) { return due.size() - 1; });
  while (k.scheduler.Step()) {
  }
  EXPECT_EQ(ran, (std::vector<std::string>{"y", "x"}));
}

TEST(Scheduler, RunUntilIncludesEventsDueExactlyAtTheDeadline) {
  Kernel k;
  int ran = 0;
  k.scheduler.At(100, "at-deadline", [&] { ++ran; });
  k.scheduler.At(101, "after", [&] { ++ran; });
  EXPECT_EQ(k.scheduler.RunUntil(100), 1u);
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(k.clock.Now(), 100);
  EXPECT_EQ(k.scheduler.pending(), 1u);
}

TEST(Scheduler, RunUntilAdvancesAnIdleClock) {
  Kernel k;
  k.scheduler.RunUntil(5000);
  EXPECT_EQ(k.clock.Now(), 5000);
}

TEST(Scheduler, CancelRemovesAPendingEvent) {
  Kernel k;
  int ran = 0;
  EventId id = k.scheduler.At(5, "x", [&] { ++ran; });
  EXPECT_TRUE(k.scheduler.Cancel(id));
  EXPECT_FALSE(k.scheduler.Cancel(id));
  EXPECT_FALSE(k.scheduler.Step());
  EXPECT_EQ(ran, 0);
}

TEST(Scheduler, CancelledEventsLeaveTheOrderOfTheRestIntact) {
  Kernel k;
  std::vector<std::string> ran;
  std::vector<EventId> ids;
  // Interleave times so cancelled events sit at the top, inside and at the bottom of the order.
  for (int i = 0; i < 300; ++i) {
    const base::SimTime at = (i * 37) % 50;
    ids.push_back(k.scheduler.At(at, "e", [&ran, i] { ran.push_back(std::to_string(i)); }));
  }
  std::vector<std::string> expected;
  for (base::SimTime t = 0; t < 50; ++t) {
    for (int i = 0; i < 300; ++i) {
      if ((i * 37) % 50 != t) continue;
      if (i % 3 == 0) continue;  // cancelled below
      expected.push_back(std::to_string(i));
    }
  }
  for (int i = 0; i < 300; i += 3) EXPECT_TRUE(k.scheduler.Cancel(ids[i]));
  EXPECT_EQ(k.scheduler.pending(), 200u);
  // The earliest instant's list skips its cancelled events.
  for (const PendingEvent& e : k.scheduler.DueNext()) EXPECT_NE(e.id % 3, 1u) << e.id;
  while (k.scheduler.Step()) {
  }
  EXPECT_EQ(ran, expected);
  EXPECT_EQ(k.scheduler.pending(), 0u);
}

TEST(Scheduler, RearmingATimerManyTimesKeepsOnlyTheLastOne) {
  // A timer cancelled and scheduled again far ahead, as a resync or backoff timer is.
  Kernel k;
  int fired = 0;
  EventId timer = 0;
  for (int i = 0; i < 10000; ++i) {
    if (timer != 0) {
      EXPECT_TRUE(k.scheduler.Cancel(timer));
    }
    timer = k.scheduler.At(1000000 + i, "timer", [&] { ++fired; });
  }
  EXPECT_EQ(k.scheduler.pending(), 1u);
  EXPECT_EQ(k.scheduler.NextTime(), std::optional<base::SimTime>(1000000 + 9999));
  EXPECT_EQ(k.scheduler.RunUntil(2000000), 1u);
  EXPECT_EQ(fired, 1);
}

TEST(Scheduler, AnIdThatRanNeverNamesTheEventReusingItsStorage) {
  // Events are stored in reused slots: cancelling an id that already ran (or was cancelled) must
  // not reach the event that took its place, and an event scheduled while another runs keeps its
  // own callback.
  Kernel k;
  std::vector<std::string> ran;
  const EventId first = k.scheduler.At(10, "first", [&] {
    ran.push_back("first");
    k.scheduler.At(15, "inner", [&] { ran.push_back("inner"); });
  });
  const EventId far = k.scheduler.At(1000, "far", [&] { ran.push_back("far"); });
  EXPECT_TRUE(k.scheduler.Step());
  const EventId second = k.scheduler.At(20, "second", [&] { ran.push_back("second"); });
  EXPECT_FALSE(k.scheduler.Cancel(first));
  EXPECT_TRUE(k.scheduler.Cancel(second));
  EXPECT_FALSE(k.scheduler.Cancel(second));
  EXPECT_FALSE(k.scheduler.Cancel(second + 1));  // never handed out
  EXPECT_EQ(k.scheduler.pending(), 2u);
  const EventId third = k.scheduler.At(30, "third", [&] { ran.push_back("third"); });
  EXPECT_GT(third, second);
  while (k.scheduler.Step()) {
  }
  EXPECT_EQ(ran, (std::vector<std::string>{"first", "inner", "third", "far"}));
  EXPECT_FALSE(k.scheduler.Cancel(far));
  EXPECT_EQ(k.scheduler.pending(), 0u);
}

TEST(Scheduler, AChosenEventLeavesTheOthersDueInFifoOrder) {
  Kernel k;
  std::vector<std::string> ran;
  for (const char* name : {"a", "b", "c", "d"}) {
    k.scheduler.At(5, name, [&ran, name] { ran.push_back(name); });
  }
  k.scheduler.At(6, "later", [&] { ran.push_back("later"); });
  // Pick the second of what is due each time: b (of abcd), c (of acd), d (of ad), then a.
  k.scheduler.SetChooser([](const std::vector<PendingEvent>&) { return size_t{1}; });
  while (k.scheduler.Step()) {
  }
  EXPECT_EQ(ran, (std::vector<std::string>{"b", "c", "d", "a", "later"}));
}

TEST(Scheduler, EventsScheduledInThePastRunNow) {
  Kernel k;
  k.scheduler.RunUntil(50);
  base::SimTime seen = -1;
  k.scheduler.At(10, "late", [&] { seen = k.clock.Now(); });
  k.scheduler.Step();
  EXPECT_EQ(seen, 50);
}

TEST(Scheduler, CauseIsCapturedAtSchedulingTimeAndRestoredAfter) {
  Kernel k;
  k.trace.set_current_cause(7);
  int64_t seen = -1;
  k.scheduler.At(1, "x", [&] { seen = k.trace.current_cause(); });
  k.trace.set_current_cause(0);
  k.scheduler.Step();
  EXPECT_EQ(seen, 7);
  EXPECT_EQ(k.trace.current_cause(), 0);
}

TEST(Scheduler, RunUntilStopsAtTheBudget) {
  Kernel k;
  for (int i = 0; i < 10; ++i) k.scheduler.At(1, "x", [] {});
  EXPECT_EQ(k.scheduler.RunUntil(1, 4), 4u);
  EXPECT_EQ(k.scheduler.pending(), 6u);
}

}  // namespace
}  // namespace sim
