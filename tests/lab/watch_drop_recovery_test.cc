// Every watch in the simulated cluster (core/world/ and core/lab/: kubelets, scheduler,
// kube-controller-manager's shared informers, garbage collector, operator hosts, the Ray
// submitter runtime, the operators' own informers) must relist and watch again after
// `fault watch-drop`, as a client-go reflector does. The audit compares the open watches before
// a drop with those open once the relists are done: the same watchers, kinds and scopes.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <tuple>

#include "tests/lab/testing_session.h"

namespace lab {
namespace {

using WatchScope = std::tuple<std::string, std::string, std::string, std::string, std::string>;

// OpenScopes counts the open watches by (watcher, kind, namespace, label and field selector).
std::map<WatchScope, int> OpenScopes(Simulation& sim) {
  std::map<WatchScope, int> scopes;
  for (const apiserver::SimulationHooks::OpenWatch& w : sim.apiserver().Hooks().OpenWatches()) {
    ++scopes[{w.opts.watcher, w.kind->kind, w.opts.namespace_, w.opts.label_selector,
              w.opts.field_selector}];
  }
  return scopes;
}

std::string Describe(const std::map<WatchScope, int>& scopes) {
  std::string out;
  for (const auto& [scope, n] : scopes) {
    out += std::get<0>(scope) + " " + std::get<1>(scope) + " ns=" + std::get<2>(scope) + " l=" +
           std::get<3>(scope) + " f=" + std::get<4>(scope) + " x" + std::to_string(n) + "\n";
  }
  return out;
}

TEST(WatchDropRecovery, EveryWatchInTheClusterIsOpenAgainAfterADrop) {
  TestSession s;
  ASSERT_TRUE(s.Run("wait --for=condition=Available deploy/kuberay-operator --timeout=60s\n"
                    "wait --for=condition=Available deploy/inference-operator --timeout=60s\n"))
      << s.err;
  const std::map<WatchScope, int> before = OpenScopes(s.lab.sim());
  ASSERT_GT(before.size(), 10u) << Describe(before);
  bool submitter_watch = false;
  for (const auto& [scope, n] : before) submitter_watch |= std::get<0>(scope) == "ray-submitter-runtime";
  ASSERT_TRUE(submitter_watch) << Describe(before);

  ASSERT_TRUE(s.Run("fault watch-drop\nrun 30s\n")) << s.err;
  EXPECT_EQ(Describe(OpenScopes(s.lab.sim())), Describe(before));

  // A second drop, by kind, recovers the same way.
  ASSERT_TRUE(s.Run("fault watch-drop --kind Pod\nrun 30s\n")) << s.err;
  EXPECT_EQ(Describe(OpenScopes(s.lab.sim())), Describe(before));
}

}  // namespace
}  // namespace lab
