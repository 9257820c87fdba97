#include "core/world/scheduler/kube_scheduler.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/api/pointer.h"
#include "tests/world/workloads/world_fixture.h"

namespace world {
namespace {

using api::Json;
using testing::PodJson;
using testing::WorldFixture;

Json WithCpu(Json pod, const std::string& cpu) {
  pod["spec"]["containers"][0]["resources"] = {{"requests", {{"cpu", cpu}}}};
  return pod;
}

std::string NodeOf(WorldFixture& f, const std::string& pod) {
  auto p = f.Get("Pod", pod);
  return p == nullptr ? "" : api::GetString(*p, "/spec/nodeName");
}

TEST(KubeScheduler, BindsAfterTheBindDelayAndSetsPodScheduled) {
  WorldFixture f;
  f.Create(PodJson("web"));
  f.Run(9 * base::kMillisecond);
  EXPECT_EQ(NodeOf(f, "web"), "");
  f.Run(2 * base::kMillisecond);
  EXPECT_EQ(NodeOf(f, "web"), "node-1");  // all empty: the first name wins the tie
  EXPECT_TRUE(ConditionIs(*f.Get("Pod", "web"), "PodScheduled", "True"));
  EXPECT_EQ(f.CountTrace("scheduler.bind", "node", "node-1"), 1);
  // One request binds it, as upstream's DefaultBinder: create pods/binding as kube-scheduler.
  std::vector<std::string> requests;
  for (const sim::TraceEvent& e : f.trace.events()) {
    if (e.type == "api.request" && e.FieldString("name") == "web" &&
        e.FieldString("user") == kSchedulerUser) {
      requests.push_back(e.FieldString("verb") + " " + e.FieldString("subresource") + " " +
                         e.FieldString("code"));
    }
  }
  EXPECT_EQ(requests, (std::vector<std::string>{"create binding 201"}));
}

TEST(KubeScheduler, SpreadsPodsLeastAllocatedFirst) {
  WorldFixture f;
  for (int i = 0; i < 6; ++i) {
    f.Create(PodJson("p" + std::to_string(i)));
    f.Run(20 * base::kMillisecond);  // one at a time, so each sees the previous bindings
  }
  std::map<std::string, int> per_node;
  for (int i = 0; i < 6; ++i) ++per_node[NodeOf(f, "p" + std::to_string(i))];
  EXPECT_EQ(per_node, (std::map<std::string, int>{{"node-1", 2}, {"node-2", 2}, {"node-3", 2}}));
}

TEST(KubeScheduler, UnschedulablePodGetsTheSchedulersMessage) {
  WorldFixture f;
  f.Create(WithCpu(PodJson("huge"), "9"));
  f.Run(100 * base::kMillisecond);
  auto pod = f.Get("Pod", "huge");
  EXPECT_EQ(NodeOf(f, "huge"), "");
  EXPECT_EQ(PodPhase(*pod), "Pending");
  const Json* cond = FindCondition(*pod, "PodScheduled");
  ASSERT_NE(cond, nullptr);
  EXPECT_EQ((*cond)["status"], "False");
  EXPECT_EQ((*cond)["reason"], "Unschedulable");
  EXPECT_EQ((*cond)["message"], "0/3 nodes are available: 3 Insufficient cpu.");
  EXPECT_EQ(f.world->scheduler().unschedulable().count("default/huge"), 1u);
  f.Run(base::kMinute);
  EXPECT_EQ(NodeOf(f, "huge"), "");                       // stays Pending
  EXPECT_EQ(f.CountTrace("scheduler.unschedulable"), 1);  // no repeated writes
}

TEST(KubeScheduler, MessageCountsEachReasonAndSortsThem) {
  WorldFixture f;
  // node-1 is cordoned; node-2 is full on cpu; node-3 has room.
  ASSERT_TRUE(f.admin
                  .Patch("Node", "", "node-1", client::PatchType::kJsonMerge,
                         Json{{"spec", {{"unschedulable", true}}}})
                  .ok());
  f.Create(WithCpu(PodJson("a"), "7"));
  f.Run(20 * base::kMillisecond);
  f.Create(WithCpu(PodJson("b"), "7"));
  f.Run(20 * base::kMillisecond);
  ASSERT_FALSE(NodeOf(f, "a").empty());
  ASSERT_FALSE(NodeOf(f, "b").empty());
  Json c = WithCpu(PodJson("c"), "2");
  c["spec"]["containers"][0]["resources"]["requests"]["memory"] = "40Gi";
  f.Create(c);
  f.Run(50 * base::kMillisecond);
  const Json* cond = FindCondition(*f.Get("Pod", "c"), "PodScheduled");
  ASSERT_NE(cond, nullptr);
  EXPECT_EQ((*cond)["message"],
            "0/3 nodes are available: 1 node(s) were unschedulable, 2 Insufficient cpu, 2 "
            "Insufficient memory.");
}

TEST(KubeScheduler, RetriesWhenAPodFreesRoom) {
  WorldOptions options;
  options.nodes.count = 1;
  WorldFixture one(options);
  one.Create(WithCpu(PodJson("big"), "6"));
  one.Run(20 * base::kMillisecond);
  ASSERT_EQ(NodeOf(one, "big"), "node-1");
  one.Create(WithCpu(PodJson("next"), "4"));
  one.Run(100 * base::kMillisecond);
  ASSERT_EQ(NodeOf(one, "next"), "");
  EXPECT_EQ((*FindCondition(*one.Get("Pod", "next"), "PodScheduled"))["message"],
            "0/1 nodes are available: 1 Insufficient cpu.");
  ASSERT_TRUE(one.admin.Delete("Pod", "default", "big").ok());
  ASSERT_TRUE(one.RunUntil([&] { return NodeOf(one, "next") == "node-1"; }, 10 * base::kSecond));
  EXPECT_TRUE(ConditionIs(*one.Get("Pod", "next"), "PodScheduled", "True"));
  EXPECT_EQ(one.world->scheduler().unschedulable().size(), 0u);
}

TEST(KubeScheduler, UnreachableNodeIsAvoidedAndToleratedByMatchingPods) {
  WorldOptions options;
  options.nodes.count = 1;
  WorldFixture f(options);
  ASSERT_TRUE(f.world->SetNodeReady("node-1", false).ok());
  f.Run(41 * base::kSecond);
  f.Create(PodJson("plain"));
  Json tolerant = PodJson("tolerant");
  tolerant["spec"]["tolerations"] =
      Json::array({Json{{"key", kUnreachableTaint}, {"operator", "Exists"}}});
  f.Create(tolerant);
  f.Run(100 * base::kMillisecond);
  EXPECT_EQ(NodeOf(f, "plain"), "");
  EXPECT_EQ((*FindCondition(*f.Get("Pod", "plain"), "PodScheduled"))["message"],
            "0/1 nodes are available: 1 node(s) had untolerated taint "
            "{node.kubernetes.io/unreachable: }.");
  EXPECT_EQ(NodeOf(f, "tolerant"), "node-1");
  ASSERT_TRUE(f.world->SetNodeReady("node-1", true).ok());
  ASSERT_TRUE(f.RunUntil([&] { return NodeOf(f, "plain") == "node-1"; }, 10 * base::kSecond));
}

TEST(KubeScheduler, NodeSelectorMustMatch) {
  WorldFixture f;
  Json pod = PodJson("pinned");
  pod["spec"]["nodeSelector"] = {{"kubernetes.io/hostname", "node-3"}};
  f.Create(pod);
  f.Run(20 * base::kMillisecond);
  EXPECT_EQ(NodeOf(f, "pinned"), "node-3");
}

// The scheduler parses each Node once per change (NodeInfo); these check that a change to a Node
// it has already parsed reaches the next decision.

std::string ScheduledMessage(WorldFixture& f, const std::string& pod) {
  const Json* cond = FindCondition(*f.Get("Pod", pod), "PodScheduled");
  return cond == nullptr ? "" : cond->value("message", "");
}

TEST(KubeScheduler, NextDecisionSeesANodesNewTaintAndItsRemoval) {
  WorldOptions options;
  options.nodes.count = 1;
  WorldFixture f(options);
  f.Create(PodJson("first"));
  f.Run(20 * base::kMillisecond);
  ASSERT_EQ(NodeOf(f, "first"), "node-1");  // node-1 parsed without taints
  ASSERT_TRUE(f.admin
                  .Patch("Node", "", "node-1", client::PatchType::kJsonMerge,
                         Json{{"spec",
                               {{"taints", Json::array({Json{{"key", "dedicated"},
                                                             {"value", "gpu"},
                                                             {"effect", "NoSchedule"}}})}}}})
                  .ok());
  f.Run(20 * base::kMillisecond);
  f.Create(PodJson("second"));
  f.Run(100 * base::kMillisecond);
  EXPECT_EQ(NodeOf(f, "second"), "");
  EXPECT_EQ(ScheduledMessage(f, "second"),
            "0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}.");
  ASSERT_TRUE(f.admin
                  .Patch("Node", "", "node-1", client::PatchType::kJsonMerge,
                         Json{{"spec", {{"taints", nullptr}}}})
                  .ok());
  ASSERT_TRUE(f.RunUntil([&] { return NodeOf(f, "second") == "node-1"; }, 10 * base::kSecond));
}

TEST(KubeScheduler, NextDecisionSeesANodesNewAllocatable) {
  WorldOptions options;
  options.nodes.count = 1;
  WorldFixture f(options);
  f.Create(WithCpu(PodJson("first"), "1"));
  f.Run(20 * base::kMillisecond);
  ASSERT_EQ(NodeOf(f, "first"), "node-1");  // node-1 parsed with its registered allocatable
  ASSERT_TRUE(f.admin
                  .PatchStatus("Node", "", "node-1", client::PatchType::kJsonMerge,
                               Json{{"status", {{"allocatable", {{"cpu", "1"}}}}}})
                  .ok());
  f.Run(20 * base::kMillisecond);
  f.Create(WithCpu(PodJson("second"), "1"));
  f.Run(100 * base::kMillisecond);
  EXPECT_EQ(NodeOf(f, "second"), "");
  EXPECT_EQ(ScheduledMessage(f, "second"), "0/1 nodes are available: 1 Insufficient cpu.");
  ASSERT_TRUE(f.admin
                  .PatchStatus("Node", "", "node-1", client::PatchType::kJsonMerge,
                               Json{{"status", {{"allocatable", {{"cpu", "2"}}}}}})
                  .ok());
  ASSERT_TRUE(f.RunUntil([&] { return NodeOf(f, "second") == "node-1"; }, 10 * base::kSecond));
}

TEST(KubeScheduler, NextDecisionSeesANodesNewLabel) {
  WorldOptions options;
  options.nodes.count = 1;
  WorldFixture f(options);
  f.Create(PodJson("first"));
  f.Run(20 * base::kMillisecond);
  ASSERT_EQ(NodeOf(f, "first"), "node-1");  // node-1 parsed without the label
  Json pinned = PodJson("pinned");
  pinned["spec"]["nodeSelector"] = {{"pool", "a"}};
  f.Create(pinned);
  f.Run(100 * base::kMillisecond);
  EXPECT_EQ(NodeOf(f, "pinned"), "");
  EXPECT_EQ(ScheduledMessage(f, "pinned"),
            "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.");
  ASSERT_TRUE(f.admin
                  .Patch("Node", "", "node-1", client::PatchType::kJsonMerge,
                         Json{{"metadata", {{"labels", {{"pool", "a"}}}}}})
                  .ok());
  ASSERT_TRUE(f.RunUntil([&] { return NodeOf(f, "pinned") == "node-1"; }, 10 * base::kSecond));
}

// In a cluster of 100 Nodes or more a cycle stops once it has found numFeasibleNodesToFind
// feasible Nodes (100 of 120 here), and the next cycle starts where it stopped (upstream's
// nextStartNodeIndex); below 100 every Node is checked. node-99 is the last name of either
// cluster and has twice the cpu of the others, so it scores best once it is looked at.

// BiggerLastNode: a cluster of `count` Nodes whose last name, node-99, has 16 cpu (others 8).
void BiggerLastNode(WorldFixture& f) {
  ASSERT_TRUE(f.admin
                  .PatchStatus("Node", "", "node-99", client::PatchType::kJsonMerge,
                               Json{{"status", {{"allocatable", {{"cpu", "16"}}}}}})
                  .ok());
  f.Run(20 * base::kMillisecond);
}

TEST(KubeScheduler, LargeClusterLooksAtEnoughNodesFromWhereTheLastCycleStopped) {
  WorldOptions options;
  options.nodes.count = 120;
  WorldFixture f(options);
  BiggerLastNode(f);
  f.Create(WithCpu(PodJson("first"), "1"));
  f.Run(20 * base::kMillisecond);
  EXPECT_EQ(NodeOf(f, "first"), "node-1");  // the first 100 names: node-99 is not among them
  f.Create(WithCpu(PodJson("second"), "1"));
  f.Run(20 * base::kMillisecond);
  EXPECT_EQ(NodeOf(f, "second"), "node-99");  // starts at the 101st name
}

TEST(KubeScheduler, SmallClusterLooksAtEveryNode) {
  WorldOptions options;
  options.nodes.count = 99;
  WorldFixture f(options);
  BiggerLastNode(f);
  f.Create(WithCpu(PodJson("first"), "1"));
  f.Run(20 * base::kMillisecond);
  EXPECT_EQ(NodeOf(f, "first"), "node-99");
}

}  // namespace
}  // namespace world
