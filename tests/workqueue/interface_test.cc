#include "core/workqueue/interface.h"

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

struct IfaceKernel {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
};

std::unique_ptr<Interface> Make(IfaceKernel& k, bool priority,
                                std::unique_ptr<RateLimiter> limiter = nullptr) {
  QueueOptions options;
  options.use_priority_queue = priority;
  options.rate_limiter = std::move(limiter);
  return NewQueue(k.scheduler, "test", std::move(options));
}

TEST(AddOutcome, NamesMatchTheTraceVocabulary) {
  EXPECT_STREQ(AddOutcomeName(AddOutcome::kQueued), "queued");
  EXPECT_STREQ(AddOutcomeName(AddOutcome::kCoalesced), "coalesced");
  EXPECT_STREQ(AddOutcomeName(AddOutcome::kDirty), "dirty");
  EXPECT_STREQ(AddOutcomeName(AddOutcome::kDelayed), "delayed");
  EXPECT_STREQ(AddOutcomeName(AddOutcome::kDropped), "dropped");
}

TEST(NewQueue, DefaultsToThePriorityQueue) {
  IfaceKernel k;
  QueueOptions options;
  auto q = NewQueue(k.scheduler, "raycluster", std::move(options));
  EXPECT_TRUE(q->is_priority_queue());
  EXPECT_EQ(q->name(), "raycluster");
  EXPECT_EQ(kLowPriority, -100);
}

TEST(NewQueue, DefaultRateLimiterHasABucketOnlyOnTheClassicQueue) {
  struct Case {
    bool priority;
    base::Duration want_101st;
  };
  for (const Case& c : {Case{true, 5 * kMillisecond}, Case{false, 100 * kMillisecond}}) {
    SCOPED_TRACE(c.priority ? "priority queue" : "classic queue");
    IfaceKernel k;
    auto q = Make(k, c.priority);
    EXPECT_EQ(q->is_priority_queue(), c.priority);
    base::Duration last = 0;
    for (int i = 0; i <= 100; ++i) last = q->AddRateLimited("default/k" + std::to_string(i)).delay;
    EXPECT_EQ(last, c.want_101st);
  }
}

TEST(Interface, ShutDownDrainsTheClassicQueueButNotThePriorityQueue) {
  for (bool priority : {false, true}) {
    SCOPED_TRACE(priority ? "priority queue" : "classic queue");
    IfaceKernel k;
    auto q = Make(k, priority);
    q->Add("default/a");
    q->Add("default/b");
    q->ShutDown();
    EXPECT_EQ(q->Add("default/c").outcome, AddOutcome::kDropped);
    GetResult got = q->Get();
    if (priority) {
      EXPECT_TRUE(got.shutdown);
      EXPECT_FALSE(got.key.has_value());
    } else {
      EXPECT_EQ(got.key.value_or(""), "default/a");
      EXPECT_EQ(q->Get().key.value_or(""), "default/b");
      EXPECT_TRUE(q->Get().shutdown);
    }
  }
}

TEST(Interface, RetriesTotalDiffersBetweenTheTwoQueues) {
  // client-go counts every AddAfter (delay 0 too); the priority queue counts non-zero delays.
  // The classic wrapper maps a zero After to Add, so only AddRateLimited reaches AddAfter(0).
  struct Op {
    std::string name;
    AddOpts opts;
    uint64_t want_classic;
    uint64_t want_priority;
  };
  auto opts = [](base::Duration after, bool rate_limited) {
    AddOpts o;
    o.after = after;
    o.rate_limited = rate_limited;
    return o;
  };
  const std::vector<Op> ops = {
      {"plain add", opts(0, false), 0, 0},
      {"add after 1s", opts(kSecond, false), 1, 1},
      {"rate limited with a zero delay", opts(0, true), 1, 0},
      {"rate limited with after: the zero delay wins the min", opts(kSecond, true), 1, 0},
  };
  for (const Op& op : ops) {
    SCOPED_TRACE(op.name);
    for (bool priority : {false, true}) {
      IfaceKernel k;
      // A zero-delay limiter shows the difference: When returns 0 for every failure.
      auto q =
          Make(k, priority, std::make_unique<ItemExponentialFailureRateLimiter>(0, 1000 * kSecond));
      q->AddWithOpts(op.opts, "default/a");
      EXPECT_EQ(q->metrics().retries(), priority ? op.want_priority : op.want_classic)
          << (priority ? "priority queue" : "classic queue");
    }
  }
}

TEST(Interface, WorkerLoopRunsAKeyOnceMoreAfterReAddsDuringProcessing) {
  for (bool priority : {false, true}) {
    SCOPED_TRACE(priority ? "priority queue" : "classic queue");
    IfaceKernel k;
    auto q = Make(k, priority);
    int ready = 0;
    q->SetOnReady([&] { ++ready; });
    EXPECT_EQ(q->Add("default/a").outcome, AddOutcome::kQueued);
    GetResult got = q->Get();
    ASSERT_EQ(got.key.value_or(""), "default/a");
    EXPECT_EQ(q->Add("default/a").outcome, AddOutcome::kDirty);
    EXPECT_EQ(q->Add("default/a").outcome, AddOutcome::kDirty);
    EXPECT_FALSE(q->Get().key.has_value());
    q->Done("default/a");
    EXPECT_EQ(q->Get().key.value_or(""), "default/a");
    q->Done("default/a");
    EXPECT_FALSE(q->Get().key.has_value());
    EXPECT_EQ(ready, 2) << "first add, then the Done that freed the re-added key";
  }
}

TEST(Interface, DelayedAddHookReportsTheAddWhenTheDelayElapses) {
  for (bool priority : {false, true}) {
    SCOPED_TRACE(priority ? "priority queue" : "classic queue");
    IfaceKernel k;
    auto q = Make(k, priority);
    std::vector<std::string> fired;
    q->SetOnDelayedAdd([&](const DelayedAdd& add) {
      fired.push_back(add.key + ":" + AddOutcomeName(add.outcome) + "@" +
                      std::to_string(k.clock.Now()));
    });
    AddResult r = q->AddRateLimited("default/a");
    EXPECT_EQ(r.outcome, AddOutcome::kDelayed);
    EXPECT_EQ(r.delay, 5 * kMillisecond);
    EXPECT_EQ(r.requeues, 1);
    k.scheduler.RunUntil(kSecond);
    EXPECT_EQ(fired, (std::vector<std::string>{"default/a:queued@5000"}));
    EXPECT_EQ(q->Len(), 1u);
  }
}

}  // namespace
}  // namespace workqueue
