// Tests of the RayCluster controller's validation.
// Mirrors: ray-operator/controllers/ray/utils/validation_test.go (TestValidateRayClusterSpec*,
// TestValidateRayClusterMetadata, TestValidateRayClusterStatus, TestValidateRayClusterUpgradeOptions).
#include "core/operators/kuberay/raycluster/validation.h"

#include <gtest/gtest.h>

#include "tests/operators/kuberay/fixtures.h"

namespace kuberay {
namespace {

using api::Json;
using testing::SampleCluster;

TEST(Validation, TestValidateRayClusterMetadata) {
  EXPECT_TRUE(ValidateRayClusterMetadata(SampleCluster()).ok());
  base::Status too_long = ValidateRayClusterMetadata(SampleCluster(std::string(54, 'a')));
  EXPECT_EQ(too_long.message(), "RayCluster name should be no more than 53 characters");
  EXPECT_FALSE(ValidateRayClusterMetadata(SampleCluster("1abc")).ok());
}

TEST(Validation, TestValidateRayClusterSpecReplicaBounds) {
  Json cluster = SampleCluster();
  EXPECT_TRUE(ValidateRayClusterSpec(cluster, FeatureGates{}).ok());
  cluster["spec"]["workerGroupSpecs"][0]["minReplicas"] = 6;
  EXPECT_EQ(ValidateRayClusterSpec(cluster, FeatureGates{}).message(),
            "worker group workergroup has minReplicas 6 greater than maxReplicas 5");
  cluster["spec"]["workerGroupSpecs"][0]["minReplicas"] = -1;
  EXPECT_EQ(ValidateRayClusterSpec(cluster, FeatureGates{}).message(),
            "worker group workergroup has negative minReplicas -1");
  cluster["spec"]["workerGroupSpecs"][0].erase("minReplicas");
  EXPECT_EQ(ValidateRayClusterSpec(cluster, FeatureGates{}).message(),
            "worker group workergroup must set both minReplicas and maxReplicas when autoscaling is disabled");
  cluster["spec"]["enableInTreeAutoscaling"] = true;
  EXPECT_TRUE(ValidateRayClusterSpec(cluster, FeatureGates{}).ok());
}

TEST(Validation, TestValidateRayClusterSpecContainersResourcesLabels) {
  Json cluster = SampleCluster();
  cluster["spec"]["headGroupSpec"]["template"]["spec"]["containers"] = Json::array();
  EXPECT_EQ(ValidateRayClusterSpec(cluster, FeatureGates{}).message(), "headGroupSpec should have at least one container");
  cluster = SampleCluster();
  cluster["spec"]["workerGroupSpecs"][0]["rayStartParams"]["num-cpus"] = "2";
  cluster["spec"]["workerGroupSpecs"][0]["resources"] = {{"CPU", "2"}};
  EXPECT_NE(ValidateRayClusterSpec(cluster, FeatureGates{}).message().find("both rayStartParams and Resources"),
            std::string::npos);
  cluster = SampleCluster();
  cluster["spec"]["headGroupSpec"]["rayStartParams"]["labels"] = "a=b";
  EXPECT_NE(ValidateRayClusterSpec(cluster, FeatureGates{}).message().find("rayStartParams['labels'] is not supported"),
            std::string::npos);
}

TEST(Validation, GroupSuspendNeedsTheGateAndNoAutoscaler) {
  Json cluster = SampleCluster();
  cluster["spec"]["workerGroupSpecs"][0]["suspend"] = true;
  EXPECT_TRUE(ValidateRayClusterSpec(cluster, FeatureGates{}).ok());
  FeatureGates off;
  ASSERT_TRUE(off.Set("RayJobDeletionPolicy", false).ok());
  EXPECT_NE(ValidateRayClusterSpec(cluster, off).message().find("RayJobDeletionPolicy"), std::string::npos);
  cluster["spec"]["enableInTreeAutoscaling"] = true;
  EXPECT_EQ(ValidateRayClusterSpec(cluster, FeatureGates{}).message(),
            "worker group workergroup cannot be suspended with Autoscaler enabled");
}

TEST(Validation, GatedFieldsNeedTheirGates) {
  Json cluster = SampleCluster();
  cluster["spec"]["networkPolicy"] = {{"mode", "DenyAll"}};
  EXPECT_FALSE(ValidateRayClusterSpec(cluster, FeatureGates{}).ok());
  FeatureGates on;
  ASSERT_TRUE(on.Set("RayClusterNetworkPolicy", true).ok());
  EXPECT_TRUE(ValidateRayClusterSpec(cluster, on).ok());
}

TEST(Validation, TestValidateRayClusterUpgradeOptions) {
  Json cluster = SampleCluster();
  cluster["spec"]["upgradeStrategy"] = {{"type", "Recreate"}};
  EXPECT_TRUE(ValidateRayClusterUpgradeOptions(cluster).ok());
  cluster["spec"]["upgradeStrategy"]["type"] = "Rolling";
  EXPECT_FALSE(ValidateRayClusterUpgradeOptions(cluster).ok());
  cluster["spec"]["upgradeStrategy"]["type"] = "None";
  cluster["metadata"]["labels"]["ray.io/originated-from-crd"] = "RayJob";
  EXPECT_EQ(ValidateRayClusterUpgradeOptions(cluster).message(),
            "upgradeStrategy cannot be set when RayCluster is created by RayJob");
}

TEST(Validation, TestValidateRayClusterStatus) {
  Json cluster = SampleCluster();
  cluster["status"]["conditions"] = Json::array({Json{{"type", "RayClusterSuspending"}, {"status", "True"}},
                                                 Json{{"type", "RayClusterSuspended"}, {"status", "True"}}});
  EXPECT_FALSE(ValidateRayClusterStatus(cluster).ok());
  cluster["status"]["conditions"][1]["status"] = "False";
  EXPECT_TRUE(ValidateRayClusterStatus(cluster).ok());
}

}  // namespace
}  // namespace kuberay
