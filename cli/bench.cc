#include "cli/bench.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/alloc/allocator.h"
#include "cli/args.h"
#include "bench/rewind_probe.h"
#include "bench/scale_scenarios.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <emscripten/heap.h>
#else
#include <sys/resource.h>
#endif

namespace cli {
namespace {

constexpr const char* kBenchUsage =
    "usage: rlab bench SCENARIO [N] [--seed N]\n"
    "       SCENARIO: rayclusters (N clusters of 1 head + 10 workers, default 1000),\n"
    "       deployment (one Deployment of N replicas, default 100), rewind (replay a session\n"
    "       of N single steps into a fresh simulation, default 10000), rewind-checkpoints (the\n"
    "       same session rewound through the page's checkpoints to the furthest step from a\n"
    "       checkpoint in every interval of its last 10,000 steps).\n"
    "       Prints one JSON line: wall and CPU milliseconds (user and system) of the measured\n"
    "       phase, virtual time, API writes, reconciles, trace events and peak memory.\n";

using Clock = std::chrono::steady_clock;

double MillisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// CpuTimes is the process's CPU time so far, split: natively the system share is mostly the
// kernel zeroing fresh pages (on this VM it varies from run to run with how much of the guest's
// free memory the host still backs; docs/performance.md, "The machine").
struct CpuTimes {
  double user_ms = 0;
  double sys_ms = 0;
  double total() const { return user_ms + sys_ms; }
};

CpuTimes CpuNow() {
#ifdef __EMSCRIPTEN__
  CpuTimes t;
  t.user_ms = EM_ASM_DOUBLE({ return process.cpuUsage().user / 1000; });
  t.sys_ms = EM_ASM_DOUBLE({ return process.cpuUsage().system / 1000; });
  return t;
#else
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto millis = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) * 1000.0 + static_cast<double>(tv.tv_usec) / 1000.0;
  };
  return CpuTimes{millis(usage.ru_utime), millis(usage.ru_stime)};
#endif
}

// AddMemory records the peak resident set of the whole process (native: getrusage; Node:
// process.resourceUsage().maxRSS, which includes V8 and the wasm memory) and, under Node, the
// WebAssembly heap's size (it only grows, so it is its peak).
void AddMemory(nlohmann::ordered_json* out) {
#ifdef __EMSCRIPTEN__
  const double max_rss_kb = EM_ASM_DOUBLE({ return process.resourceUsage().maxRSS; });
  (*out)["peak_rss_mb"] = max_rss_kb / 1024.0;
  (*out)["peak_rss_source"] = "node process.resourceUsage().maxRSS";
  (*out)["wasm_heap_mb"] = static_cast<double>(emscripten_get_heap_size()) / (1024.0 * 1024.0);
  (*out)["platform"] = "wasm-node";
#else
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  (*out)["peak_rss_mb"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  (*out)["peak_rss_source"] = "getrusage ru_maxrss";
  (*out)["platform"] = "native";
#endif
  (*out)["allocator"] = alloc::Name();  // cli/alloc/allocator.h
  const std::string conf = alloc::Config();
  if (!conf.empty()) (*out)["allocator_conf"] = conf;  // MALLOC_CONF may add to it
  (*out)["slab_heap_mb"] = static_cast<double>(alloc::SlabHeapBytes()) / (1024.0 * 1024.0);
}

double Round1(double v) { return static_cast<double>(static_cast<int64_t>(v * 10.0 + 0.5)) / 10.0; }
double Round2(double v) {
  return static_cast<double>(static_cast<int64_t>(v * 100.0 + 0.5)) / 100.0;
}

// kRewindWindow is issue 7's rewind budget's reach: any of the last 10,000 steps.
constexpr int64_t kRewindWindow = 10000;

// RunRewindCheckpoints measures `rewind-checkpoints`: every checkpoint of the session is built
// first (timed on its own: the page spends idle time on it), then each rewind is timed alone; the
// Lab it returns is destroyed outside the clock, as the page retires it.
int RunRewindCheckpoints(bench::ScaleRun& run, uint64_t seed, double setup_ms) {
  const bench::ScaleScenario& s = run.scenario();
  // Checkpoints measured as the page measures them (the allocator seam's probe), so the report
  // shows what the page's byte budget weighs; the budget itself stays off here.
  lab::RewindOptions rewind;
  rewind.heap_in_use = alloc::ObjectBytesInUse;
  bench::RewindProbe probe(run.lab(), s.options, rewind);
  const auto build_start = Clock::now();
  const int64_t build_steps = probe.BuildCheckpoints();
  const double build_ms = MillisSince(build_start);
  // Read before the rewinds, which take checkpoints over.
  const size_t parked = probe.parked_steps().size();
  const uint64_t parked_bytes = probe.parked_bytes();
  const std::vector<int64_t> targets = probe.Targets(kRewindWindow);
  std::vector<double> times;
  int64_t worst_step = 0;
  int64_t most_replayed = 0;
  double worst_ms = 0;
  std::string error;
  for (const int64_t step : targets) {
    const auto start = Clock::now();
    lab::RewindResult r = probe.RewindTo(step);
    const double ms = MillisSince(start);
    times.push_back(ms);
    if (ms > worst_ms) {
      worst_ms = ms;
      worst_step = step;
    }
    most_replayed = std::max(most_replayed, r.replayed_steps);
    if (!r.ok && error.empty()) error = "rewind to step " + std::to_string(step) + ": " + r.error;
    // The newest target is the session's end, whose trace is the session's own.
    if (step == probe.total_steps() && error.empty() &&
        r.lab->sim().trace().Hash() != run.lab().sim().trace().Hash()) {
      error = "the rewound session's trace differs from the session's";
    }
  }
  if (targets.empty()) error = "the session has no step to rewind to";
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  double sum = 0;
  for (double t : times) sum += t;

  nlohmann::ordered_json out;
  out["scenario"] = s.name;
  out["n"] = s.n;
  out["seed"] = seed;
  out["ok"] = error.empty();
  out["setup_wall_ms"] = Round1(setup_ms);
  out["session_steps"] = probe.total_steps();
  out["window_steps"] = std::min(kRewindWindow, probe.total_steps());
  out["interval_steps"] = probe.interval();
  out["checkpoint_build_wall_ms"] = Round1(build_ms);
  out["checkpoint_build_steps"] = build_steps;
  out["parked_checkpoints"] = parked;
  out["parked_mb"] = Round1(static_cast<double>(parked_bytes) / (1024.0 * 1024.0));
  out["rewinds"] = times.size();
  out["most_replayed_steps"] = most_replayed;
  out["rewind_mean_ms"] = times.empty() ? 0.0 : Round2(sum / static_cast<double>(times.size()));
  out["rewind_median_ms"] = sorted.empty() ? 0.0 : Round2(sorted[sorted.size() / 2]);
  out["rewind_worst_ms"] = Round2(worst_ms);
  out["rewind_worst_step"] = worst_step;
  out["trace_hash"] = run.lab().sim().trace().Hash();
  AddMemory(&out);
  if (!error.empty()) out["error"] = error;
  std::cout << out.dump() << "\n";
  return error.empty() ? 0 : 1;
}

}  // namespace

