#include "cli/sweep.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "cli/args.h"
#include "core/check/sweep.h"

namespace cli {

namespace {

constexpr const char* kSweepUsage =
    "usage: rlab sweep [--seeds N] [--from S] [--steps M] [--out DIR] [--keep-going]\n"
    "       random scenarios for seeds S..S+N-1 (defaults: N=20, S=1, M=12 actions each),\n"
    "       every invariant checked after every scheduler step; the first violation prints\n"
    "       the seed, the violation and a replay script (written to DIR, default .).\n"
    "       rlab check SCRIPT|-: run a script with the invariant checker attached.\n";

}  // namespace

int RunSweep(int argc, char** argv) {
  uint64_t seeds = 20, from = 1, steps = 12;
  std::string out_dir = ".";
  bool keep_going = false;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](uint64_t* v) {
      std::optional<uint64_t> parsed;
      if (i + 1 >= argc || !(parsed = ParseCount(argv[i + 1], 18))) {
        std::cerr << "rlab sweep: " << arg << " needs a non-negative integer\n" << kSweepUsage;
        return false;
      }
      *v = *parsed;
      ++i;
      return true;
    };
    if (arg == "--seeds") {
      if (!value(&seeds)) return 2;
    } else if (arg == "--from") {
      if (!value(&from)) return 2;
    } else if (arg == "--steps") {
      if (!value(&steps)) return 2;
    } else if (arg == "--out") {
      if (i + 1 >= argc) return std::cerr << "rlab sweep: --out needs a folder\n" << kSweepUsage, 2;
      out_dir = argv[++i];
    } else if (arg == "--keep-going") {
      keep_going = true;
    } else if (arg == "--help" || arg == "-h") {
      std::cout << kSweepUsage;
      return 0;
    } else {
      std::cerr << "rlab sweep: unexpected argument: " << arg << "\n" << kSweepUsage;
      return 2;
    }
  }
  if (steps > 1000) return std::cerr << "rlab sweep: --steps is at most 1000\n", 2;
  check::ScenarioOptions options;
  options.actions = static_cast<int>(steps);
  uint64_t failed = 0, total_steps = 0, total_checked = 0;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t seed = from; seed < from + seeds; ++seed) {
    const check::SeedResult result = check::RunSeed(seed, options);
    total_steps += result.steps;
    total_checked += result.steps_checked;
    if (result.ok()) {
      std::cout << "seed " << seed << ": ok (" << result.steps << " steps checked, trace "
                << result.trace_hash << ")\n"
                << std::flush;
      continue;
    }
    ++failed;
    const std::string path = out_dir + "/sweep-seed-" + std::to_string(seed) + ".lab";
    std::ofstream file(path, std::ios::binary);
    file << result.script;
    const bool written = static_cast<bool>(file);
    std::cout << check::FailureReport(result, written ? path : "") << std::flush;
    if (!written) std::cerr << "rlab sweep: cannot write \"" << path << "\"\n";
    if (!keep_going) break;
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "sweep: " << seeds << " seed(s) from " << from << ", " << failed
            << " failed, " << total_steps << " scheduler steps, " << total_checked
            << " step checks, " << static_cast<int64_t>(secs * 10) / 10.0 << "s\n";
  return failed == 0 ? 0 : 1;
}

int RunCheck(int argc, char** argv) {
  if (argc != 1) {
    std::cerr << "rlab check: expected one SCRIPT or -\n" << kSweepUsage;
    return 2;
  }
  const std::string path = argv[0];
  std::stringstream text;
  std::string base_dir = ".";
  if (path == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << "rlab check: cannot read \"" << path << "\"\n";
      return 2;
    }
    text << in.rdbuf();
    const size_t slash = path.find_last_of('/');
    if (slash != std::string::npos) base_dir = path.substr(0, slash);
  }
  const check::SeedResult result = check::CheckScript(text.str(), base_dir);
  if (result.ok()) {
    std::cout << "check: ok (" << result.steps << " steps checked, trace " << result.trace_hash
              << ")\n";
    return 0;
  }
  std::cout << "check: " << result.violations.size() << " violation(s) after " << result.steps
            << " steps\n";
  for (const check::Violation& v : result.violations) std::cout << "  " << v.ToString() << "\n";
  return 1;
}

}  // namespace cli
