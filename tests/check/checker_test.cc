// The checker on real runs: silent on a correct run, identical traces with and without it, and
// the sweep's scenarios are reproducible.

#include <string>

#include <gtest/gtest.h>

#include "core/check/checker.h"
#include "core/check/scenario.h"
#include "core/check/sweep.h"
#include "core/lab/lab.h"

namespace check {
namespace {

constexpr const char* kScript = R"(apply -f - <<EOF
apiVersion: ray.io/v1
kind: RayCluster
metadata:
  name: hello
spec:
  rayVersion: "2.52.0"
  headGroupSpec:
    rayStartParams: {}
    template:
      spec:
        containers:
        - name: ray-head
          image: rayproject/ray:2.52.0
  workerGroupSpecs:
  - groupName: cpu
    replicas: 2
    minReplicas: 1
    maxReplicas: 4
    rayStartParams: {}
    template:
      spec:
        containers:
        - name: ray-worker
          image: rayproject/ray:2.52.0
EOF
run 20s
patch raycluster hello --type json -p '[{"op":"replace","path":"/spec/workerGroupSpecs/0/replicas","value":3}]'
fault watch-drop --kind Pod
run 5s
operator restart
fault api --verb update --kind RayCluster --code 409 --times 3
run 60s
)";

TEST(Checker, SilentOnACorrectRunAndChecksEveryStep) {
  lab::Lab session(lab::SimulationOptions{});
  Checker checker;
  checker.Attach(session);
  auto outcome = session.RunScript(kScript, ".", false, nullptr);
  ASSERT_TRUE(outcome.ok);
  checker.CheckQuiet();
  for (const Violation& v : checker.violations()) ADD_FAILURE() << v.ToString();
  EXPECT_GT(checker.steps_checked(), 400u);
  // The recorder saw the watches opened before it attached and those opened by the restart.
  size_t checked_deliveries = 0;
  for (const auto& [id, log] : checker.recorder().watches()) checked_deliveries += log.delivered.size();
  EXPECT_GT(checked_deliveries, 100u);
}

TEST(Checker, DoesNotChangeTheSimulation) {
  lab::Lab plain(lab::SimulationOptions{});
  ASSERT_TRUE(plain.RunScript(kScript, ".", false, nullptr).ok);
  lab::Lab checked(lab::SimulationOptions{});
  Checker checker;
  checker.Attach(checked);
  ASSERT_TRUE(checked.RunScript(kScript, ".", false, nullptr).ok);
  checker.CheckQuiet();
  EXPECT_EQ(plain.sim().trace().Hash(), checked.sim().trace().Hash());
  EXPECT_EQ(plain.sim().scheduler().executed(), checked.sim().scheduler().executed());
}

TEST(Checker, QuietCheckFiresWhenTheWorldHasNotSettled) {
  // Right after the apply nothing has been reconciled: the RayCluster has no Pods and no status.
  lab::Lab session(lab::SimulationOptions{});
  Checker checker;
  checker.Attach(session);
  std::string script = kScript;
  script = script.substr(0, script.find("run 20s"));
  ASSERT_TRUE(session.RunScript(script, ".", false, nullptr).ok);
  EXPECT_TRUE(checker.ok());
  const auto found = checker.CheckQuiet();
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0].invariant, "raycluster-pods");
}

TEST(Checker, DetachStopsChecking) {
  lab::Lab session(lab::SimulationOptions{});
  Checker checker;
  checker.Attach(session);
  session.ExecuteText("run 1s");
  const uint64_t checked = checker.steps_checked();
  EXPECT_GT(checked, 0u);
  checker.Detach();
  session.ExecuteText("run 5s");
  EXPECT_EQ(checker.steps_checked(), checked);
}

TEST(Scenario, SameSeedSameScriptAndDifferentSeedsDiffer) {
  ScenarioOptions options;
  options.actions = 3;
  const SeedResult a = RunSeed(7, options);
  const SeedResult b = RunSeed(7, options);
  const SeedResult c = RunSeed(8, options);
  EXPECT_EQ(a.script, b.script);
  EXPECT_EQ(a.trace_hash, b.trace_hash);
  EXPECT_NE(a.script, c.script);
  for (const Violation& v : a.violations) ADD_FAILURE() << v.ToString();
}

TEST(Scenario, ASeedsScriptReplaysTheSameRun) {
  ScenarioOptions options;
  options.actions = 4;
  const SeedResult run = RunSeed(3, options);
  const SeedResult replay = CheckScript(run.script, ".");
  EXPECT_EQ(run.trace_hash, replay.trace_hash);
  EXPECT_EQ(run.steps, replay.steps);
  EXPECT_EQ(run.violations.size(), replay.violations.size());
}

}  // namespace
}  // namespace check
