#include "core/world/workloads/worker_queue.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/sim/cause_scope.h"
#include "core/sim/clock.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace world {
namespace {

struct WorkerQueueFixture {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  std::vector<std::pair<base::SimTime, std::string>> synced;
  std::vector<int64_t> causes;
  int failures_left = 0;
  std::function<void(const std::string&)> during_sync;
  WorkerQueue queue{scheduler, WorkerQueue::Options{"test", 5 * base::kMillisecond},
                    [this](const std::string& key) {
                      synced.emplace_back(clock.Now(), key);
                      causes.push_back(trace.current_cause());
                      if (during_sync) during_sync(key);
                      if (failures_left > 0) {
                        --failures_left;
                        return false;
                      }
                      return true;
                    }};
};

TEST(WorkerQueue, AKeyAddedTwiceBeforeTheWorkerIsSyncedOnce) {
  WorkerQueueFixture f;
  f.queue.Add("a");
  f.scheduler.RunUntil(2 * base::kMillisecond);
  f.queue.Add("a");
  f.queue.Add("b");
  EXPECT_EQ(f.queue.pending(), 2u);
  f.scheduler.RunUntil(100 * base::kMillisecond);
  // One worker pick-up, 5ms after the first key became ready, takes both keys in FIFO order.
  ASSERT_EQ(f.synced.size(), 2u);
  EXPECT_EQ(f.synced[0], std::make_pair(base::SimTime(5 * base::kMillisecond), std::string("a")));
  EXPECT_EQ(f.synced[1], std::make_pair(base::SimTime(5 * base::kMillisecond), std::string("b")));
  EXPECT_EQ(f.queue.pending(), 0u);
  EXPECT_EQ(f.queue.metrics().adds(), 2u) << "adds_total counts adds that queued a key";
}

TEST(WorkerQueue, AFailedSyncComesBackRateLimitedAndASuccessForgetsTheFailures) {
  WorkerQueueFixture f;
  f.failures_left = 2;
  f.queue.Add("a");
  f.scheduler.RunUntil(base::kSecond);
  // DefaultControllerRateLimiter: 5ms, then 10ms, each followed by the worker's 5ms pick-up.
  ASSERT_EQ(f.synced.size(), 3u);
  EXPECT_EQ(f.synced[0].first, 5 * base::kMillisecond);
  EXPECT_EQ(f.synced[1].first, 15 * base::kMillisecond);
  EXPECT_EQ(f.synced[2].first, 30 * base::kMillisecond);
  EXPECT_EQ(f.queue.metrics().retries(), 2u);
  EXPECT_EQ(f.queue.queue().NumRequeues("a"), 0) << "Forget after the successful sync";
}

TEST(WorkerQueue, AKeyAddedDuringItsSyncIsSyncedAgainByTheNextWorkerRun) {
  WorkerQueueFixture f;
  bool again = true;
  f.during_sync = [&](const std::string& key) {
    if (again) f.queue.Add(key);  // dirty: back in the queue after Done
    again = false;
  };
  f.queue.Add("a");
  f.scheduler.RunUntil(base::kSecond);
  ASSERT_EQ(f.synced.size(), 2u);
  EXPECT_EQ(f.synced[1].first, 10 * base::kMillisecond) << "not within the same worker run";
}

TEST(WorkerQueue, EachSyncRunsUnderTheCauseOfTheAddThatQueuedItsKey) {
  WorkerQueueFixture f;
  const int64_t first = f.trace.Emit("test.cause", {});
  const int64_t second = f.trace.Emit("test.cause", {});
  {
    const sim::CauseScope scope(f.trace, first);
    f.queue.Add("a");
  }
  {
    const sim::CauseScope scope(f.trace, second);
    f.queue.Add("b");
    f.queue.Add("a");  // already queued: keeps the first add's cause
  }
  f.scheduler.RunUntil(base::kSecond);
  ASSERT_EQ(f.causes.size(), 2u);
  EXPECT_EQ(f.causes[0], first);
  EXPECT_EQ(f.causes[1], second);
}

TEST(WorkerQueue, AddAfterWaitsAndShutDownDropsEverything) {
  WorkerQueueFixture f;
  f.queue.AddAfter("later", 100 * base::kMillisecond);
  f.scheduler.RunUntil(50 * base::kMillisecond);
  EXPECT_TRUE(f.synced.empty());
  EXPECT_EQ(f.queue.pending(), 1u);
  f.scheduler.RunUntil(base::kSecond);
  ASSERT_EQ(f.synced.size(), 1u);
  EXPECT_EQ(f.synced[0].first, 105 * base::kMillisecond);
  f.queue.AddAfter("never", 10 * base::kMillisecond);
  f.queue.Add("never-either");
  f.queue.ShutDown();
  f.scheduler.RunUntil(2 * base::kSecond);
  EXPECT_EQ(f.synced.size(), 1u);
}

}  // namespace
}  // namespace world
