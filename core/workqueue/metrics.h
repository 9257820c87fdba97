#pragma once
// QueueMetrics: the seven workqueue metrics one named queue records (depth, adds, queue and work
// duration, unfinished work, longest-running processor, retries), kept as integers.
// Mirrors: client-go util/workqueue/metrics.go (defaultQueueMetrics) with the names and labels
// controller-runtime's provider exports (pkg/internal/metrics/workqueue.go), and the priority
// queue's copy of it (pkg/controller/priorityqueue/metrics.go: depth labelled by priority).
// Simplified: no Prometheus registry; durations are microseconds, not float seconds; the
// unfinished-work and longest-running gauges are computed when read instead of by a 500ms ticker.
// Single-threaded; time comes from sim::Clock; no floats anywhere.

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/base/time.h"
#include "core/sim/clock.h"

namespace workqueue {

// Metric names as controller-runtime registers them (subsystem "workqueue").
constexpr const char* kDepthMetric = "workqueue_depth";
constexpr const char* kAddsMetric = "workqueue_adds_total";
constexpr const char* kQueueDurationMetric = "workqueue_queue_duration_seconds";
constexpr const char* kWorkDurationMetric = "workqueue_work_duration_seconds";
constexpr const char* kUnfinishedWorkMetric = "workqueue_unfinished_work_seconds";
constexpr const char* kLongestRunningProcessorMetric =
    "workqueue_longest_running_processor_seconds";
constexpr const char* kRetriesMetric = "workqueue_retries_total";

// kPriorityCardinalityExceeded replaces the priority label once more than
// kMaxRecommendedUniquePriorities distinct priorities were seen (controller-runtime's guard).
constexpr const char* kPriorityCardinalityExceeded = "exceeded_cardinality_limit";
constexpr size_t kMaxRecommendedUniquePriorities = 25;

// Histogram counts observations into the upstream buckets ExponentialBuckets(10e-9, 10, 12)
// (10ns ... 1000s), with integer bounds.
class Histogram {
 public:
  static constexpr size_t kNumBuckets = 12;
  // kBoundsNs are the inclusive upper bounds in nanoseconds. The float product 10e-9*10*10*...
  // that Prometheus computes makes buckets 3 and 4 slightly below 10µs and 100µs
  // (9.999999999999999e-06 s), so an observation of exactly 10µs lands in the next bucket
  // upstream; the bounds 9999 and 99999 reproduce that with integers.
  static const std::array<int64_t, kNumBuckets> kBoundsNs;
  // kBoundLabels are the `le` label values Prometheus prints for the bounds.
  static const std::array<const char*, kNumBuckets> kBoundLabels;

  // Observe records one duration. REQUIRES: d >= 0.
  void Observe(base::Duration d);

  uint64_t count() const { return count_; }
  // sum_us is the sum of all observations in microseconds (Prometheus keeps seconds).
  base::Duration sum_us() const { return sum_us_; }
  // CumulativeCount is the number of observations <= kBoundsNs[i] (a Prometheus `le` bucket);
  // i == kNumBuckets gives the +Inf bucket (== count()).
  uint64_t CumulativeCount(size_t i) const;

 private:
  std::array<uint64_t, kNumBuckets + 1> buckets_{};  // Invariant: sums to count_.
  uint64_t count_ = 0;
  base::Duration sum_us_ = 0;
};

// MetricSample is one exported series, for the `metrics` command and the UI.
struct MetricSample {
  std::string name;  // e.g. "workqueue_depth", "workqueue_queue_duration_seconds_bucket"
  std::vector<std::pair<std::string, std::string>> labels;  // name, controller[, priority|le]
  int64_t value = 0;    // a count, or microseconds when micros is true
  bool micros = false;  // true for *_seconds gauges and histogram sums (print value / 1e6 s)
};

// QueueMetrics records the metrics of one queue. A queue with an empty name records nothing
// (client-go's newQueueMetrics returns noMetrics for an unnamed queue).
// The label values `name` and `controller` are both the queue name, as controller-runtime sets
// them. Not copyable: queues hold it by value and hand out const references.
class QueueMetrics {
 public:
  // Depth is labelled by priority when with_priority is true (the priority queue); otherwise the
  // priority label is "" (the classic queue through controller-runtime's provider).
  // clock must outlive this object.
  QueueMetrics(const sim::Clock& clock, std::string name, bool with_priority);
  QueueMetrics(const QueueMetrics&) = delete;
  QueueMetrics& operator=(const QueueMetrics&) = delete;

  // enabled is false for an unnamed queue; every recorder is then a no-op.
  bool enabled() const { return !name_.empty(); }
  const std::string& name() const { return name_; }

  // Add records an add that made an item pending: adds_total and depth go up, and the first add
  // time is kept for the queue-duration histogram. mirrors client-go metrics.go add
  void Add(const std::string& item, int priority);
  // Get records a hand-out: depth goes down, queue duration is observed from the first add, and
  // the processing start time is recorded. mirrors client-go metrics.go get
  void Get(const std::string& item, int priority);
  // Done observes the work duration of item. mirrors client-go metrics.go done
  void Done(const std::string& item);
  // UpdateDepthPriority moves one unit of depth from old_priority to new_priority (priority
  // queue only). mirrors priorityqueue/metrics.go updateDepthWithPriorityMetric
  void UpdateDepthPriority(int old_priority, int new_priority);
  // Retry counts one retries_total. mirrors client-go metrics.go retry
  void Retry();

  // depth is the total over all priority labels.
  int64_t depth() const;
  // depth_by_priority maps the priority label ("" for the classic queue) to its gauge value.
  const std::map<std::string, int64_t>& depth_by_priority() const { return depth_; }
  uint64_t adds() const { return adds_; }
  uint64_t retries() const { return retries_; }
  const Histogram& queue_duration() const { return queue_duration_; }
  const Histogram& work_duration() const { return work_duration_; }
  // UnfinishedWork is the sum of the ages of the items being processed, at Now().
  // Teaching: upstream refreshes this gauge every 500ms (and stops at shutdown); here it is
  // computed when read, so it is never stale.
  base::Duration UnfinishedWork() const;
  // LongestRunningProcessor is the largest age among the items being processed, at Now().
  base::Duration LongestRunningProcessor() const;

  // Samples lists every series in a fixed order; empty when !enabled().
  std::vector<MetricSample> Samples() const;

 private:
  std::string PriorityLabel(int priority);

  const sim::Clock& clock_;
  const std::string name_;
  const bool with_priority_;
  std::map<std::string, int64_t> depth_;  // priority label -> gauge
  uint64_t adds_ = 0;
  uint64_t retries_ = 0;
  Histogram queue_duration_;
  Histogram work_duration_;
  std::map<std::string, base::SimTime> add_times_;  // Invariant: first pending add per item.
  std::map<std::string, base::SimTime> processing_start_times_;
  std::set<int> observed_priorities_;
  bool priority_cardinality_limit_reached_ = false;
};

}  // namespace workqueue
