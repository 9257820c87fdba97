#include "core/workqueue/metrics.h"

#include <algorithm>

#include "core/base/assert.h"

namespace workqueue {

const std::array<int64_t, Histogram::kNumBuckets> Histogram::kBoundsNs = {
    10,       100,       1000,       9999,        99999,        1000000,
    10000000, 100000000, 1000000000, 10000000000, 100000000000, 1000000000000};

const std::array<const char*, Histogram::kNumBuckets> Histogram::kBoundLabels = {
    "1e-08",
    "1e-07",
    "1e-06",
    "9.999999999999999e-06",
    "9.999999999999999e-05",
    "0.001",
    "0.01",
    "0.1",
    "1",
    "10",
    "100",
    "1000"};

void Histogram::Observe(base::Duration d) {
  RLAB_ASSERT(d >= 0, "histogram observation must not be negative");
  // d µs <= bound ns  <=>  d * 1000 <= bound  <=>  d <= floor(bound / 1000); no overflow.
  size_t i = 0;
  while (i < kNumBuckets && d > kBoundsNs[i] / 1000) ++i;
  ++buckets_[i];
  ++count_;
  sum_us_ += d;
}

uint64_t Histogram::CumulativeCount(size_t i) const {
  RLAB_ASSERT(i <= kNumBuckets, "bucket index out of range");
  uint64_t total = 0;
  for (size_t j = 0; j <= i; ++j) total += buckets_[j];
  return total;
}

QueueMetrics::QueueMetrics(const sim::Clock& clock, std::string name, bool with_priority)
    : clock_(clock), name_(std::move(name)), with_priority_(with_priority) {}

// mirrors controller-runtime pkg/internal/metrics/workqueue.go
// depthWithPriorityMetric.priorityLabel
std::string QueueMetrics::PriorityLabel(int priority) {
  if (!with_priority_) return "";
  if (priority_cardinality_limit_reached_) return kPriorityCardinalityExceeded;
  observed_priorities_.insert(priority);
  if (observed_priorities_.size() > kMaxRecommendedUniquePriorities) {
    observed_priorities_.clear();
    priority_cardinality_limit_reached_ = true;
    return kPriorityCardinalityExceeded;
  }
  return std::to_string(priority);
}

void QueueMetrics::Add(const std::string& item, int priority) {
  if (!enabled()) return;
  ++adds_;
  ++depth_[PriorityLabel(priority)];
  add_times_.emplace(item, clock_.Now());  // keeps an existing (earlier) time
}

void QueueMetrics::Get(const std::string& item, int priority) {
  if (!enabled()) return;
  --depth_[PriorityLabel(priority)];
  processing_start_times_[item] = clock_.Now();
  auto it = add_times_.find(item);
  if (it != add_times_.end()) {
    queue_duration_.Observe(clock_.Now() - it->second);
    add_times_.erase(it);
  }
}

void QueueMetrics::Done(const std::string& item) {
  if (!enabled()) return;
  auto it = processing_start_times_.find(item);
  if (it != processing_start_times_.end()) {
    work_duration_.Observe(clock_.Now() - it->second);
    processing_start_times_.erase(it);
  }
}

void QueueMetrics::UpdateDepthPriority(int old_priority, int new_priority) {
  if (!enabled() || !with_priority_) return;
  --depth_[PriorityLabel(old_priority)];
  ++depth_[PriorityLabel(new_priority)];
}

void QueueMetrics::Retry() {
  if (!enabled()) return;
  ++retries_;
}

int64_t QueueMetrics::depth() const {
  int64_t total = 0;
  for (const auto& [label, value] : depth_) total += value;
  return total;
}

base::Duration QueueMetrics::UnfinishedWork() const {
  base::Duration total = 0;
  for (const auto& [item, start] : processing_start_times_) total += clock_.Now() - start;
  return total;
}

base::Duration QueueMetrics::LongestRunningProcessor() const {
  base::Duration oldest = 0;
  for (const auto& [item, start] : processing_start_times_) {
    oldest = std::max(oldest, clock_.Now() - start);
  }
  return oldest;
}

std::vector<MetricSample> QueueMetrics::Samples() const {
  std::vector<MetricSample> out;
  if (!enabled()) return out;
  using Labels = std::vector<std::pair<std::string, std::string>>;
  const Labels base_labels = {{"name", name_}, {"controller", name_}};
  auto with = [&](const std::string& key, const std::string& value) {
    Labels labels = base_labels;
    labels.emplace_back(key, value);
    return labels;
  };
  if (depth_.empty() && !with_priority_) {  // the classic series exists from the start
    out.push_back({kDepthMetric, with("priority", ""), 0, false});
  }
  for (const auto& [label, value] : depth_) {
    out.push_back({kDepthMetric, with("priority", label), value, false});
  }
  out.push_back({kAddsMetric, base_labels, static_cast<int64_t>(adds_), false});
  auto histogram = [&](const std::string& name, const Histogram& h) {
    for (size_t i = 0; i < Histogram::kNumBuckets; ++i) {
      out.push_back({name + "_bucket", with("le", Histogram::kBoundLabels[i]),
                     static_cast<int64_t>(h.CumulativeCount(i)), false});
    }
    out.push_back({name + "_bucket", with("le", "+Inf"), static_cast<int64_t>(h.count()), false});
    out.push_back({name + "_sum", base_labels, h.sum_us(), true});
    out.push_back({name + "_count", base_labels, static_cast<int64_t>(h.count()), false});
  };
  histogram(kQueueDurationMetric, queue_duration_);
  histogram(kWorkDurationMetric, work_duration_);
  out.push_back({kUnfinishedWorkMetric, base_labels, UnfinishedWork(), true});
  out.push_back({kLongestRunningProcessorMetric, base_labels, LongestRunningProcessor(), true});
  out.push_back({kRetriesMetric, base_labels, static_cast<int64_t>(retries_), false});
  return out;
}

}  // namespace workqueue
