// fuzz_module: a learner's JavaScript module, malformed or hostile (syntax garbage, deep
// recursion, huge allocations, infinite loops, throwing getters, odd declarations), checked by
// the loader, then called as the host calls it (reconcile, a predicate, a map function), and,
// when it loads, installed as an operator (`operator load`) in a fresh Lab and reconciled.
// Invariants:
//  - no crash, hang (libFuzzer -timeout) or sanitizer report: every call ends within the realm's
//    step and memory budgets, whatever the module does;
//  - a refused module says why, and its message names the module's file;
//  - the loader is deterministic: loading the same text twice gives the same answer;
//  - after the operator ran, the sandbox still answers (`get pods` succeeds).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/lab/lab.h"
#include "core/lab/script.h"
#include "core/learner/install.h"
#include "core/learner/module_realm.h"
#include "core/learner/prelude.h"
#include "fuzz/fuzz_check.h"

namespace {

constexpr uint64_t kFuzzBudgetEvents = 3'000;

lab::CommandResult Run(lab::Lab& lab, std::vector<std::string> argv,
                       std::optional<std::string> heredoc = std::nullopt) {
  lab::ScriptLine line;
  line.argv = std::move(argv);
  line.heredoc = std::move(heredoc);
  for (const std::string& w : line.argv) line.text += (line.text.empty() ? "" : " ") + w;
  return lab.Execute(line, "");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // A runaway reconcile is retried many times in a run; under the sanitizers the default budgets
  // (2,000,000 steps, 200,000 memory units a call) would take seconds per input. The stops are
  // the same code at any size.
  js::Limits limits = learner::ModuleLimits();
  limits.steps = 50'000;
  limits.memory_units = 5'000;
  learner::SetModuleLimits(limits);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8 * 1024) return 0;  // a module the editor sends is small
  lab::ModuleSource module;
  module.name = "fz";
  module.filename = "fz.js";
  module.source.assign(reinterpret_cast<const char*>(data), size);

  auto loaded = learner::ModuleRealm::Load(module, 1, nullptr);
  auto again = learner::ModuleRealm::Load(module, 1, nullptr);
  FUZZ_CHECK(loaded.ok() == again.ok(), "the loader is not deterministic");
  if (!loaded.ok()) {
    FUZZ_CHECK(loaded.status().message() == again.status().message(),
               loaded.status().message() + " vs " + again.status().message());
    FUZZ_CHECK(!loaded.status().message().empty(), "a refused module without a message");
    return 0;
  }
  learner::ModuleRealm& realm = **loaded;
  const std::string object =
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"in","namespace":"default"}})";
  (void)realm.Call(learner::kReconcile, R"([{"namespace":"default","name":"in"}])");
  (void)realm.Call(learner::kPredicate,
                   "[\"for\",0,0,{\"type\":\"create\",\"object\":" + object + "}]");
  (void)realm.Call(learner::kMap, "[0," + object + "]");

  lab::SimulationOptions options;
  options.budget.events = kFuzzBudgetEvents;
  lab::Lab lab{options};
  learner::InstallModuleOperators(lab);
  lab::CommandResult r = Run(lab, {"operator", "load", "fz", "-"}, module.source);
  if (!r.ok) {
    FUZZ_CHECK(!r.err.empty(), "a failing load without a message");
    return 0;
  }
  (void)Run(lab, {"create", "configmap", "in", "--from-literal=a=b"});
  (void)Run(lab, {"run", "20s"});
  (void)Run(lab, {"operator", "reload", "fz"}, module.source);
  (void)Run(lab, {"run", "5s"});
  lab::CommandResult pods = Run(lab, {"get", "pods"});
  FUZZ_CHECK(pods.ok, "the sandbox stopped answering: " + pods.err);
  return 0;
}
