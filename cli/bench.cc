#include "cli/bench.h"

#include <chrono>
#include <cstdint>
#include <iostream>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/args.h"
#include "core/lab/scale_scenarios.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <emscripten/heap.h>
#else
#include <sys/resource.h>
#endif

#ifdef RLAB_LINKED_JEMALLOC
extern "C" const char* malloc_conf;  // cli/jemalloc_conf.cc
#endif

namespace cli {
namespace {

constexpr const char* kBenchUsage =
    "usage: rlab bench SCENARIO [N] [--seed N]\n"
    "       SCENARIO: rayclusters (N clusters of 1 head + 10 workers, default 1000),\n"
    "       deployment (one Deployment of N replicas, default 100), rewind (replay a session\n"
    "       of N single steps into a fresh simulation, default 10000).\n"
    "       Prints one JSON line: wall and CPU milliseconds of the measured phase, virtual time,\n"
    "       API writes, reconciles, trace events and peak memory.\n";

using Clock = std::chrono::steady_clock;

double MillisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// CpuMillis is the process's CPU time (user + system) so far.
double CpuMillis() {
#ifdef __EMSCRIPTEN__
  return EM_ASM_DOUBLE({
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  });
#else
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000.0 +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000.0;
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
  (*out)["allocator"] = "dlmalloc";  // Emscripten's default malloc
#else
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  (*out)["peak_rss_mb"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  (*out)["peak_rss_source"] = "getrusage ru_maxrss";
  (*out)["platform"] = "native";
#ifdef RLAB_LINKED_JEMALLOC
  (*out)["allocator"] = "jemalloc";
  (*out)["allocator_conf"] = malloc_conf;  // cli/jemalloc_conf.cc (MALLOC_CONF may add to it)
#else
  (*out)["allocator"] = "libc";
#endif
#endif
}

double Round1(double v) { return static_cast<double>(static_cast<int64_t>(v * 10.0 + 0.5)) / 10.0; }

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
  auto scenario = lab::ScaleScenarioFor(name, n, seed);
  if (!scenario.ok()) {
    std::cerr << "rlab bench: " << scenario.status().message() << "\n";
    return 2;
  }

  const auto setup_start = Clock::now();
  lab::ScaleRun run(std::move(scenario).value());
  base::Status setup = run.Setup();
  const double setup_ms = MillisSince(setup_start);
  if (!setup.ok()) {
    std::cerr << "rlab bench: " << setup.message() << "\n";
    return 1;
  }
  const double cpu_start = CpuMillis();
  const auto start = Clock::now();
  lab::ScaleFigures f = run.Measure();
  const double wall_ms = MillisSince(start);
  const double cpu_ms = CpuMillis() - cpu_start;

  const lab::ScaleScenario& s = run.scenario();
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
  out["setup_wall_ms"] = Round1(setup_ms);
  out["virtual_ms"] = f.virtual_time / base::kMillisecond;
  out["api_writes"] = f.api_writes;
  out["reconciles"] = f.reconciles;
  out["trace_events"] = f.trace_events;
  out["scheduler_events"] = f.scheduler_events;
  out["trace_hash"] = f.trace_hash;
  AddMemory(&out);
  if (!f.ok) out["error"] = f.error;
  std::cout << out.dump() << "\n";
  return f.ok ? 0 : 1;
}

}  // namespace cli
