#include "core/world/workloads/deployment_controller.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/api/pointer.h"
#include "core/world/workloads/deployment_util.h"
#include "tests/world/workloads/world_fixture.h"

namespace world {
namespace {

using api::Json;
using testing::DeploymentJson;
using testing::WorldFixture;

std::string DeployStr(const api::ObjectPtr& obj, const char* ptr) {
  return obj == nullptr ? "" : api::GetString(*obj, ptr);
}
int64_t DeployInt(const api::ObjectPtr& obj, const char* ptr) {
  return obj == nullptr ? -1 : IntAt(*obj, ptr, 0);
}

std::vector<api::ObjectPtr> ReplicaSets(WorldFixture& f) {
  std::vector<api::ObjectPtr> out;
  for (const api::ObjectPtr& rs : f.api.PeekAll("ReplicaSet")) out.push_back(rs);
  return out;
}

// Done is `kubectl rollout status`: observed, updated, available and no old Pods left.
bool RolledOut(WorldFixture& f, const std::string& name) {
  auto d = f.Get("Deployment", name);
  const int64_t replicas = DeployInt(d, "/spec/replicas");
  return d != nullptr && DeployInt(d, "/status/observedGeneration") >= api::Generation(*d) &&
         DeployInt(d, "/status/updatedReplicas") == replicas && DeployInt(d, "/status/replicas") == replicas &&
         DeployInt(d, "/status/availableReplicas") == replicas;
}

TEST(DeploymentController, ThreeReplicasBecomeReadyAfterPullStartAndReadyTime) {
  WorldFixture f;
  f.Create(DeploymentJson("web", 3));
  const base::SimTime created = f.clock.Now();
  ASSERT_TRUE(f.RunUntil([&] { return f.ReadyPods({{"app", "web"}}) == 3; }, 30 * base::kSecond));
  const base::Duration elapsed = f.clock.Now() - created;
  EXPECT_GE(elapsed, 5 * base::kSecond);  // pull 2s + start 1s + ready 2s, plus reaction delays
  EXPECT_LT(elapsed, 5 * base::kSecond + 200 * base::kMillisecond);

  auto rss = ReplicaSets(f);
  ASSERT_EQ(rss.size(), 1u);
  const std::string hash = api::Labels(*rss[0]).at(kPodTemplateHashLabel);
  EXPECT_FALSE(hash.empty());
  EXPECT_LE(hash.size(), 10u);
  EXPECT_EQ(api::Name(*rss[0]), "web-" + hash);
  EXPECT_EQ(api::Annotations(*rss[0]).at(kRevisionAnnotation), "1");
  EXPECT_TRUE(IsControlledBy(*rss[0], *f.Get("Deployment", "web")));
  for (const api::ObjectPtr& pod : f.Pods({{"app", "web"}})) {
    EXPECT_EQ(api::Labels(*pod).at(kPodTemplateHashLabel), hash);
    EXPECT_EQ(api::GenerateName(*pod), "web-" + hash + "-");
  }

  ASSERT_TRUE(f.RunUntil([&] { return RolledOut(f, "web"); }, 5 * base::kSecond));
  f.Run(base::kSecond);
  auto d = f.Get("Deployment", "web");
  EXPECT_EQ(DeployInt(d, "/status/readyReplicas"), 3);
  EXPECT_EQ(DeployInt(d, "/status/unavailableReplicas"), 0);
  EXPECT_EQ(api::Annotations(*d).at(kRevisionAnnotation), "1");
  EXPECT_TRUE(ConditionIs(*d, "Available", "True"));
  const Json* progressing = FindCondition(*d, "Progressing");
  ASSERT_NE(progressing, nullptr);
  EXPECT_EQ((*progressing)["reason"], "NewReplicaSetAvailable");
  EXPECT_EQ((*progressing)["message"],
            "ReplicaSet \"web-" + hash + "\" has successfully progressed.");
  auto rs = f.Get("ReplicaSet", "web-" + hash);
  EXPECT_EQ(DeployInt(rs, "/status/readyReplicas"), 3);
  EXPECT_EQ(DeployInt(rs, "/status/availableReplicas"), 3);
  EXPECT_EQ(DeployInt(rs, "/status/observedGeneration"), api::Generation(*rs));
}

TEST(DeploymentController, ScalesThreeToFiveToTwo) {
  WorldFixture f;
  f.Create(DeploymentJson("web", 3));
  ASSERT_TRUE(f.RunUntil([&] { return RolledOut(f, "web"); }, 30 * base::kSecond));
  for (int64_t replicas : {5, 2}) {
    SCOPED_TRACE(replicas);
    ASSERT_TRUE(f.admin
                    .Patch("Deployment", "default", "web", client::PatchType::kJsonMerge,
                           Json{{"spec", {{"replicas", replicas}}}})
                    .ok());
    ASSERT_TRUE(f.RunUntil(
        [&] {
          return RolledOut(f, "web") && f.Pods({{"app", "web"}}).size() == size_t(replicas);
        },
        30 * base::kSecond));
    EXPECT_EQ(f.ReadyPods({{"app", "web"}}), replicas);
    EXPECT_EQ(ReplicaSets(f).size(), 1u);  // scaling keeps the ReplicaSet
    EXPECT_EQ(DeployInt(ReplicaSets(f)[0], "/spec/replicas"), replicas);
  }
}

struct RollingCase {
  int replicas;
  Json max_surge;
  Json max_unavailable;
  int64_t surge;        // resolved: rounded up
  int64_t unavailable;  // resolved: rounded down
};

TEST(DeploymentController, RollingUpdateStaysWithinMaxSurgeAndMaxUnavailable) {
  const std::vector<RollingCase> cases = {
      {4, 1, 1, 1, 1},  {3, "25%", "25%", 1, 0},  // the defaults: surge rounds up to 1, unavailable
                                                  // down to 0
      {10, 3, 2, 3, 2}, {5, 0, 2, 0, 2},         {4, "50%", 0, 2, 0},
  };
  for (const RollingCase& c : cases) {
    SCOPED_TRACE(std::to_string(c.replicas) + " surge " + c.max_surge.dump() + " unavailable " +
                 c.max_unavailable.dump());
    WorldFixture f;
    Json d = DeploymentJson("web", c.replicas);
    d["spec"]["strategy"] = {
        {"type", "RollingUpdate"},
        {"rollingUpdate", {{"maxSurge", c.max_surge}, {"maxUnavailable", c.max_unavailable}}}};
    f.Create(d);
    ASSERT_TRUE(f.RunUntil([&] { return RolledOut(f, "web"); }, 30 * base::kSecond));
    const std::string old_rs = api::Name(*ReplicaSets(f)[0]);

    ASSERT_TRUE(
        f.admin
            .Patch("Deployment", "default", "web", client::PatchType::kJsonMerge,
                   Json{{"spec",
                         {{"template",
                           {{"spec",
                             {{"containers", Json::array({Json{{"name", "web"},
                                                               {"image", "nginx:1.28"}}})}}}}}}}})
            .ok());
    int64_t max_spec_total = 0;
    int min_ready = c.replicas;
    auto check = [&] {
      int64_t total = 0;
      for (const api::ObjectPtr& rs : ReplicaSets(f)) total += DeployInt(rs, "/spec/replicas");
      max_spec_total = std::max(max_spec_total, total);
      min_ready = std::min(min_ready, f.ReadyPods({{"app", "web"}}));
    };
    ASSERT_TRUE(f.RunUntil(
        [&] {
          auto rs = f.Get("ReplicaSet", old_rs);
          return RolledOut(f, "web") && DeployInt(rs, "/spec/replicas") == 0 &&
                 f.Pods({{"app", "web"}}).size() == size_t(c.replicas);
        },
        5 * base::kMinute, check));
    EXPECT_EQ(max_spec_total, c.replicas + c.surge);   // the surge is used, never exceeded
    EXPECT_EQ(min_ready, c.replicas - c.unavailable);  // never below replicas - maxUnavailable
    for (const api::ObjectPtr& pod : f.Pods({{"app", "web"}})) {
      EXPECT_EQ(DeployStr(pod, "/spec/containers/0/image"), "nginx:1.28");
    }
    EXPECT_EQ(ReplicaSets(f).size(), 2u);
    EXPECT_EQ(api::Annotations(*f.Get("Deployment", "web")).at(kRevisionAnnotation), "2");
    const Json* progressing = FindCondition(*f.Get("Deployment", "web"), "Progressing");
    ASSERT_NE(progressing, nullptr);
    EXPECT_EQ((*progressing)["reason"], "NewReplicaSetAvailable");
  }
}

TEST(DeploymentController, RollingBackToAnOldTemplateReusesItsReplicaSet) {
  WorldFixture f;
  f.Create(DeploymentJson("web", 2));
  ASSERT_TRUE(f.RunUntil([&] { return RolledOut(f, "web"); }, 30 * base::kSecond));
  auto image = [&](const std::string& tag) {
    ASSERT_TRUE(f.admin
                    .Patch("Deployment", "default", "web", client::PatchType::kJsonMerge,
                           Json{{"spec",
                                 {{"template",
                                   {{"spec",
                                     {{"containers",
                                       Json::array({Json{{"name", "web"}, {"image", tag}}})}}}}}}}})
                    .ok());
    f.Run(10 * base::kMillisecond);
    ASSERT_TRUE(f.RunUntil(
        [&] {
          return RolledOut(f, "web") && f.Pods({{"app", "web"}}).size() == 2;
        },
        base::kMinute));
  };
  image("nginx:1.28");
  image("nginx:1.27");
  EXPECT_EQ(ReplicaSets(f).size(), 2u);
  EXPECT_EQ(api::Annotations(*f.Get("Deployment", "web")).at(kRevisionAnnotation), "3");
}

TEST(DeploymentController, RecreateRemovesOldPodsBeforeCreatingNewOnes) {
  WorldFixture f;
  Json d = DeploymentJson("web", 2);
  d["spec"]["strategy"] = {{"type", "Recreate"}};
  f.Create(d);
  ASSERT_TRUE(f.RunUntil([&] { return RolledOut(f, "web"); }, 30 * base::kSecond));
  ASSERT_TRUE(
      f.admin
          .Patch("Deployment", "default", "web", client::PatchType::kJsonMerge,
                 Json{{"spec",
                       {{"template", {{"metadata", {{"labels", {{"app", "web"}, {"v", "2"}}}}}}}}}})
          .ok());
  bool overlap = false;
  auto check = [&] {
    bool old_pods = false, new_pods = false;
    for (const api::ObjectPtr& pod : f.Pods({{"app", "web"}}))
      (api::Labels(*pod).count("v") ? new_pods : old_pods) = true;
    overlap = overlap || (old_pods && new_pods);
  };
  ASSERT_TRUE(f.RunUntil(
      [&] {
        return RolledOut(f, "web") && f.Pods({{"app", "web"}, {"v", "2"}}).size() == 2 &&
               f.Pods({{"app", "web"}}).size() == 2;
      },
      base::kMinute, check));
  EXPECT_FALSE(overlap);
}

TEST(DeploymentController, SameScenarioGivesTheSameTrace) {
  std::string hashes[2];
  for (std::string& hash : hashes) {
    WorldFixture f;
    f.Create(DeploymentJson("web", 3));
    f.Run(10 * base::kSecond);
    ASSERT_TRUE(f.admin
                    .Patch("Deployment", "default", "web", client::PatchType::kJsonMerge,
                           Json{{"spec", {{"replicas", 5}}}})
                    .ok());
    f.Run(10 * base::kSecond);
    hash = f.trace.Hash();
  }
  EXPECT_EQ(hashes[0], hashes[1]);
}

}  // namespace
}  // namespace world
