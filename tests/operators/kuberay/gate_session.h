#pragma once
// GateSession: the whole simulated cluster (API server, kubelets, the kuberay-operator
// Deployment, …) for the KubeRay controllers' lab-level tests: run lab-language text and read
// what it printed. Unlike LabSession (lab_session.h), out and err hold only the last call's
// output.
// No Go counterpart (upstream's envtest suites start a real API server instead).
// Single-threaded; time moves only through the commands run.

#include <string>

#include "core/lab/lab.h"

namespace kuberay::testing {

struct GateSession {
  lab::Lab lab{lab::SimulationOptions{}};
  std::string out, err;

  // Run executes script; false when a command failed or the script did not parse. out and err
  // hold this call's output only.
  bool Run(const std::string& script) {
    out.clear();
    err.clear();
    auto outcome = lab.RunScript(script, ".", false,
                                 [this](const lab::ScriptLine&, const lab::CommandResult& r) {
                                   out += r.out;
                                   err += r.err;
                                 });
    if (!outcome.parsed) err += outcome.parse_error + "\n";
    return outcome.ok;
  }
  // Get returns `get …` output (jsonpath and friends), or the error text.
  std::string Get(const std::string& args) {
    Run("get " + args);
    return out + err;
  }
  // EnableGates sets the operator's feature gates ("Name=true,…") and restarts it, since
  // main.go reads them only at start; returns once the new process is Available.
  bool EnableGates(const std::string& gates) {
    return Run("operator set feature-gates=" + gates + "\noperator restart\nrun 2s\n"
               "wait --for=condition=Available deploy/kuberay-operator --timeout=60s\n");
  }
};

}  // namespace kuberay::testing
