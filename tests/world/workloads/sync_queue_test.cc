#include "core/world/workloads/sync_queue.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/sim/clock.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace world {
namespace {

struct SyncQueueFixture {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  std::vector<std::pair<base::SimTime, std::string>> synced;
  int failures_left = 0;
  SyncQueue queue{scheduler,
                  SyncQueue::Options{"test", 5 * base::kMillisecond, 50 * base::kMillisecond,
                                     200 * base::kMillisecond},
                  [this](const std::string& key) {
                    synced.emplace_back(clock.Now(), key);
                    if (failures_left > 0) {
                      --failures_left;
                      return false;
                    }
                    return true;
                  }};
};

TEST(SyncQueue, CoalescesMarksWithinTheDelay) {
  SyncQueueFixture f;
  f.queue.Add("a");
  f.scheduler.RunUntil(2 * base::kMillisecond);
  f.queue.Add("a");
  f.queue.Add("b");
  EXPECT_EQ(f.queue.pending(), 2u);
  f.scheduler.RunUntil(base::kSecond);
  ASSERT_EQ(f.synced.size(), 2u);
  EXPECT_EQ(f.synced[0], std::make_pair(base::SimTime(5 * base::kMillisecond), std::string("a")));
  EXPECT_EQ(f.synced[1], std::make_pair(base::SimTime(7 * base::kMillisecond), std::string("b")));
}

TEST(SyncQueue, EarlierAddAfterWinsOverALaterPendingSync) {
  SyncQueueFixture f;
  f.queue.AddAfter("a", base::kSecond);
  f.queue.Add("a");
  f.scheduler.RunUntil(2 * base::kSecond);
  ASSERT_EQ(f.synced.size(), 1u);
  EXPECT_EQ(f.synced[0].first, 5 * base::kMillisecond);
}

TEST(SyncQueue, RetriesFailuresWithDoublingCappedBackoff) {
  SyncQueueFixture f;
  f.failures_left = 4;
  f.queue.Add("a");
  f.scheduler.RunUntil(10 * base::kSecond);
  ASSERT_EQ(f.synced.size(), 5u);
  const base::Duration ms = base::kMillisecond;
  EXPECT_EQ(f.synced[1].first - f.synced[0].first, 50 * ms);
  EXPECT_EQ(f.synced[2].first - f.synced[1].first, 100 * ms);
  EXPECT_EQ(f.synced[3].first - f.synced[2].first, 200 * ms);
  EXPECT_EQ(f.synced[4].first - f.synced[3].first, 200 * ms);  // capped
}

TEST(SyncQueue, ClearCancelsPendingSyncs) {
  SyncQueueFixture f;
  f.queue.Add("a");
  f.queue.Clear();
  f.scheduler.RunUntil(base::kSecond);
  EXPECT_TRUE(f.synced.empty());
}

}  // namespace
}  // namespace world
