// rlab: runs a lab script and prints each command's output, kubectl-style.
// Usage: rlab [--seed N] [--keep-going] [--trace FILE] SCRIPT|-
//        rlab export DIR [--seed N] [--keep-going] [--trace FILE] SCRIPT|-
//        rlab bench SCENARIO [N] [--seed N]   (cli/bench.h)
//        rlab sweep [--seeds N] [--from S] [--steps M] [--out DIR], rlab check SCRIPT (cli/sweep.h)
//        rlab explore SCRIPT [--bound K] [--max-runs N] …   the race explorer (cli/explore.h)
//        rlab lesson check [-v] [--seed N] [--mutate] DIR, rlab lesson fairness DIR (cli/lesson.h)
//        rlab js-sweep   the JavaScript engine's differential sweep (cli/js_sweep.h)
// Exit status: 0 all commands succeeded, 1 a command failed, 2 bad usage or unreadable script

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "cli/args.h"
#include "cli/bench.h"
#include "cli/explore.h"
#include "cli/js_sweep.h"
#include "cli/lesson.h"
#include "cli/sweep.h"
#include "core/lab/lab.h"
#include "core/learner/install.h"

namespace {

constexpr const char* kUsage =
    "usage: rlab [--seed N] [--keep-going] [--trace FILE] SCRIPT|-\n"
    "       rlab export DIR [--seed N] [--keep-going] [--trace FILE] SCRIPT|-\n"
    "       rlab lesson check [-v] [--seed N] [--mutate] DIR, rlab lesson fairness DIR\n"
    "       runs a lab script; prints command output on stdout, errors on stderr,\n"
    "       and the seed and trace hash on stderr at the end.\n"
    "       `export DIR` then writes the objects the script created as clean manifests\n"
    "       for a real cluster, plus DIR/README.md (kind + Helm + kubectl apply -f DIR).\n"
    "       rlab bench SCENARIO [N] [--seed N]: a scale scenario's figures as JSON (--help).\n"
    "       rlab sweep [--seeds N] [--from S] [--steps M] [--out DIR]: random scenarios with\n"
    "       the invariant checker (--help); rlab check SCRIPT|-: one script, checked.\n"
    "       rlab explore SCRIPT [--bound K] [--max-runs N]: the race explorer (--help).\n"
    "       rlab js-sweep: the JavaScript engine's differential sweep (scripts/determinism.sh).\n";

int Usage(const std::string& message) {
  if (!message.empty()) std::cerr << "rlab: " << message << "\n";
  std::cerr << kUsage;
  return 2;
}

std::string DirName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace

int main(int argc, char** argv) {
  // Every Lab this process builds (scripts, lessons, the explorer) can load learners' modules.
  lab::SetDefaultModuleOperatorLoader(learner::LoadModuleOperator);
  if (argc >= 2 && std::string(argv[1]) == "lesson") return cli::RunLesson(argc - 2, argv + 2);
  if (argc >= 2 && std::string(argv[1]) == "bench") return cli::RunBench(argc - 2, argv + 2);
  if (argc >= 2 && std::string(argv[1]) == "sweep") return cli::RunSweep(argc - 2, argv + 2);
  if (argc >= 2 && std::string(argv[1]) == "check") return cli::RunCheck(argc - 2, argv + 2);
  if (argc >= 2 && std::string(argv[1]) == "explore") return cli::RunExplore(argc - 2, argv + 2);
  if (argc >= 2 && std::string(argv[1]) == "js-sweep") return cli::RunJsSweep(argc - 2, argv + 2);
  uint64_t seed = 1;
  bool keep_going = false;
  std::string trace_path, script_path, export_dir;
  int first = 1;
  if (argc > 1 && std::string(argv[1]) == "export") {
    if (argc < 3 || argv[2][0] == '\0' || argv[2][0] == '-') {
      return Usage("export needs a directory: rlab export DIR SCRIPT");
    }
    export_dir = argv[2];
    first = 3;
  }
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const std::string& flag) -> std::optional<std::string> {
      if (arg == flag) {
        if (i + 1 >= argc) return std::nullopt;
        return std::string(argv[++i]);
      }
      if (arg.rfind(flag + "=", 0) == 0) return arg.substr(flag.size() + 1);
      return std::nullopt;
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--keep-going") {
      keep_going = true;
    } else if (arg == "--seed" || arg.rfind("--seed=", 0) == 0) {
      auto v = value("--seed");
      if (!v) return Usage("--seed needs a value");
      const std::optional<uint64_t> parsed = cli::ParseCount(*v);
      if (!parsed) return Usage("--seed must be a non-negative integer");
      seed = *parsed;
    } else if (arg == "--trace" || arg.rfind("--trace=", 0) == 0) {
      auto v = value("--trace");
      if (!v) return Usage("--trace needs a file");
      trace_path = *v;
    } else if (arg == "-" || arg.empty() || arg[0] != '-') {
      if (!script_path.empty()) return Usage("only one SCRIPT may be given");
      script_path = arg;
    } else {
      return Usage("unknown flag: " + arg);
    }
  }
  if (script_path.empty()) return Usage("missing SCRIPT");

  std::string text, base_dir;
  if (script_path == "-") {
    std::ostringstream buffer;
    buffer << std::cin.rdbuf();
    text = buffer.str();
    base_dir = ".";
  } else {
    std::ifstream in(script_path, std::ios::binary);
    if (!in) {
      std::cerr << "rlab: cannot read script \"" << script_path << "\"\n";
      return 2;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
    base_dir = DirName(script_path);
  }

  lab::SimulationOptions options;
  options.seed = seed;
  lab::Lab session(options);
  std::cerr << "rlab: seed " << seed << "\n";
  auto outcome = session.RunScript(text, base_dir, keep_going,
                                   [](const lab::ScriptLine&, const lab::CommandResult& r) {
                                     std::cout << r.out << std::flush;
                                     std::cerr << r.err << std::flush;
                                   });
  if (!outcome.parsed) {
    std::cerr << outcome.parse_error << "\n";
    return 2;
  }
  if ((outcome.ok || keep_going) && !export_dir.empty()) {
    // Runs as the script's last command (after a failure only with --keep-going), so its errors
    // fail the run; DIR is relative to the working directory, as typed.
    lab::ScriptLine line;
    line.argv = {"export", export_dir};
    const lab::CommandResult exported = session.Execute(line, "");
    std::cout << exported.out << std::flush;
    std::cerr << exported.err << std::flush;
    outcome.ok = outcome.ok && exported.ok;
  }
  if (!trace_path.empty()) {
    std::ofstream out(trace_path, std::ios::binary);
    for (const auto& e : session.sim().trace().events()) out << e.ToJsonLine() << "\n";
    if (!out) {
      std::cerr << "rlab: cannot write trace to \"" << trace_path << "\"\n";
      return 2;
    }
  }
  std::cerr << "rlab: seed " << seed << " trace " << session.sim().trace().Hash() << " ("
            << session.sim().trace().events().size() << " events, virtual time "
            << base::FormatDuration(session.sim().clock().Now()) << ")\n";
  if (!outcome.ok) std::cerr << "rlab: a command failed; replay with --seed=" << seed << "\n";
  return outcome.ok ? 0 : 1;
}