int RunBench(int argc, char** argv) {
  std::string name;
  int n = 0;
  uint64_t seed = 1;
  bool have_n = false;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kBenchUsage;
      return 0;
    }
    if (arg == "--seed" || arg.rfind("--seed=", 0) == 0) {
      std::string v;
      if (arg == "--seed") {
        if (i + 1 >= argc) return std::cerr << "rlab bench: --seed needs a value\n", 2;
        v = argv[++i];
      } else {
        v = arg.substr(7);
      }
      const std::optional<uint64_t> parsed = ParseCount(v);
      if (parsed) seed = *parsed;
      if (!parsed) {
        std::cerr << "rlab bench: --seed must be a non-negative integer\n" << kBenchUsage;
        return 2;
      }
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "rlab bench: unknown flag: " << arg << "\n" << kBenchUsage;
      return 2;
    } else if (name.empty()) {
      name = arg;
    } else if (!have_n) {
      const std::optional<uint64_t> v = ParseCount(arg, 7);
      if (!v || *v == 0 || *v > 1000000) {
        std::cerr << "rlab bench: N must be a positive integer, got \"" << arg << "\"\n";
        return 2;
      }
      n = static_cast<int>(*v);
      have_n = true;
    } else {
      std::cerr << "rlab bench: unexpected argument: " << arg << "\n" << kBenchUsage;
      return 2;
    }
  }
  if (name.empty()) {
    std::cerr << "rlab bench: missing SCENARIO\n" << kBenchUsage;
    return 2;
  }
  auto scenario = bench::ScaleScenarioFor(name, n, seed);
  if (!scenario.ok()) {
    std::cerr << "rlab bench: " << scenario.status().message() << "\n";
    return 2;
  }

  const auto setup_start = Clock::now();
  const lab::Budget& budget = scenario->options.budget;
  std::cerr << "rlab bench: the scale scenario runs with a raised budget: " << budget.events
            << " scheduler events per command, " << budget.pods << " Pods, " << budget.objects
            << " objects (a session's defaults: " << lab::Budget::kDefaultEvents << ", "
            << lab::Budget::kDefaultPods << ", " << lab::Budget::kDefaultObjects << ")\n";
  bench::ScaleRun run(std::move(scenario).value());
  base::Status setup = run.Setup();
  const double setup_ms = MillisSince(setup_start);
  if (!setup.ok()) {
    std::cerr << "rlab bench: " << setup.message() << "\n";
    return 1;
  }
  if (run.scenario().name == "rewind-checkpoints") return RunRewindCheckpoints(run, seed, setup_ms);
  const CpuTimes cpu_start = CpuNow();
  const auto start = Clock::now();
  bench::ScaleFigures f = run.Measure();
  const double wall_ms = MillisSince(start);
  const CpuTimes cpu_end = CpuNow();
  const double cpu_ms = cpu_end.total() - cpu_start.total();
  run.Tally(&f);

  const bench::ScaleScenario& s = run.scenario();
  nlohmann::ordered_json out;
  out["scenario"] = s.name;
  out["n"] = s.n;
  out["pods"] = s.pods;
  out["nodes"] = s.options.world.nodes.count;
  out["seed"] = seed;
  out["ok"] = f.ok;
  out["ready"] = f.ready;
  out["wall_ms"] = Round1(wall_ms);
  out["cpu_ms"] = Round1(cpu_ms);
  out["user_ms"] = Round1(cpu_end.user_ms - cpu_start.user_ms);
  out["sys_ms"] = Round1(cpu_end.sys_ms - cpu_start.sys_ms);
  out["setup_wall_ms"] = Round1(setup_ms);
  out["virtual_ms"] = f.virtual_time / base::kMillisecond;
  out["api_writes"] = f.api_writes;
  out["reconciles"] = f.reconciles;
  out["trace_events"] = f.trace_events;
  out["scheduler_events"] = f.scheduler_events;
  out["trace_hash"] = f.trace_hash;
  out["budget_events"] = s.options.budget.events;
  AddMemory(&out);
  if (!f.ok) out["error"] = f.error;
  std::cout << out.dump() << "\n";
  return f.ok ? 0 : 1;
}

}  // namespace cli
