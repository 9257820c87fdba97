// Reconciles per second with 1,000 InferenceServices: the whole simulation (API server, world,
// the operator's informers, queue and reconciler) from apply to every InferenceService ready.
// items_per_second counts reconciles of the inferenceservice controller per wall-clock second.
// Figures for docs/performance.md; no assertions.

#include <string>

#include <benchmark/benchmark.h>

#include "core/lab/lab.h"

namespace {

std::string Manifests(int n) {
  std::string yaml;
  for (int i = 0; i < n; ++i) {
    yaml += "---\napiVersion: inference.io/v1\nkind: InferenceService\nmetadata:\n  name: model-" +
            std::to_string(i) + "\nspec:\n  replicas: 1\n  image: vllm:0.6.3\n";
  }
  return yaml;
}

void BM_ThousandInferenceServices(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string script =
      "wait --for=condition=Available deploy/inference-operator --timeout=30s\n"
      "apply -f - <<EOF\n" + Manifests(n) + "EOF\nrun 120s\n";
  int64_t reconciles = 0;
  int64_t ready = 0;
  for (auto _ : state) {
    lab::SimulationOptions options;
    options.world.nodes.count = 10;  // room for 1,000 Pods (110 per node)
    lab::Lab lab{options};
    auto outcome = lab.RunScript(script, ".", false, nullptr);
    if (!outcome.ok) state.SkipWithError("the scenario failed");
    for (const auto& e : lab.sim().trace().events()) {
      if (e.type == "reconcile.start" && e.FieldString("controller") == "inferenceservice") {
        ++reconciles;
      }
    }
    lab::CommandResult r = lab.ExecuteText(
        "get isvc -o jsonpath={.items[?(@.status.ready==true)].metadata.name}");
    ready = 0;
    for (size_t i = 0; i < r.out.size(); ++i) ready += r.out[i] == ' ' ? 1 : 0;
    ready += r.out.empty() ? 0 : 1;
  }
  state.SetItemsProcessed(reconciles);
  state.counters["ready"] = static_cast<double>(ready);
  state.counters["reconciles_per_run"] =
      static_cast<double>(reconciles) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_ThousandInferenceServices)->Arg(1000)->Arg(200)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
