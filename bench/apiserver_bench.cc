// API server throughput with 10,000 objects and 20 watchers: creates, merge patches and watch
// deliveries per second (figures for docs/performance.md; no assertions).

#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "core/apiserver/api_server.h"

namespace {

using api::Json;

constexpr int kObjects = 10000;
constexpr int kWatchers = 20;

struct World {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  apiserver::ApiServer api{scheduler, trace, sim::Prng(1)};
  apiserver::RequestContext admin;
  uint64_t delivered = 0;

  explicit World(int watchers) {
    (void)api.Create(admin, Json{{"apiVersion", "v1"}, {"kind", "Namespace"},
                                 {"metadata", {{"name", "default"}}}});
    for (int i = 0; i < watchers; ++i) {
      apiserver::WatchOptions opts;
      opts.watcher = "informer-" + std::to_string(i);
      (void)api.Watch(admin, "ConfigMap", opts,
                      [this](const apiserver::WatchEvent&) { ++delivered; });
    }
  }
};

Json ConfigMap(int i) {
  return Json{{"apiVersion", "v1"},
              {"kind", "ConfigMap"},
              {"metadata", {{"name", "cm-" + std::to_string(i)}, {"namespace", "default"}}},
              {"data", {{"index", std::to_string(i)}}}};
}

void BM_Create10kWith20Watchers(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    auto world = std::make_unique<World>(kWatchers);
    state.ResumeTiming();
    for (int i = 0; i < kObjects; ++i) (void)world->api.Create(world->admin, ConfigMap(i));
    benchmark::DoNotOptimize(world->api.resource_version());
    state.PauseTiming();
    world.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kObjects);
}
BENCHMARK(BM_Create10kWith20Watchers)->Unit(benchmark::kMillisecond);

void BM_MergePatch10kWith20Watchers(benchmark::State& state) {
  World world(kWatchers);
  for (int i = 0; i < kObjects; ++i) (void)world.api.Create(world.admin, ConfigMap(i));
  world.scheduler.RunUntil(world.clock.Now() + base::kSecond);
  int64_t round = 0;
  for (auto _ : state) {
    ++round;
    for (int i = 0; i < kObjects; ++i) {
      (void)world.api.PatchTakingBody(world.admin, "ConfigMap", "default",
                                      "cm-" + std::to_string(i), apiserver::PatchType::kJsonMerge,
                                      Json{{"data", {{"round", std::to_string(round)}}}});
    }
    state.PauseTiming();
    world.scheduler.RunUntil(world.clock.Now() + base::kSecond);
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kObjects);
}
BENCHMARK(BM_MergePatch10kWith20Watchers)->Unit(benchmark::kMillisecond);

void BM_WatchDeliveries(benchmark::State& state) {
  World world(kWatchers);
  for (int i = 0; i < kObjects; ++i) (void)world.api.Create(world.admin, ConfigMap(i));
  world.scheduler.RunUntil(world.clock.Now() + base::kSecond);
  int64_t round = 0;
  uint64_t delivered = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ++round;
    for (int i = 0; i < kObjects; ++i) {
      (void)world.api.PatchTakingBody(world.admin, "ConfigMap", "default",
                                      "cm-" + std::to_string(i), apiserver::PatchType::kJsonMerge,
                                      Json{{"data", {{"round", std::to_string(round)}}}});
    }
    const uint64_t before = world.delivered;
    state.ResumeTiming();
    world.scheduler.RunUntil(world.clock.Now() + base::kSecond);
    delivered += world.delivered - before;
  }
  state.SetItemsProcessed(static_cast<int64_t>(delivered));
}
BENCHMARK(BM_WatchDeliveries)->Unit(benchmark::kMillisecond);

}  // namespace
