// Tests of the Services a RayCluster owns.
// Mirrors: ray-operator/controllers/ray/common/service_test.go (TestBuildServiceForHeadPod,
// TestBuildServiceForHeadPodWithAppNameLabel, TestGetPortsFromCluster,
// TestBuildHeadServiceForRayClusterWithClusterIPDisabled/Enabled, TestBuildHeadlessService…).
#include "core/operators/kuberay/raycluster/service_builder.h"

#include <gtest/gtest.h>

#include "tests/operators/kuberay/fixtures.h"

namespace kuberay {
namespace {

using api::Json;
using testing::SampleCluster;

TEST(ServiceBuilder, TestBuildServiceForHeadPod) {
  const Json svc = BuildHeadService(SampleCluster(), OperatorConfig{});
  EXPECT_EQ(svc["metadata"]["name"], "raycluster-kuberay-head-svc");
  EXPECT_EQ(svc["spec"]["clusterIP"], "None");
  EXPECT_EQ(svc["spec"]["publishNotReadyAddresses"], true);
  const Json expected_selector = {{"ray.io/cluster", "raycluster-kuberay"},
                                  {"ray.io/node-type", "head"},
                                  {"ray.io/identifier", "raycluster-kuberay-head"},
                                  {"app.kubernetes.io/name", "kuberay"},
                                  {"app.kubernetes.io/created-by", "kuberay-operator"}};
  EXPECT_EQ(svc["spec"]["selector"], expected_selector);
  EXPECT_EQ(svc["metadata"]["labels"], expected_selector);
  // The container's three named ports plus metrics, sorted by name, appProtocol tcp, no targetPort.
  std::vector<std::string> names;
  for (const Json& p : svc["spec"]["ports"]) {
    names.push_back(p["name"]);
    EXPECT_EQ(p["appProtocol"], "tcp");
    EXPECT_FALSE(p.contains("targetPort"));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"client", "dashboard", "gcs-server", "metrics"}));
}

TEST(ServiceBuilder, TestGetPortsFromClusterDefaultsOnlyWhenNoneDeclared) {
  Json cluster = SampleCluster();
  cluster["spec"]["headGroupSpec"]["template"]["spec"]["containers"][0].erase("ports");
  const auto defaults = ServicePorts(cluster);
  EXPECT_EQ(defaults, (std::map<std::string, int>{{"client", 10001}, {"dashboard", 8265},
                                                   {"gcs-server", 6379}, {"metrics", 8080}, {"serve", 8000}}));
  cluster["spec"]["headGroupSpec"]["template"]["spec"]["containers"][0]["ports"] =
      Json::array({Json{{"containerPort", 7000}}});
  EXPECT_EQ(ServicePorts(cluster), (std::map<std::string, int>{{"7000-port", 7000}, {"metrics", 8080}}));
}

TEST(ServiceBuilder, TestBuildHeadServiceForRayClusterWithClusterIPEnabled) {
  OperatorConfig config;
  config.env["ENABLE_RAY_HEAD_CLUSTER_IP_SERVICE"] = "true";
  EXPECT_FALSE(BuildHeadService(SampleCluster(), config)["spec"].contains("clusterIP"));
  Json node_port = SampleCluster();
  node_port["spec"]["headGroupSpec"]["serviceType"] = "NodePort";
  const Json svc = BuildHeadService(node_port, OperatorConfig{});
  EXPECT_EQ(svc["spec"]["type"], "NodePort");
  EXPECT_FALSE(svc["spec"].contains("clusterIP"));
}

TEST(ServiceBuilder, TestBuildServiceForHeadPodWithAppNameLabel) {
  Json cluster = SampleCluster();
  cluster["spec"]["headGroupSpec"]["template"]["metadata"]["labels"]["app.kubernetes.io/name"] = "myapp";
  EXPECT_EQ(BuildHeadService(cluster, OperatorConfig{})["spec"]["selector"]["app.kubernetes.io/name"], "myapp");
}

TEST(ServiceBuilder, UserHeadServiceKeepsItsNameAndIsNotHeadless) {
  Json cluster = SampleCluster();
  cluster["spec"]["headGroupSpec"]["headService"] = {{"metadata", {{"name", "my-head"}}}};
  const Json svc = BuildHeadService(cluster, OperatorConfig{});
  EXPECT_EQ(svc["metadata"]["name"], "my-head");
  EXPECT_FALSE(svc["spec"].contains("clusterIP"));
  EXPECT_EQ(svc["spec"]["ports"].size(), 4u);
}

TEST(ServiceBuilder, TestBuildHeadlessServiceForRayCluster) {
  const Json svc = BuildHeadlessService(SampleCluster());
  EXPECT_EQ(svc["metadata"]["name"], "raycluster-kuberay-headless");
  EXPECT_EQ(svc["metadata"]["labels"]["ray.io/headless-worker-svc"], "raycluster-kuberay");
  EXPECT_EQ(svc["spec"]["selector"], (Json{{"ray.io/cluster", "raycluster-kuberay"}, {"ray.io/node-type", "worker"}}));
  EXPECT_EQ(svc["spec"]["clusterIP"], "None");
  EXPECT_FALSE(svc["spec"].contains("ports"));
}

TEST(ServiceBuilder, ServeServiceSelectsTheWholeCluster) {
  const Json svc = BuildServeService(SampleCluster());
  EXPECT_EQ(svc["metadata"]["name"], "raycluster-kuberay-serve-svc");
  EXPECT_EQ(svc["metadata"]["labels"]["ray.io/serve"], "raycluster-kuberay-serve");
  EXPECT_EQ(svc["spec"]["selector"], (Json{{"ray.io/cluster", "raycluster-kuberay"}}));
  EXPECT_EQ(svc["spec"]["ports"][0]["port"], 8000);
}

}  // namespace
}  // namespace kuberay
