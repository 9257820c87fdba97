#pragma once
// GateSession: the whole simulated cluster (API server, kubelets, the kuberay-operator
// Deployment, …) for the KubeRay controllers' lab-level tests: run lab-language text and read
// what it printed. Unlike LabSession (lab_session.h), out and err hold only the last call's
// output.
// No Go counterpart (upstream's envtest suites start a real API server instead).
// Single-threaded; time moves only through the commands run.

#include <string>

#include "core/lab/lab.h"
#include "tests/testing/lab_script.h"

namespace kuberay::testing {

struct GateSession {
  lab::Lab lab{lab::SimulationOptions{}};
  std::string out, err;

  // Run executes script; false when a command failed or the script did not parse. out and err
  // hold this call's output only.
  bool Run(const std::string& script, const std::string& base_dir = ".") {
    out.clear();
    err.clear();
    return labtest::RunLabScript(lab, script, &out, &err, base_dir);
  }
  // Get returns `get …` output (jsonpath and friends), or the error text.
  std::string Get(const std::string& args) {
    Run("get " + args);
    return out + err;
  }
  // Apply applies one YAML document given inline.
  bool Apply(const std::string& yaml) { return Run("apply -f - <<EOF\n" + yaml + "EOF\n"); }
  // WaitReady waits for RayCluster name's status.state to become ready.
  bool WaitReady(const std::string& name, const std::string& timeout = "120s") {
    return Run("wait --for=jsonpath='{.status.state}'=ready raycluster/" + name +
               " --timeout=" + timeout);
  }
  // EnableGates sets the operator's feature gates ("Name=true,…") and restarts it, since
  // main.go reads them only at start; returns once the new process is Available.
  bool EnableGates(const std::string& gates) {
    return Run("operator set feature-gates=" + gates + "\noperator restart\nrun 2s\n"
               "wait --for=condition=Available deploy/kuberay-operator --timeout=60s\n");
  }
};

}  // namespace kuberay::testing
