// In a Simulation, kube-controller-manager (its four workload controllers and the garbage
// collector) opens one watch per kind, as its shared informer factory does upstream, while the
// components that are separate processes (kube-scheduler, each kubelet, each operator) keep
// their own.
// No Go counterpart (cmd/kube-controller-manager/app/controllermanager.go builds the factory).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/lab/simulation.h"
#include "core/world/workloads/informer_factory.h"

namespace lab {
namespace {

TEST(ControllerManagerWatches, OneWatchPerKindForTheWholeProcess) {
  Simulation sim(SimulationOptions{});
  std::map<std::string, int> pod_watchers;
  std::map<std::string, int> kcm_by_kind;
  for (const auto& open : sim.apiserver().Hooks().OpenWatches()) {
    if (open.kind->kind == "Pod") ++pod_watchers[open.opts.watcher];
    if (open.opts.watcher == world::kControllerManagerWatcher) ++kcm_by_kind[open.kind->kind];
  }
  EXPECT_EQ(pod_watchers.count("garbage-collector"), 0u);
  EXPECT_EQ(pod_watchers.count("replicaset-controller"), 0u);
  EXPECT_EQ(pod_watchers[world::kControllerManagerWatcher], 1);
  EXPECT_EQ(pod_watchers["kube-scheduler"], 1) << "a separate process, with its own watch";
  for (const auto& [kind, count] : kcm_by_kind) EXPECT_EQ(count, 1) << kind;
  EXPECT_EQ(kcm_by_kind.count("Event"), 0u) << "the collector keeps no monitor for Events";
  EXPECT_GT(kcm_by_kind.size(), 10u) << "the collector's monitors cover every other kind";
}

}  // namespace
}  // namespace lab
