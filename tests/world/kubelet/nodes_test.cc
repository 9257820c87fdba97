#include "core/world/node/nodes.h"

#include <gtest/gtest.h>

#include <string>

#include "core/api/pointer.h"
#include "tests/world/workloads/world_fixture.h"

namespace world {
namespace {

using testing::WorldFixture;

TEST(Nodes, RegistersThreeReadyNodesWithCapacity) {
  WorldFixture f;
  EXPECT_EQ(f.world->nodes().names(), (std::vector<std::string>{"node-1", "node-2", "node-3"}));
  for (const std::string& name : f.world->nodes().names()) {
    auto node = f.Get("Node", name, "");
    ASSERT_NE(node, nullptr);
    EXPECT_TRUE(ConditionIs(*node, "Ready", "True"));
    EXPECT_TRUE(ConditionIs(*node, "MemoryPressure", "False"));
    EXPECT_EQ(api::GetString(*node, "/status/capacity/cpu"), "8");
    EXPECT_EQ(api::GetString(*node, "/status/allocatable/memory"), "32Gi");
    EXPECT_EQ(api::GetString(*node, "/status/capacity/pods"), "110");
    EXPECT_EQ(api::Labels(*node).at("kubernetes.io/hostname"), name);
  }
  EXPECT_EQ(f.world->nodes().PodCidrPrefix("node-2"), "10.244.2.");
  EXPECT_EQ(f.world->nodes().HostIp("node-2"), "172.18.0.3");
  EXPECT_EQ(f.world->nodes().Index("nope"), 0);
}

TEST(Nodes, SetNodeReadyRejectsUnknownNodes) {
  WorldFixture f;
  EXPECT_EQ(f.world->SetNodeReady("node-9", false).code(), base::StatusCode::kNotFound);
  EXPECT_EQ(f.world->nodes().SetNodeReady("node-9", false).code(), base::StatusCode::kNotFound);
}

TEST(Nodes, UpBeforeTheGracePeriodChangesNothing) {
  WorldFixture f;
  ASSERT_TRUE(f.world->SetNodeReady("node-2", false).ok());
  EXPECT_FALSE(f.world->nodes().IsUp("node-2"));
  f.Run(20 * base::kSecond);
  ASSERT_TRUE(f.world->SetNodeReady("node-2", true).ok());
  f.Run(base::kMinute);
  EXPECT_TRUE(ConditionIs(*f.Get("Node", "node-2", ""), "Ready", "True"));
  EXPECT_EQ(f.CountTrace("node.status", "ready", "Unknown"), 0);
}

TEST(Nodes, CustomCountAndCapacity) {
  WorldOptions options;
  options.nodes.count = 2;
  options.nodes.cpu = "4";
  WorldFixture f(options);
  EXPECT_EQ(f.world->nodes().names().size(), 2u);
  EXPECT_EQ(f.world->kubelets().size(), 2u);
  EXPECT_EQ(api::GetString(*f.Get("Node", "node-2", ""), "/status/capacity/cpu"), "4");
}

}  // namespace
}  // namespace world
