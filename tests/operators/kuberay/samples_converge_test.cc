// KubeRay's own RayJob and RayService samples, applied unchanged, converge in the whole
// simulated cluster: the RayJob through its submitter Job (K8sJobMode), the RayService through
// Serve on the simulated Ray head (with the head Pod's ray.io/serve label following its proxy),
// and the sample RayCluster's head Service IP reaches its status. The samples are read from
// ../shared beside the checkout (the other RayJob samples: samples_rayjob_test.cc; the
// RayCluster samples: raycluster_lab_test.cc).
#include <string>

#include <gtest/gtest.h>

#include "core/lab/lab.h"
#include "core/lab/ray_submitter.h"
#include "tests/operators/kuberay/fixtures.h"
#include "tests/operators/kuberay/lab_session.h"

namespace {

using Session = kuberay::testing::LabSession;

constexpr const char* kOperatorUp =
    "wait --for=condition=Available deploy/kuberay-operator --timeout=60s\n";

TEST(ParseSubmitterCommand, ReadsClusterJobIdAndEntrypointFromKubeRaysLine) {
  lab::SubmitterCommand cmd;
  ASSERT_TRUE(lab::ParseSubmitterCommand(
      "until python -c \"...\" >/dev/null 2>&1 ; do echo \"Waiting\" ; sleep 2 ; done ; "
      "if ! ray job status --address http://rj-abcde-head-svc.default.svc.cluster.local:8265 "
      "rj-xyz >/dev/null 2>&1 ; then ray job submit --address "
      "http://rj-abcde-head-svc.default.svc.cluster.local:8265 --no-wait --submission-id rj-xyz "
      "-- python /home/ray/samples/sample_code.py ; fi ; ray job logs --address "
      "http://rj-abcde-head-svc.default.svc.cluster.local:8265 --follow rj-xyz",
      &cmd));
  EXPECT_EQ(cmd.cluster, "rj-abcde");
  EXPECT_EQ(cmd.job_id, "rj-xyz");
  EXPECT_EQ(cmd.entrypoint, "python /home/ray/samples/sample_code.py");
  EXPECT_FALSE(lab::ParseSubmitterCommand("sleep 3600", &cmd));
  EXPECT_FALSE(lab::ParseSubmitterCommand("ray job submit --address http://x:8265 -- a", &cmd))
      << "no --no-wait: not the K8sJobMode line";
  EXPECT_FALSE(lab::ParseSubmitterCommand(
      "ulimit -n 65536; ray start --address=rc-head-svc.default.svc.cluster.local:6379 --block",
      &cmd))
      << "a worker's `ray start` line";
  ASSERT_TRUE(lab::ParseSubmitterCommand(
      "ray\tjob  submit --address http://rc-head-svc.ns.svc.cluster.local:8265 --no-wait "
      "--submission-id j1 -- python a.py",
      &cmd))
      << "words split on any whitespace, as the shell splits them";
  EXPECT_EQ(cmd.cluster, "rc");
  EXPECT_EQ(cmd.job_id, "j1");
}

TEST(KubeRaySamples, RayJobSampleSucceedsThroughItsSubmitterJob) {
  REQUIRE_SAMPLES(dir);
  Session s;
  ASSERT_TRUE(s.Run(std::string(kOperatorUp) + "apply -f ray-job.sample.yaml\n", dir)) << s.err;
  ASSERT_TRUE(s.Run("wait --for=jsonpath='{.status.jobDeploymentStatus}'=Complete "
                    "rayjob/rayjob-sample --timeout=120s\n"))
      << s.err << s.Get("rayjob rayjob-sample -o yaml");
  EXPECT_EQ(s.Get("rayjob rayjob-sample -o jsonpath={.status.jobStatus}"), "SUCCEEDED");
  // The submitter's `ray job logs --follow` returned, its container exited 0: the Job completes.
  ASSERT_TRUE(s.Run("wait --for=condition=Complete job/rayjob-sample --timeout=60s\n"))
      << s.err << s.Get("pods -o wide");
  EXPECT_EQ(s.Get("job rayjob-sample -o jsonpath={.status.succeeded}"), "1");
}

TEST(KubeRaySamples, RayServiceSampleServesFromItsCluster) {
  REQUIRE_SAMPLES(dir);
  Session s;
  ASSERT_TRUE(s.Run(std::string(kOperatorUp) + "apply -f ray-service.sample.yaml\n", dir)) << s.err;
  ASSERT_TRUE(s.Run("wait --for=condition=Ready rayservice/rayservice-sample --timeout=120s\n"))
      << s.err << s.Get("rayservice rayservice-sample -o yaml");
  EXPECT_EQ(s.Get("rayservice rayservice-sample -o jsonpath={.status.serviceStatus}"), "Running");
  EXPECT_EQ(s.Get("svc rayservice-sample-serve-svc -o name"), "service/rayservice-sample-serve-svc\n");
  // updateHeadPodServeLabel: the head's Serve proxy is healthy, so the head joins the serve
  // Service next to the worker.
  ASSERT_TRUE(s.Run("wait --for=jsonpath='{.status.numServeEndpoints}'=2 rayservice/rayservice-sample "
                    "--timeout=30s\n"))
      << s.err << s.Get("rayservice rayservice-sample -o yaml");
  EXPECT_EQ(s.Get("pods -l ray.io/node-type=head -o jsonpath='{.items[0].metadata.labels.ray\\.io/serve}'"),
            "true");
  EXPECT_NE(s.Get("events -o jsonpath='{.items[?(@.reason==\"UpdatedHeadPodServeLabel\")].message}'")
                .find("Updated the serve label to \"true\" for the Head Pod default/"),
            std::string::npos);
  // The serve Service is a ClusterIP Service: the API server gave it an address of the range.
  EXPECT_EQ(s.Get("svc rayservice-sample-serve-svc -o jsonpath={.spec.clusterIP}").rfind("10.96.", 0), 0u);
  EXPECT_EQ(s.Get("svc rayservice-sample-head-svc -o jsonpath={.spec.clusterIP}"), "None");
}

// mirrors rayservice_controller_unit_test.go TestUpdateHeadPodServeLabel: the label follows the
// proxy's health, and excludeHeadPodFromServeSvc keeps it "false" whatever the health.
TEST(KubeRaySamples, RayServiceHeadServeLabelFollowsTheProxyUnlessExcluded) {
  REQUIRE_SAMPLES(dir);
  Session s;
  ASSERT_TRUE(s.Run(std::string(kOperatorUp) + "apply -f ray-service.sample.yaml\n" +
                    "wait --for=condition=Ready rayservice/rayservice-sample --timeout=120s\n" +
                    "wait --for=jsonpath='{.status.numServeEndpoints}'=2 rayservice/rayservice-sample --timeout=30s\n",
                    dir))
      << s.err;
  // A spec field outside rayClusterConfig: no new cluster, the next reconcile relabels the head.
  ASSERT_TRUE(s.Run("patch rayservice rayservice-sample --type merge -p '{\"spec\":{\"excludeHeadPodFromServeSvc\":true}}'\n"
                    "wait --for=jsonpath='{.status.numServeEndpoints}'=1 rayservice/rayservice-sample --timeout=30s\n"))
      << s.err << s.Get("pods --show-labels");
  EXPECT_EQ(s.Get("pods -l ray.io/node-type=head -o jsonpath='{.items[0].metadata.labels.ray\\.io/serve}'"),
            "false");
  EXPECT_EQ(s.Get("rayclusters -o name").find('\n'), s.Get("rayclusters -o name").size() - 1)
      << "still one RayCluster";
}

// The head Service is headless by default, so status.head.serviceIP is the head Pod's IP; with
// ENABLE_RAY_HEAD_CLUSTER_IP_SERVICE=true it is a ClusterIP Service and the API server's address
// lands in the status.
TEST(KubeRaySamples, RayClusterSampleHeadServiceIPInStatus) {
  REQUIRE_SAMPLES(dir);
  Session headless;
  ASSERT_TRUE(headless.Run(std::string(kOperatorUp) + "apply -f ray-cluster.sample.yaml\n"
                           "wait --for=jsonpath='{.status.state}'=ready raycluster/raycluster-kuberay --timeout=120s\n",
                           dir))
      << headless.err;
  const std::string pod_ip = headless.Get("raycluster raycluster-kuberay -o jsonpath={.status.head.podIP}");
  EXPECT_FALSE(pod_ip.empty());
  EXPECT_EQ(headless.Get("raycluster raycluster-kuberay -o jsonpath={.status.head.serviceIP}"), pod_ip);

  Session cluster_ip;
  ASSERT_TRUE(cluster_ip.Run("operator set ENABLE_RAY_HEAD_CLUSTER_IP_SERVICE=true\n"
                             "operator restart\n"
                             "run 10s\n" +
                             std::string(kOperatorUp) + "apply -f ray-cluster.sample.yaml\n"
                             "wait --for=jsonpath='{.status.state}'=ready raycluster/raycluster-kuberay --timeout=120s\n",
                             dir))
      << cluster_ip.err;
  const std::string svc_ip =
      cluster_ip.Get("svc raycluster-kuberay-head-svc -o jsonpath={.spec.clusterIP}");
  EXPECT_EQ(svc_ip.rfind("10.96.", 0), 0u) << svc_ip;
  EXPECT_EQ(cluster_ip.Get("raycluster raycluster-kuberay -o jsonpath={.status.head.serviceIP}"), svc_ip);
}

}  // namespace
