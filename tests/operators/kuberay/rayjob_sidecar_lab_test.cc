// RayJob SidecarMode in the whole simulated cluster: KubeRay adds the `ray-job-submitter`
// container to the head Pod (restartPolicy Never), the lab's submitter runtime plays its
// `ray job submit` (which waits for the job), the container exits and the RayJob completes
// without any submitter Job.
// Mirrors: ray-operator/test/e2erayjob/rayjob_sidecar_mode_test.go (TestRayJobSidecarMode:
// "Successful RayJob", "Failing RayJob without cluster shutdown after finished").
#include <string>

#include <gtest/gtest.h>

#include "core/lab/ray_submitter.h"
#include "tests/operators/kuberay/lab_session.h"

namespace kuberay {
namespace {

using testing::LabSession;

std::string SidecarJob(const std::string& name, bool shutdown, const std::string& outcome) {
  return "apiVersion: ray.io/v1\n"
         "kind: RayJob\n"
         "metadata:\n"
         "  name: " + name + "\n"
         "  annotations:\n"
         "    sim.reconcile-lab.io/job-outcome: " + outcome + "\n"
         "spec:\n"
         "  submissionMode: SidecarMode\n"
         "  entrypoint: python /home/ray/jobs/counter.py\n"
         "  shutdownAfterJobFinishes: " + (shutdown ? "true" : "false") + "\n"
         "  rayClusterSpec:\n"
         "    rayVersion: \"2.52.0\"\n"
         "    headGroupSpec:\n"
         "      rayStartParams: {}\n"
         "      template:\n"
         "        spec:\n"
         "          containers:\n"
         "          - name: ray-head\n"
         "            image: rayproject/ray:2.52.0\n"
         "            ports:\n"
         "            - {containerPort: 8265, name: dashboard}\n"
         "    workerGroupSpecs:\n"
         "    - groupName: small-group\n"
         "      replicas: 1\n"
         "      minReplicas: 1\n"
         "      maxReplicas: 1\n"
         "      rayStartParams: {}\n"
         "      template:\n"
         "        spec:\n"
         "          containers:\n"
         "          - name: ray-worker\n"
         "            image: rayproject/ray:2.52.0\n";
}

constexpr const char* kOperatorUp =
    "wait --for=condition=Available deploy/kuberay-operator --timeout=60s\n";

TEST(ParseSubmitterCommand, ReadsSidecarModesLocalSubmitThatWaits) {
  lab::SubmitterCommand cmd;
  ASSERT_TRUE(lab::ParseSubmitterCommand(
      "until python -c \"...\" >/dev/null 2>&1 ; do echo \"Waiting\" ; sleep 2 ; done ; "
      "ray job submit --address http://127.0.0.1:8265 --submission-id rj-xyz -- python a.py",
      &cmd));
  EXPECT_TRUE(cmd.local);
  EXPECT_EQ(cmd.cluster, "");
  EXPECT_EQ(cmd.job_id, "rj-xyz");
  EXPECT_EQ(cmd.entrypoint, "python a.py");
  EXPECT_FALSE(lab::ParseSubmitterCommand(
      "ray job submit --address http://127.0.0.1:8265 --no-wait --submission-id x -- a", &cmd))
      << "a local submit that does not wait is no KubeRay line";
}

// mirrors TestRayJobSidecarMode "Successful RayJob"
TEST(RayJobSidecarLab, TestRayJobSidecarMode_SuccessfulRayJob) {
  LabSession s;
  ASSERT_TRUE(s.Run(std::string(kOperatorUp) + "apply -f - <<EOF\n" +
                    SidecarJob("counter", true, "SUCCEEDED") + "EOF\n"))
      << s.err;
  ASSERT_TRUE(s.Run("wait --for=jsonpath='{.status.jobDeploymentStatus}'=Running rayjob/counter --timeout=120s\n"))
      << s.err << s.Get("rayjob counter -o yaml");
  const std::string cluster = s.Get("rayjob counter -o jsonpath={.status.rayClusterName}");
  ASSERT_FALSE(cluster.empty());
  const std::string head = "pods -l ray.io/cluster=" + cluster + ",ray.io/node-type=head";
  EXPECT_EQ(s.Get(head + " -o jsonpath='{.items[0].spec.containers[*].name}'"), "ray-head ray-job-submitter");
  EXPECT_EQ(s.Get(head + " -o jsonpath='{.items[0].spec.restartPolicy}'"), "Never");
  EXPECT_EQ(s.Get("raycluster " + cluster +
                  " -o jsonpath='{.metadata.annotations.ray\\.io/disable-provisioned-head-restart}'"),
            "true");

  ASSERT_TRUE(s.Run("wait --for=jsonpath='{.status.jobDeploymentStatus}'=Complete rayjob/counter --timeout=120s\n"))
      << s.err << s.Get("rayjob counter -o yaml") << s.Get(head + " -o yaml");
  EXPECT_EQ(s.Get("rayjob counter -o jsonpath={.status.jobStatus}"), "SUCCEEDED");
  EXPECT_EQ(s.Get("jobs -o name"), "") << "SidecarMode creates no submitter Job";
  // shutdownAfterJobFinishes with ttlSecondsAfterFinished 0: the cluster goes at once.
  EXPECT_TRUE(s.Run("wait --for=delete raycluster/" + cluster + " --timeout=30s\n")) << s.err;
}

// mirrors TestRayJobSidecarMode "Failing RayJob without cluster shutdown after finished": the
// submitter container ended, the Ray job FAILED → Failed/AppFailed; the head keeps running
// (not Ready) with the submitter terminated.
TEST(RayJobSidecarLab, TestRayJobSidecarMode_FailingRayJobWithoutClusterShutdown) {
  LabSession s;
  ASSERT_TRUE(s.Run(std::string(kOperatorUp) + "apply -f - <<EOF\n" +
                    SidecarJob("fail", false, "FAILED") + "EOF\n" +
                    "wait --for=jsonpath='{.status.jobDeploymentStatus}'=Failed rayjob/fail --timeout=180s\n"))
      << s.err << s.Get("rayjob fail -o yaml");
  EXPECT_EQ(s.Get("rayjob fail -o jsonpath={.status.jobStatus}"), "FAILED");
  EXPECT_EQ(s.Get("rayjob fail -o jsonpath={.status.reason}"), "AppFailed");
  const std::string cluster = s.Get("rayjob fail -o jsonpath={.status.rayClusterName}");
  ASSERT_TRUE(s.Run("run 30s\n")) << s.err;
  EXPECT_TRUE(s.Exists("raycluster", cluster));
  const std::string head = "pods -l ray.io/cluster=" + cluster + ",ray.io/node-type=head";
  EXPECT_EQ(s.Get(head + " -o jsonpath='{.items[0].status.phase}'"), "Running");
  EXPECT_EQ(s.Get(head + " -o jsonpath='{.items[0].status.containerStatuses[1].state.terminated.exitCode}'"), "0");
  EXPECT_EQ(s.Get(head + " -o jsonpath='{.items[0].status.conditions[?(@.type==\"Ready\")].status}'"), "False");
  EXPECT_EQ(LabSession::Lines(s.Get(head + " -o name")), 1) << "the head is not recreated";
}

}  // namespace
}  // namespace kuberay
