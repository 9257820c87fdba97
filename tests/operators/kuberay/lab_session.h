#pragma once
// LabSession: one whole simulated cluster (lab::Lab) driven by lab scripts, for the tests that
// apply KubeRay's samples and follow them to convergence. Output and errors accumulate.
// No Go counterpart (upstream's e2e tests drive a kind cluster with client-go and gomega).
// Single-threaded.

#include <string>

#include "core/lab/lab.h"
#include "tests/testing/lab_script.h"

namespace kuberay::testing {

struct LabSession {
  lab::Lab lab{lab::SimulationOptions{}};
  std::string out, err;

  // Run runs script (relative -f paths from base_dir); false when a command failed.
  bool Run(const std::string& script, const std::string& base_dir = ".") {
    return labtest::RunLabScript(lab, script, &out, &err, base_dir);
  }
  // Get returns the output of `get ARGS` (errors go to err).
  std::string Get(const std::string& args) {
    lab::CommandResult r = lab.ExecuteText("get " + args);
    err += r.err;
    return r.out;
  }
  // Exists reports whether `get KIND NAME` finds the object (NotFound is not recorded in err).
  bool Exists(const std::string& kind, const std::string& name) {
    return lab.ExecuteText("get " + kind + " " + name + " -o name").ok;
  }
  // Lines counts the lines of text.
  static int Lines(const std::string& text) { return labtest::CountLines(text); }
};

}  // namespace kuberay::testing
