// The race explorer on the lesson-ready example: the stale-cache-create bug makes one Deployment
// under the default schedule and two under the schedule the explorer finds; the pinned script
// replays it; the correct operator survives the same search.

#include "core/explore/explorer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/lab/lab.h"

namespace explore {
namespace {

std::string ReadExample() {
  std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/examples/race_stale_cache.lab");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

struct Played {
  bool ok = false;
  std::string err;
  std::vector<std::string> deployments;  // Deployments labelled for llama
  std::string trace_hash;
  size_t mismatches = 0;
};

Played Play(const std::string& script) {
  lab::Lab session(lab::SimulationOptions{});
  Played played;
  auto outcome = session.RunScript(script, std::string(RLAB_SOURCE_DIR) + "/examples", false,
                                   [&](const lab::ScriptLine&, const lab::CommandResult& r) {
                                     played.err += r.err;
                                   });
  played.ok = outcome.ok;
  for (const api::ObjectPtr& d : session.sim().apiserver().PeekAll("Deployment")) {
    if (api::Labels(*d).count("app.kubernetes.io/instance") != 0 &&
        api::Labels(*d).at("app.kubernetes.io/instance") == "llama") {
      played.deployments.push_back(api::Name(*d));
    }
  }
  played.trace_hash = session.sim().trace().Hash();
  played.mismatches = session.sim().steering().mismatches();
  return played;
}

ExploreOptions Small(int bound) {
  ExploreOptions options;
  options.bound = bound;
  options.max_runs = 300;
  options.base_dir = std::string(RLAB_SOURCE_DIR) + "/examples";
  return options;
}

TEST(ExplorerTest, TheDefaultScheduleMakesOneDeployment) {
  Played played = Play(ReadExample());
  ASSERT_TRUE(played.ok) << played.err;
  EXPECT_EQ(played.deployments.size(), 1u);
}

TEST(ExplorerTest, AnAllDefaultScheduleLeavesTheTraceByteIdentical) {
  const std::string with = ReadExample();
  std::string without;
  std::istringstream in(with);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("schedule", 0) != 0) without += line + "\n";
  }
  ASSERT_NE(with, without);
  EXPECT_EQ(Play(with).trace_hash, Play(without).trace_hash);
}

TEST(ExplorerTest, BoundZeroRunsOnlyTheDefaultScheduleAndFindsNothing) {
  auto result = Explore(ReadExample(), DefaultInvariants, Small(0));
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->runs, 1);
  EXPECT_TRUE(result->exhausted);
  EXPECT_FALSE(result->violation.has_value());
  EXPECT_GT(result->choice_points, 0);
}

TEST(ExplorerTest, FindsTheStaleCacheDuplicateWithOneCacheLag) {
  auto result = Explore(ReadExample(), DefaultInvariants, Small(1));
  ASSERT_TRUE(result.ok()) << result.status().message();
  ASSERT_TRUE(result->violation.has_value()) << FormatReport(*result, Small(1));
  EXPECT_EQ(result->violation->invariant, "one-deployment-per-inferenceservice");
  ASSERT_EQ(result->schedule.size(), 1u);
  ASSERT_EQ(result->deviations.size(), 1u);
  EXPECT_NE(result->deviations[0].find("(lag,"), std::string::npos) << result->deviations[0];
  EXPECT_NE(result->deviations[0].find("Deployment/default/llama"), std::string::npos)
      << result->deviations[0];
  EXPECT_NE(result->url.find("#s="), std::string::npos);

  // The pinned script replays the violation, identically each time.
  Played first = Play(result->script);
  Played second = Play(result->script);
  EXPECT_TRUE(first.ok) << first.err;
  EXPECT_EQ(first.deployments.size(), 2u);
  EXPECT_EQ(first.mismatches, 0u);
  EXPECT_EQ(first.trace_hash, second.trace_hash);
}

