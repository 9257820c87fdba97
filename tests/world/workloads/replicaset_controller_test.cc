#include "core/world/workloads/replicaset_controller.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/world/workloads/world_fixture.h"

namespace world {
namespace {

using api::Json;
using testing::WorldFixture;

Json ReplicaSetJson(const std::string& name, int replicas) {
  return Json{
      {"apiVersion", "apps/v1"},
      {"kind", "ReplicaSet"},
      {"metadata", {{"name", name}, {"namespace", "default"}}},
      {"spec",
       {{"replicas", replicas},
        {"selector", {{"matchLabels", {{"app", name}}}}},
        {"template",
         {{"metadata",
           {{"labels", {{"app", name}, {"tier", "web"}}}, {"annotations", {{"note", "x"}}}}},
          {"spec",
           {{"containers", Json::array({Json{{"name", "c"}, {"image", "nginx:1.27"}}})}}}}}}}};
}

int64_t Status(WorldFixture& f, const std::string& name, const char* field) {
  auto rs = f.Get("ReplicaSet", name);
  return rs == nullptr ? -1 : IntAt(*rs, std::string("/status/") + field, 0);
}

TEST(ReplicaSetController, CreatesOwnedPodsFromTheTemplate) {
  WorldFixture f;
  auto rs = f.Create(ReplicaSetJson("front", 2));
  f.Run(20 * base::kMillisecond);
  auto pods = f.Pods({{"app", "front"}});
  ASSERT_EQ(pods.size(), 2u);
  for (const api::ObjectPtr& pod : pods) {
    EXPECT_EQ(api::GenerateName(*pod), "front-");
    EXPECT_EQ(api::Labels(*pod).at("tier"), "web");
    EXPECT_EQ(api::Annotations(*pod).at("note"), "x");
    auto ref = api::GetControllerOf(*pod);
    ASSERT_TRUE(ref.has_value());
    EXPECT_EQ(ref->kind, "ReplicaSet");
    EXPECT_EQ(ref->uid, api::Uid(*rs));
    EXPECT_TRUE(ref->blockOwnerDeletion);
  }
  // The requests were made as the controller's service account.
  int creates = 0;
  for (const sim::TraceEvent& e : f.trace.events()) {
    if (e.type == "api.request" && e.FieldString("verb") == "create" &&
        e.FieldString("kind") == "Pod" && e.FieldString("subresource").empty()) {
      EXPECT_EQ(e.FieldString("user"), kReplicaSetControllerUser);
      ++creates;
    }
  }
  EXPECT_EQ(creates, 2);
}

// fullyLabeledReplicas counts the Pods that carry every template label, not just the selector's:
// a Pod relabelled tier=api stays owned (app=front still selects it) but is not fully labelled.
TEST(ReplicaSetController, FullyLabeledCountsOnlyPodsWithEveryTemplateLabel) {
  WorldFixture f;
  f.Create(ReplicaSetJson("front", 3));
  f.Run(base::kSecond);
  ASSERT_EQ(Status(f, "front", "fullyLabeledReplicas"), 3);
  auto pods = f.Pods({{"app", "front"}});
  ASSERT_EQ(pods.size(), 3u);
  auto patched = f.admin_direct.Patch("Pod", "default", api::Name(*pods[0]),
                                      client::PatchType::kJsonMerge,
                                      Json{{"metadata", {{"labels", {{"tier", "api"}}}}}});
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  f.Run(base::kSecond);
  EXPECT_EQ(Status(f, "front", "replicas"), 3);
  EXPECT_EQ(Status(f, "front", "fullyLabeledReplicas"), 2);
}

// The Pods' label sets are matched against the template as it is at the sync: a template that
// gains a label no Pod carries leaves no Pod fully labelled, though no Pod changed.
TEST(ReplicaSetController, FullyLabeledFollowsATemplateChangeWithoutPodChanges) {
  WorldFixture f;
  f.Create(ReplicaSetJson("front", 3));
  f.Run(base::kSecond);
  ASSERT_EQ(Status(f, "front", "fullyLabeledReplicas"), 3);
  auto patched = f.admin_direct.Patch(
      "ReplicaSet", "default", "front", client::PatchType::kJsonMerge,
      Json{{"spec", {{"template", {{"metadata", {{"labels", {{"track", "canary"}}}}}}}}}});
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  f.Run(base::kSecond);
  EXPECT_EQ(Status(f, "front", "replicas"), 3);
  EXPECT_EQ(Status(f, "front", "fullyLabeledReplicas"), 0);
}

TEST(ReplicaSetController, StatusCountsReadyAndAvailablePods) {
  WorldFixture f;
  f.Create(ReplicaSetJson("front", 3));
  f.Run(base::kSecond);
  EXPECT_EQ(Status(f, "front", "replicas"), 3);
  EXPECT_EQ(Status(f, "front", "fullyLabeledReplicas"), 3);
  EXPECT_EQ(Status(f, "front", "readyReplicas"), 0);
  ASSERT_TRUE(
      f.RunUntil([&] { return Status(f, "front", "availableReplicas") == 3; }, 10 * base::kSecond));
  EXPECT_EQ(Status(f, "front", "readyReplicas"), 3);
  EXPECT_EQ(Status(f, "front", "observedGeneration"), 1);
}

TEST(ReplicaSetController, MinReadySecondsDelaysAvailability) {
  WorldFixture f;
  Json rs = ReplicaSetJson("front", 1);
  rs["spec"]["minReadySeconds"] = 3;
  f.Create(rs);
  ASSERT_TRUE(
      f.RunUntil([&] { return Status(f, "front", "readyReplicas") == 1; }, 10 * base::kSecond));
  EXPECT_EQ(Status(f, "front", "availableReplicas"), 0);
  const base::SimTime ready_at = f.clock.Now();
  ASSERT_TRUE(
      f.RunUntil([&] { return Status(f, "front", "availableReplicas") == 1; }, 10 * base::kSecond));
  EXPECT_GE(f.clock.Now() - ready_at, 2 * base::kSecond);  // ready since the second began
  EXPECT_LE(f.clock.Now() - ready_at, 3 * base::kSecond + 50 * base::kMillisecond);
}

TEST(ReplicaSetController, ScaleDownDeletesNotReadyPodsFirst) {
  WorldFixture f;
  f.Create(ReplicaSetJson("front", 2));
  ASSERT_TRUE(
      f.RunUntil([&] { return Status(f, "front", "readyReplicas") == 2; }, 10 * base::kSecond));
  ASSERT_TRUE(f.admin
                  .Patch("ReplicaSet", "default", "front", client::PatchType::kJsonMerge,
                         Json{{"spec", {{"replicas", 3}}}})
                  .ok());
  f.Run(base::kSecond);  // the third Pod exists but is not ready yet
  std::string newest;
  for (const api::ObjectPtr& pod : f.Pods({{"app", "front"}})) {
    if (!IsPodReady(*pod)) newest = api::Name(*pod);
  }
  ASSERT_FALSE(newest.empty());
  ASSERT_TRUE(f.admin
                  .Patch("ReplicaSet", "default", "front", client::PatchType::kJsonMerge,
                         Json{{"spec", {{"replicas", 2}}}})
                  .ok());
  f.Run(50 * base::kMillisecond);
  auto victim = f.Get("Pod", newest);
  EXPECT_TRUE(victim == nullptr || api::IsBeingDeleted(*victim));
  EXPECT_EQ(f.ReadyPods({{"app", "front"}}), 2);
}

TEST(ReplicaSetController, ReplacesADeletedPod) {
  WorldFixture f;
  f.Create(ReplicaSetJson("front", 1));
  f.Run(20 * base::kMillisecond);
  auto pods = f.Pods({{"app", "front"}});
  ASSERT_EQ(pods.size(), 1u);
  const std::string first = api::Name(*pods[0]);
  ASSERT_TRUE(f.admin.Delete("Pod", "default", first).ok());
  f.Run(100 * base::kMillisecond);
  int active = 0;
  for (const api::ObjectPtr& pod : f.Pods({{"app", "front"}})) {
    if (!api::IsBeingDeleted(*pod)) {
      EXPECT_NE(api::Name(*pod), first);
      ++active;
    }
  }
  EXPECT_EQ(active, 1);
}

}  // namespace
}  // namespace world
