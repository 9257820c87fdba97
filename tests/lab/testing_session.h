#pragma once
// A lab session for tests: run lab-language text, collect what it printed, read the trace.

#include <string>
#include <vector>

#include "core/lab/lab.h"
#include "tests/testing/lab_script.h"

namespace lab {

struct TestSession {
  TestSession() = default;
  explicit TestSession(const SimulationOptions& options) : lab{options} {}

  Lab lab{SimulationOptions{}};
  std::string out, err;

  // Run executes script; false when a command failed or the script did not parse.
  bool Run(const std::string& script, bool keep_going = false) {
    return labtest::RunLabScript(lab, script, &out, &err, ".", keep_going);
  }

  // Output runs one command and returns only what it printed on stdout.
  std::string Output(const std::string& command) {
    CommandResult r = lab.ExecuteText(command);
    err += r.err;
    return r.out;
  }

  // Records returns the trace records of type after seq `since` whose fields all match.
  std::vector<sim::TraceEvent> Records(
      const std::string& type, const std::vector<std::pair<std::string, std::string>>& match = {},
      int64_t since = 0) {
    std::vector<sim::TraceEvent> found;
    for (const auto& e : lab.sim().trace().events()) {
      if (e.seq <= since || e.type != type) continue;
      bool all = true;
      for (const auto& [k, v] : match) all = all && e.FieldString(k) == v;
      if (all) found.push_back(e);
    }
    return found;
  }
  int64_t LastSeq() { return lab.sim().trace().last_seq(); }
  // Now is the virtual time.
  base::SimTime Now() { return lab.sim().clock().Now(); }
  // Writes counts every write the API server stored so far (to show an error changed nothing).
  uint64_t Writes() { return lab.sim().apiserver().writes(); }
  // Fails runs one command that must fail; it returns what it printed on stderr.
  std::string Fails(const std::string& command) {
    CommandResult r = lab.ExecuteText(command);
    if (r.ok) return "(unexpectedly succeeded: " + r.out + ")";
    return r.err;
  }
};

// kOperatorUp waits until the inference operator's Deployment is Available (its process runs).
inline constexpr const char* kInferenceOperatorUp =
    "wait --for=condition=Available deploy/inference-operator --timeout=60s\n";

inline std::string InferenceServiceManifest(const std::string& name, int replicas,
                                            const std::string& image) {
  return "apply -f - <<EOF\napiVersion: inference.io/v1\nkind: InferenceService\nmetadata:\n"
         "  name: " + name + "\nspec:\n  replicas: " + std::to_string(replicas) +
         "\n  image: " + image + "\nEOF\n";
}

}  // namespace lab