TEST(ExplorerTest, TheCorrectOperatorSurvivesTheSameSearch) {
  std::string correct = ReadExample();
  const std::string bug = "operator inference-operator bug stale-cache-create on\n";
  ASSERT_NE(correct.find(bug), std::string::npos);
  correct.erase(correct.find(bug), bug.size());
  ExploreOptions options = Small(1);
  options.max_runs = 60;
  auto result = Explore(correct, DefaultInvariants, options);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_FALSE(result->violation.has_value()) << FormatReport(*result, options);
  EXPECT_GT(result->runs, 20);
}

// --machinery adds core/check's per-step invariants: the steered schedules (late deliveries
// queue behind each other) keep every watch in order and complete, so the first violation is
// still the operator's duplicate, and the correct operator passes the stricter search too.
TEST(ExplorerTest, MachineryInvariantsHoldUnderSteeringAndTheBugIsStillFound) {
  ExploreOptions options = Small(1);
  options.machinery = true;
  auto buggy = Explore(ReadExample(), DefaultInvariants, options);
  ASSERT_TRUE(buggy.ok()) << buggy.status().message();
  ASSERT_TRUE(buggy->violation.has_value()) << FormatReport(*buggy, options);
  EXPECT_EQ(buggy->violation->invariant, "one-deployment-per-inferenceservice");

  std::string correct = ReadExample();
  const std::string bug = "operator inference-operator bug stale-cache-create on\n";
  correct.erase(correct.find(bug), bug.size());
  options.max_runs = 25;
  auto fixed = Explore(correct, DefaultInvariants, options);
  ASSERT_TRUE(fixed.ok()) << fixed.status().message();
  EXPECT_FALSE(fixed->violation.has_value()) << FormatReport(*fixed, options);
  EXPECT_EQ(fixed->runs, 25);
}

TEST(ExplorerTest, BadScenariosAreRefusedWithClearErrors) {
  auto pinned = Explore("schedule 3=1\nrun 1s\n", DefaultInvariants, Small(1));
  ASSERT_FALSE(pinned.ok());
  EXPECT_NE(pinned.status().message().find("must not pin"), std::string::npos);
  auto twice = Explore("schedule\nschedule\n", DefaultInvariants, Small(1));
  ASSERT_FALSE(twice.ok());
  auto failing = Explore("get isvc nope\nschedule\nrun 1s\n", DefaultInvariants, Small(1));
  ASSERT_FALSE(failing.ok());
  EXPECT_NE(failing.status().message().find("before its schedule window"), std::string::npos);
}

TEST(ExplorerTest, PinnedScriptReplacesTheMarkerOrPrependsTheLine) {
  EXPECT_EQ(PinnedScript("echo a\nschedule\necho b\n", {{4, 1}}, base::kMillisecond, {"x"}),
            "# x\necho a\nschedule --lag 1ms 4=1\necho b\n");
  EXPECT_EQ(PinnedScript("echo a\n", {}, 10 * base::kMillisecond, {}),
            "schedule --lag 10ms\necho a\n");
}

TEST(ScheduleCommandTest, ShowListsChoicePointsAndBadInputChangesNothing) {
  lab::Lab session(lab::SimulationOptions{});
  EXPECT_FALSE(session.ExecuteText("schedule x").ok);
  EXPECT_FALSE(session.ExecuteText("schedule 1=1 1=2").ok);
  EXPECT_FALSE(session.ExecuteText("schedule --lag -1s").ok);
  EXPECT_FALSE(session.sim().steering().active());
  ASSERT_TRUE(session.ExecuteText("schedule 0=99").ok);
  ASSERT_TRUE(session.ExecuteText("run 5s").ok);
  lab::CommandResult shown = session.ExecuteText("schedule show");
  ASSERT_TRUE(shown.ok);
  EXPECT_NE(shown.out.find("choice points"), std::string::npos);
  EXPECT_NE(shown.out.find("#0 t="), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("out of range"), std::string::npos) << shown.out;
  ASSERT_TRUE(session.ExecuteText("schedule off").ok);
  EXPECT_FALSE(session.sim().steering().active());
}

}  // namespace
}  // namespace explore
