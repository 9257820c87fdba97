// heap_census runs one scale scenario's measured phase (bench::ScaleRun, as `rlab bench` does) with
// the C library's allocator: no jemalloc and no slab heap, so a heap profiler such as valgrind's
// massif attributes every block to the code that asked for it. scripts/heap_census.sh runs it
// under massif and groups the heap by caller (docs/performance.md, "How to reproduce").
// Usage: heap_census [SCENARIO [N]]   (defaults: rayclusters 100)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/scale_scenarios.h"

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "rayclusters";
  const int n = argc > 2 ? std::atoi(argv[2]) : 100;
  auto scenario = bench::ScaleScenarioFor(name, n, /*seed=*/1);
  if (!scenario.ok()) {
    std::fprintf(stderr, "heap_census: %s\n", scenario.status().message().c_str());
    return 2;
  }
  bench::ScaleRun run(std::move(scenario).value());
  if (base::Status setup = run.Setup(); !setup.ok()) {
    std::fprintf(stderr, "heap_census: %s\n", setup.message().c_str());
    return 1;
  }
  const bench::ScaleFigures figures = run.Measure();
  std::printf("heap_census: %s %d measured, %llu API writes\n", name.c_str(), n,
              static_cast<unsigned long long>(figures.api_writes));
  std::fflush(stdout);
  // The heap at its fullest is the heap now: leave without freeing it, so the profiler's last
  // snapshot is that heap and the exit costs nothing.
  std::_Exit(0);
}
