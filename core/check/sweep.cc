#include "core/check/sweep.h"

#include "core/check/checker.h"
#include "core/lab/lab.h"

namespace check {

namespace {

void Finish(lab::Lab& session, Checker& checker, SeedResult* result) {
  checker.CheckQuiet();
  result->violations = checker.violations();
  result->steps = session.sim().scheduler().executed();
  result->steps_checked = checker.steps_checked();
  result->trace_hash = session.sim().trace().Hash();
}

}  // namespace

SeedResult RunSeed(uint64_t seed, const ScenarioOptions& options) {
  SeedResult result;
  result.seed = seed;
  lab::Lab session(lab::SimulationOptions{});
  Checker checker;
  checker.Attach(session);
  ScenarioGenerator generator(seed, options);
  auto play = [&](const std::string& text) {
    session.RunScript(text, ".", /*keep_going=*/true, nullptr);
  };
  play(generator.Setup());
  while (checker.ok()) {
    const std::string action = generator.NextAction(session.sim());
    if (action.empty()) break;
    play(action);
  }
  if (checker.ok()) play(generator.Quiet());
  Finish(session, checker, &result);
  result.script = "# rlab sweep seed " + std::to_string(seed) +
                  ": replay with `rlab check FILE` (invariants) or `rlab --keep-going FILE`\n" +
                  session.ReplayScript();
  return result;
}

SeedResult CheckScript(const std::string& text, const std::string& base_dir) {
  SeedResult result;
  lab::Lab session(lab::SimulationOptions{});
  Checker checker;
  checker.Attach(session);
  session.RunScript(text, base_dir, /*keep_going=*/true, nullptr);
  Finish(session, checker, &result);
  result.script = text;
  return result;
}

std::string FailureReport(const SeedResult& result, const std::string& script_path) {
  std::string out = "seed " + std::to_string(result.seed) + ": " +
                    std::to_string(result.violations.size()) + " violation(s) after " +
                    std::to_string(result.steps) + " steps\n";
  for (const Violation& v : result.violations) out += "  " + v.ToString() + "\n";
  if (!script_path.empty()) out += "replay: rlab check " + script_path + "\n";
  out += "--- script ---\n" + result.script + "--- end of script ---\n";
  return out;
}

}  // namespace check
