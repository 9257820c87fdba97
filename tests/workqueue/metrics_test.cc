#include "core/workqueue/metrics.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/sim/clock.h"

namespace workqueue {
namespace {

using base::kMillisecond;
using base::kSecond;

// BucketOf returns the index of the first `le` bucket an observation lands in.
size_t BucketOf(base::Duration d) {
  Histogram h;
  h.Observe(d);
  for (size_t i = 0; i <= Histogram::kNumBuckets; ++i) {
    if (h.CumulativeCount(i) == 1) return i;
  }
  return Histogram::kNumBuckets + 1;
}

TEST(Histogram, UsesTheUpstreamBucketBoundsIncludingTheirFloatRounding) {
  struct Case {
    base::Duration observed;
    std::string want_le;
  };
  const std::vector<Case> cases = {
      {0, "1e-08"},
      {1, "1e-06"},  // 1µs == 1e-06 exactly
      {2, "9.999999999999999e-06"},
      {9, "9.999999999999999e-06"},
      {10, "9.999999999999999e-05"},  // 1e-05 s is above the float bound 9.999999999999999e-06
      {100, "0.001"},                 // likewise for 1e-04
      {kMillisecond, "0.001"},
      {kMillisecond + 1, "0.01"},
      {kSecond, "1"},
      {1000 * kSecond, "1000"},
      {1000 * kSecond + 1, "+Inf"},
  };
  for (const Case& c : cases) {
    const size_t i = BucketOf(c.observed);
    const std::string le = i < Histogram::kNumBuckets ? Histogram::kBoundLabels[i] : "+Inf";
    EXPECT_EQ(le, c.want_le) << c.observed << "us";
  }
}

TEST(Histogram, KeepsCountAndSumInMicroseconds) {
  Histogram h;
  h.Observe(5 * kMillisecond);
  h.Observe(7);
  EXPECT_EQ(h.count(), 2u);
  EXPECT_EQ(h.sum_us(), 5007);
  EXPECT_EQ(h.CumulativeCount(Histogram::kNumBuckets), 2u);
}

TEST(QueueMetrics, AddGetDoneMoveDepthAndObserveDurations) {
  sim::Clock clock;
  QueueMetrics m(clock, "raycluster", /*with_priority=*/false);
  m.Add("default/a", 0);
  m.Add("default/b", 0);
  EXPECT_EQ(m.depth(), 2);
  EXPECT_EQ(m.adds(), 2u);
  clock.AdvanceTo(4 * kMillisecond);
  m.Get("default/a", 0);
  EXPECT_EQ(m.depth(), 1);
  EXPECT_EQ(m.queue_duration().sum_us(), 4 * kMillisecond);
  clock.AdvanceTo(10 * kMillisecond);
  m.Get("default/b", 0);
  EXPECT_EQ(m.UnfinishedWork(), 6 * kMillisecond);
  EXPECT_EQ(m.LongestRunningProcessor(), 6 * kMillisecond);
  m.Done("default/a");
  EXPECT_EQ(m.work_duration().count(), 1u);
  EXPECT_EQ(m.work_duration().sum_us(), 6 * kMillisecond);
  EXPECT_EQ(m.UnfinishedWork(), 0);
  m.Retry();
  EXPECT_EQ(m.retries(), 1u);
}

TEST(QueueMetrics, AnUnnamedQueueRecordsNothing) {
  sim::Clock clock;
  QueueMetrics m(clock, "", false);
  m.Add("a", 0);
  m.Get("a", 0);
  m.Done("a");
  m.Retry();
  EXPECT_FALSE(m.enabled());
  EXPECT_EQ(m.adds(), 0u);
  EXPECT_EQ(m.depth(), 0);
  EXPECT_EQ(m.retries(), 0u);
  EXPECT_TRUE(m.Samples().empty());
}

TEST(QueueMetrics, PriorityDepthIsLabelledAndCappedAt25Priorities) {
  sim::Clock clock;
  QueueMetrics m(clock, "test", /*with_priority=*/true);
  for (int p = 0; p < 25; ++p) m.Add("k" + std::to_string(p), p);
  EXPECT_EQ(m.depth_by_priority().at("24"), 1);
  m.Add("k25", 25);  // the 26th distinct priority
  EXPECT_EQ(m.depth_by_priority().at(kPriorityCardinalityExceeded), 1);
  m.Add("k0b", 0);  // from now on every label is the placeholder
  EXPECT_EQ(m.depth_by_priority().at(kPriorityCardinalityExceeded), 2);
  EXPECT_EQ(m.depth_by_priority().at("0"), 1);
}

TEST(QueueMetrics, ClassicDepthHasAnEmptyPriorityLabel) {
  sim::Clock clock;
  QueueMetrics m(clock, "test", /*with_priority=*/false);
  m.Add("a", 7);
  EXPECT_EQ(m.depth_by_priority(), (std::map<std::string, int64_t>{{"", 1}}));
  m.UpdateDepthPriority(7, 9);  // only the priority queue moves depth between labels
  EXPECT_EQ(m.depth_by_priority(), (std::map<std::string, int64_t>{{"", 1}}));
}

TEST(QueueMetrics, SamplesUseControllerRuntimeNamesAndLabels) {
  sim::Clock clock;
  QueueMetrics m(clock, "raycluster", false);
  m.Add("a", 0);
  std::vector<MetricSample> samples = m.Samples();
  ASSERT_FALSE(samples.empty());
  EXPECT_EQ(samples[0].name, "workqueue_depth");
  EXPECT_EQ(samples[0].labels,
            (std::vector<std::pair<std::string, std::string>>{
                {"name", "raycluster"}, {"controller", "raycluster"}, {"priority", ""}}));
  EXPECT_EQ(samples[0].value, 1);
  std::vector<std::string> names;
  for (const MetricSample& s : samples) {
    if (names.empty() || names.back() != s.name) names.push_back(s.name);
  }
  EXPECT_EQ(
      names,
      (std::vector<std::string>{
          "workqueue_depth", "workqueue_adds_total", "workqueue_queue_duration_seconds_bucket",
          "workqueue_queue_duration_seconds_sum", "workqueue_queue_duration_seconds_count",
          "workqueue_work_duration_seconds_bucket", "workqueue_work_duration_seconds_sum",
          "workqueue_work_duration_seconds_count", "workqueue_unfinished_work_seconds",
          "workqueue_longest_running_processor_seconds", "workqueue_retries_total"}));
}

}  // namespace
}  // namespace workqueue
