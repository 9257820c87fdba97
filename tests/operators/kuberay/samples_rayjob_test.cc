// KubeRay's RayJob samples beyond ray-job.sample.yaml, applied unchanged in the whole simulated
// cluster: shutdownAfterJobFinishes with a TTL, staged deletionRules (and the validation error
// when the RayJobDeletionPolicy gate is off), and clusterSelector on an existing RayCluster.
// The samples are read from ../shared beside the checkout.
// Mirrors: ray-operator/test/e2erayjob/rayjob_test.go (TestRayJob), rayjob_deletion_strategy_test.go
// (TestDeletionStrategy), rayjob_cluster_selector_test.go (TestRayJobWithClusterSelector) and
// controllers/ray/rayjob_controller_test.go ("RayJob with DeletionStrategy").
#include <string>

#include <gtest/gtest.h>

#include "tests/operators/kuberay/fixtures.h"
#include "tests/operators/kuberay/lab_session.h"

namespace kuberay {
namespace {

using testing::LabSession;

constexpr const char* kOperatorUp =
    "wait --for=condition=Available deploy/kuberay-operator --timeout=60s\n";

// Complete waits until the RayJob's deployment status is Complete.
bool Complete(LabSession& s, const std::string& rayjob) {
  return s.Run("wait --for=jsonpath='{.status.jobDeploymentStatus}'=Complete rayjob/" + rayjob +
               " --timeout=180s\n");
}

std::string Workers(LabSession& s, const std::string& cluster) {
  return s.Get("pods -l ray.io/cluster=" + cluster + ",ray.io/node-type=worker -o name");
}

std::string Heads(LabSession& s, const std::string& cluster) {
  return s.Get("pods -l ray.io/cluster=" + cluster + ",ray.io/node-type=head -o name");
}

// mirrors TestRayJob "Successful RayJob" with shutdownAfterJobFinishes: the RayCluster is deleted
// ttlSecondsAfterFinished (10s) after the job ends; the RayJob and its submitter Job stay.
TEST(KubeRaySamples, RayJobShutdownDeletesTheClusterAfterTheTtl) {
  REQUIRE_SAMPLES(dir);
  LabSession s;
  ASSERT_TRUE(s.Run(std::string(kOperatorUp) + "apply -f ray-job.shutdown.yaml\n", dir)) << s.err;
  EXPECT_NE(s.out.find("rayjob.ray.io/rayjob-sample-shutdown created\nconfigmap/ray-job-code-sample created\n"),
            std::string::npos)
      << s.out;
  ASSERT_TRUE(Complete(s, "rayjob-sample-shutdown")) << s.err << s.Get("rayjob rayjob-sample-shutdown -o yaml");
  EXPECT_EQ(s.Get("rayjob rayjob-sample-shutdown -o jsonpath={.status.jobStatus}"), "SUCCEEDED");
  const std::string cluster = s.Get("rayjob rayjob-sample-shutdown -o jsonpath={.status.rayClusterName}");
  ASSERT_FALSE(cluster.empty());
  // The runtimeEnvYAML reached the submitter as --runtime-env-json.
  EXPECT_NE(s.Get("job rayjob-sample-shutdown -o jsonpath={.spec.template.spec.containers[0].args[0]}")
                .find("--runtime-env-json"),
            std::string::npos);

  ASSERT_TRUE(s.Run("run 7s\n")) << s.err;
  EXPECT_TRUE(s.Exists("raycluster", cluster)) << "deleted before ttlSecondsAfterFinished";
  EXPECT_EQ(LabSession::Lines(Heads(s, cluster)), 1);
  ASSERT_TRUE(s.Run("wait --for=delete raycluster/" + cluster + " --timeout=20s\n"))
      << s.err << s.Get("raycluster " + cluster + " -o yaml");
  ASSERT_TRUE(s.Run("run 30s\n")) << s.err;
  EXPECT_EQ(s.Get("pods -l ray.io/cluster=" + cluster + " -o name"), "") << "owned Pods are collected";
  EXPECT_EQ(s.Get("rayjob rayjob-sample-shutdown -o jsonpath={.status.jobDeploymentStatus}"), "Complete");
  EXPECT_TRUE(s.Exists("job", "rayjob-sample-shutdown")) << "the submitter Job is kept";
}

// mirrors TestDeletionStrategy (rules on SUCCEEDED): workers at +30s, the cluster at +60s, the
// RayJob itself at +90s after the job's endTime.
TEST(KubeRaySamples, RayJobDeletionRulesRunInStages) {
  REQUIRE_SAMPLES(dir);
  LabSession s;
  ASSERT_TRUE(s.Run(std::string(kOperatorUp) + "apply -f ray-job.deletion-rules.yaml\n", dir)) << s.err;
  ASSERT_TRUE(Complete(s, "rayjob-deletion-rules")) << s.err << s.Get("rayjob rayjob-deletion-rules -o yaml");
  EXPECT_EQ(s.Get("rayjob rayjob-deletion-rules -o jsonpath={.status.jobStatus}"), "SUCCEEDED");
  const std::string cluster = s.Get("rayjob rayjob-deletion-rules -o jsonpath={.status.rayClusterName}");
  ASSERT_FALSE(cluster.empty());

  ASSERT_TRUE(s.Run("run 25s\n")) << s.err;  // +25s: nothing yet
  EXPECT_EQ(LabSession::Lines(Workers(s, cluster)), 1);
  EXPECT_EQ(s.Get("raycluster " + cluster + " -o jsonpath={.spec.workerGroupSpecs[0].suspend}"), "");

  ASSERT_TRUE(s.Run("run 10s\n")) << s.err;  // +35s: DeleteWorkers suspended the group
  EXPECT_EQ(s.Get("raycluster " + cluster + " -o jsonpath={.spec.workerGroupSpecs[0].suspend}"), "true");
  EXPECT_EQ(Workers(s, cluster), "");
  EXPECT_EQ(LabSession::Lines(Heads(s, cluster)), 1) << "the head stays for debugging";
  EXPECT_NE(s.Get("events -o jsonpath='{.items[?(@.reason==\"UpdatedRayCluster\")].message}'")
                .find("Set the `suspend` field to true for all worker groups in cluster default/" + cluster),
            std::string::npos);

  ASSERT_TRUE(s.Run("run 20s\n")) << s.err;  // +55s
  EXPECT_TRUE(s.Exists("raycluster", cluster));
  ASSERT_TRUE(s.Run("run 10s\n")) << s.err;  // +65s: DeleteCluster
  EXPECT_FALSE(s.Exists("raycluster", cluster) &&
               s.Get("raycluster " + cluster + " -o jsonpath={.metadata.deletionTimestamp}").empty())
      << "the RayCluster is not being deleted at +65s";
  EXPECT_NE(s.Get("events -o jsonpath='{.items[?(@.reason==\"DeletedRayCluster\")].message}'"), "");
  EXPECT_TRUE(s.Exists("rayjob", "rayjob-deletion-rules"));

  ASSERT_TRUE(s.Run("run 20s\n")) << s.err;  // +85s
  EXPECT_TRUE(s.Exists("rayjob", "rayjob-deletion-rules"));
  ASSERT_TRUE(s.Run("wait --for=delete rayjob/rayjob-deletion-rules --timeout=10s\n"))  // +90s: DeleteSelf
      << s.err << s.Get("rayjob rayjob-deletion-rules -o yaml");
}

// mirrors validateDeletionConfiguration: with the RayJobDeletionPolicy gate off the sample is
// rejected (ValidationFailed, Warning event InvalidRayJobSpec) and no RayCluster is created.
TEST(KubeRaySamples, RayJobDeletionRulesNeedTheFeatureGate) {
  REQUIRE_SAMPLES(dir);
  LabSession s;
  ASSERT_TRUE(s.Run("operator set feature-gates=RayJobDeletionPolicy=false\n"
                    "operator restart\n"
                    "run 10s\n" +
                    std::string(kOperatorUp) + "apply -f ray-job.deletion-rules.yaml\n"
                    "wait --for=jsonpath='{.status.jobDeploymentStatus}'=ValidationFailed "
                    "rayjob/rayjob-deletion-rules --timeout=30s\n",
                    dir))
      << s.err << s.Get("rayjob rayjob-deletion-rules -o yaml");
  EXPECT_EQ(s.Get("rayjob rayjob-deletion-rules -o jsonpath={.status.reason}"), "ValidationFailed");
  EXPECT_EQ(s.Get("rayjob rayjob-deletion-rules -o jsonpath={.status.message}"),
            "RayJobDeletionPolicy feature gate must be enabled to use DeletionStrategy");
  EXPECT_EQ(s.Get("events -o jsonpath='{.items[?(@.reason==\"InvalidRayJobSpec\")].type}'").substr(0, 7),
            "Warning");
  EXPECT_NE(s.Get("events -o jsonpath='{.items[?(@.reason==\"InvalidRayJobSpec\")].message}'")
                .find("default/rayjob-deletion-rules: RayJobDeletionPolicy feature gate must be "
                      "enabled to use DeletionStrategy"),
            std::string::npos);
  ASSERT_TRUE(s.Run("run 10s\n")) << s.err;
  EXPECT_EQ(s.Get("rayclusters -o name"), "");
  EXPECT_EQ(s.Get("rayjob rayjob-deletion-rules -o jsonpath={.status.jobDeploymentStatus}"), "ValidationFailed");
}

// mirrors TestRayJobWithClusterSelector "Successful RayJob": the job runs on the selected
// cluster; no RayCluster and no RayJob head Service are created, and nothing is deleted after.
TEST(KubeRaySamples, RayJobUseExistingClusterSubmitsToTheSelectedCluster) {
  REQUIRE_SAMPLES(dir);
  LabSession s;
  ASSERT_TRUE(s.Run(std::string(kOperatorUp) + "apply -f - <<EOF\n" +
                    testing::SampleYaml("ray-cluster-kuberay", 1) + "EOF\n" +
                    "wait --for=jsonpath='{.status.state}'=ready raycluster/ray-cluster-kuberay --timeout=120s\n"))
      << s.err;
  ASSERT_TRUE(s.Run("apply -f ray-job.use-existing-raycluster.yaml\n", dir)) << s.err;
  ASSERT_TRUE(Complete(s, "rayjob-use-existing-raycluster"))
      << s.err << s.Get("rayjob rayjob-use-existing-raycluster -o yaml");
  EXPECT_EQ(s.Get("rayjob rayjob-use-existing-raycluster -o jsonpath={.status.jobStatus}"), "SUCCEEDED");
  EXPECT_EQ(s.Get("rayjob rayjob-use-existing-raycluster -o jsonpath={.status.rayClusterName}"),
            "ray-cluster-kuberay");
  EXPECT_EQ(s.Get("rayjob rayjob-use-existing-raycluster -o jsonpath={.status.dashboardURL}"),
            "ray-cluster-kuberay-head-svc.default.svc.cluster.local:8265");
  EXPECT_EQ(s.Get("rayclusters -o name"), "raycluster.ray.io/ray-cluster-kuberay\n");
  EXPECT_NE(s.Get("job rayjob-use-existing-raycluster -o jsonpath={.spec.template.spec.containers[0].args[0]}")
                .find("--address http://ray-cluster-kuberay-head-svc.default.svc.cluster.local:8265"),
            std::string::npos);
  EXPECT_FALSE(s.Exists("svc", "rayjob-use-existing-raycluster-head-svc"));
  ASSERT_TRUE(s.Run("run 60s\n")) << s.err;
  EXPECT_TRUE(s.Exists("raycluster", "ray-cluster-kuberay")) << "a selected cluster is never deleted";
  EXPECT_EQ(LabSession::Lines(Workers(s, "ray-cluster-kuberay")), 1);
}

// mirrors getOrCreateRayClusterInstance: a selected cluster that does not exist is an event
// (RayClusterNotFound) and the RayJob waits in Initializing until it appears.
TEST(KubeRaySamples, RayJobUseExistingClusterWaitsForTheCluster) {
  REQUIRE_SAMPLES(dir);
  LabSession s;
  ASSERT_TRUE(s.Run(std::string(kOperatorUp) + "apply -f ray-job.use-existing-raycluster.yaml\nrun 10s\n", dir))
      << s.err;
  EXPECT_EQ(s.Get("rayjob rayjob-use-existing-raycluster -o jsonpath={.status.jobDeploymentStatus}"),
            "Initializing");
  EXPECT_NE(s.Get("events -o jsonpath='{.items[?(@.reason==\"RayClusterNotFound\")].message}'")
                .find("RayCluster default/ray-cluster-kuberay set in the clusterSelector is not found. "
                      "It must be created manually"),
            std::string::npos);
  EXPECT_EQ(s.Get("rayclusters -o name"), "");
  ASSERT_TRUE(s.Run("apply -f - <<EOF\n" + testing::SampleYaml("ray-cluster-kuberay", 1) + "EOF\n")) << s.err;
  EXPECT_TRUE(Complete(s, "rayjob-use-existing-raycluster"))
      << s.err << s.Get("rayjob rayjob-use-existing-raycluster -o yaml");
}

}  // namespace
}  // namespace kuberay
