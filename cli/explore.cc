#include "cli/explore.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "cli/args.h"
#include "core/explore/explorer.h"

namespace cli {
namespace {

constexpr const char* kUsage =
    "usage: rlab explore SCRIPT [--bound K] [--max-runs N] [--seed N] [--lag D] [--page URL] "
    "[--out FILE]\n"
    "       [--machinery]\n"
    "       runs SCRIPT under every schedule with at most K non-default choices (same-instant\n"
    "       order, worker slots, operator replicas, cache lag) from its `schedule` line on,\n"
    "       checks invariants after every step and prints the first violating schedule as a\n"
    "       replayable script and a share URL. Defaults: --bound 2 --max-runs 500 --lag 10ms.\n"
    "       --machinery also checks core/check's per-step invariants (watch order, queue\n"
    "       uniqueness, one worker per key, ...). Exit: 0 none found, 1 a violation found, 2 bad usage.\n";

int Usage(const std::string& message) {
  if (!message.empty()) std::cerr << "rlab explore: " << message << "\n";
  std::cerr << kUsage;
  return 2;
}

}  // namespace

int RunExplore(int argc, char** argv) {
  explore::ExploreOptions options;
  std::string script_path, out_path;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const std::string& flag) -> std::optional<std::string> {
      if (arg == flag) {
        if (i + 1 >= argc) return std::nullopt;
        return std::string(argv[++i]);
      }
      if (arg.rfind(flag + "=", 0) == 0) return arg.substr(flag.size() + 1);
      return std::nullopt;
    };
    auto is = [&](const std::string& flag) { return arg == flag || arg.rfind(flag + "=", 0) == 0; };
    std::optional<uint64_t> n;
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    } else if (arg == "--machinery") {
      options.machinery = true;
    } else if (is("--bound")) {
      auto v = value("--bound");
      // 9 digits at most: bound and max-runs are ints.
      if (!v || !(n = ParseCount(*v, 9))) return Usage("--bound needs a non-negative integer");
      options.bound = static_cast<int>(*n);
    } else if (is("--max-runs")) {
      auto v = value("--max-runs");
      if (!v || !(n = ParseCount(*v, 9)) || *n == 0) {
        return Usage("--max-runs needs a positive integer");
      }
      options.max_runs = static_cast<int>(*n);
    } else if (is("--seed")) {
      auto v = value("--seed");
      if (!v || !(n = ParseCount(*v))) return Usage("--seed needs a non-negative integer");
      options.seed = *n;
    } else if (is("--lag")) {
      auto v = value("--lag");
      auto d = v ? base::ParseDuration(*v) : base::StatusOr<base::Duration>(base::Status(
                                                 base::StatusCode::kBadRequest, "missing"));
      if (!d.ok() || *d <= 0) return Usage("--lag needs a positive duration (e.g. 10ms)");
      options.lag = *d;
    } else if (is("--page")) {
      auto v = value("--page");
      if (!v || v->empty()) return Usage("--page needs a URL");
      options.page = *v;
    } else if (is("--out")) {
      auto v = value("--out");
      if (!v || v->empty()) return Usage("--out needs a file");
      out_path = *v;
    } else if (!arg.empty() && arg[0] != '-') {
      if (!script_path.empty()) return Usage("only one SCRIPT may be given");
      script_path = arg;
    } else {
      return Usage("unknown flag: " + arg);
    }
  }
  if (script_path.empty()) return Usage("missing SCRIPT");
  std::ifstream in(script_path, std::ios::binary);
  if (!in) {
    std::cerr << "rlab explore: cannot read script \"" << script_path << "\"\n";
    return 2;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const size_t slash = script_path.find_last_of('/');
  options.base_dir = slash == std::string::npos ? "." : script_path.substr(0, slash);

  const auto started = std::chrono::steady_clock::now();
  auto result = explore::Explore(buffer.str(), explore::DefaultInvariants, options);
  const auto elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - started)
                              .count();
  if (!result.ok()) {
    std::cerr << result.status().message() << "\n";
    return 2;
  }
  std::cout << explore::FormatReport(*result, options);
  std::cerr << "rlab explore: " << result->runs << " runs in " << elapsed_ms << " ms (wall)\n";
  if (result->violation.has_value() && !out_path.empty()) {
    std::ofstream out(out_path, std::ios::binary);
    out << result->script;
    if (!out) {
      std::cerr << "rlab explore: cannot write \"" << out_path << "\"\n";
      return 2;
    }
  }
  return result->violation.has_value() ? 1 : 0;
}

}  // namespace cli
