// Workqueue throughput for both queues (the classic client-go rate-limiting queue and
// controller-runtime's priority queue): one operation = one Add, Get, Done and Forget of a key,
// the cycle every event-driven reconcile goes through; plus rate-limited adds that wait and fire
// in virtual time. Figures for docs/performance.md; no assertions.

#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "core/workqueue/interface.h"

namespace {

struct Kernel {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
};

std::vector<std::string> Keys(int n) {
  std::vector<std::string> keys;
  keys.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) keys.push_back("default/object-" + std::to_string(i));
  return keys;
}

// BM_AddGetDoneForget: 1,000 distinct keys added, then each handed out, done and forgotten.
void BM_AddGetDoneForget(benchmark::State& state) {
  const bool priority = state.range(0) == 1;
  const auto keys = Keys(1000);
  Kernel k;
  workqueue::QueueOptions options;
  options.use_priority_queue = priority;
  auto queue = workqueue::NewQueue(k.scheduler, "bench", std::move(options));
  int64_t ops = 0;
  for (auto _ : state) {
    for (const auto& key : keys) queue->Add(key);
    for (size_t i = 0; i < keys.size(); ++i) {
      workqueue::GetResult got = queue->Get();
      queue->Done(*got.key);
      queue->Forget(*got.key);
    }
    ops += static_cast<int64_t>(keys.size());
  }
  state.SetItemsProcessed(ops);
  state.SetLabel(priority ? "priority queue" : "classic queue");
}
BENCHMARK(BM_AddGetDoneForget)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// BM_CoalescedAdds: 10 adds of each of 1,000 keys before one Get (dedup on the hot path).
void BM_CoalescedAdds(benchmark::State& state) {
  const bool priority = state.range(0) == 1;
  const auto keys = Keys(1000);
  Kernel k;
  workqueue::QueueOptions options;
  options.use_priority_queue = priority;
  auto queue = workqueue::NewQueue(k.scheduler, "bench", std::move(options));
  int64_t ops = 0;
  for (auto _ : state) {
    for (int round = 0; round < 10; ++round) {
      for (const auto& key : keys) queue->Add(key);
    }
    for (size_t i = 0; i < keys.size(); ++i) {
      workqueue::GetResult got = queue->Get();
      queue->Done(*got.key);
    }
    ops += 10 * static_cast<int64_t>(keys.size());
  }
  state.SetItemsProcessed(ops);
  state.SetLabel(priority ? "priority queue" : "classic queue");
}
BENCHMARK(BM_CoalescedAdds)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// BM_RateLimitedRetry: 1,000 keys each fail once: AddRateLimited, the wait fires in virtual time
// (5ms; on the classic queue the 10 qps / 100 burst bucket spreads 900 of them over 90s), Get,
// Done, Forget.
void BM_RateLimitedRetry(benchmark::State& state) {
  const bool priority = state.range(0) == 1;
  const auto keys = Keys(1000);
  Kernel k;
  workqueue::QueueOptions options;
  options.use_priority_queue = priority;
  auto queue = workqueue::NewQueue(k.scheduler, "bench", std::move(options));
  int64_t ops = 0;
  for (auto _ : state) {
    for (const auto& key : keys) queue->AddRateLimited(key);
    k.scheduler.RunUntil(k.clock.Now() + 200 * base::kSecond);
    for (size_t i = 0; i < keys.size(); ++i) {
      workqueue::GetResult got = queue->Get();
      queue->Done(*got.key);
      queue->Forget(*got.key);
    }
    ops += static_cast<int64_t>(keys.size());
  }
  state.SetItemsProcessed(ops);
  state.SetLabel(priority ? "priority queue" : "classic queue");
}
BENCHMARK(BM_RateLimitedRetry)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
