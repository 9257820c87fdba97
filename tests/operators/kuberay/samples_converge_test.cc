// KubeRay's own RayJob and RayService samples, applied unchanged, converge in the whole
// simulated cluster: the RayJob through its submitter Job (K8sJobMode), the RayService through
// Serve on the simulated Ray head. The samples are read from ../shared beside the checkout.
#include <string>

#include <gtest/gtest.h>

#include "core/lab/lab.h"
#include "core/lab/ray_submitter.h"
#include "tests/operators/kuberay/fixtures.h"

namespace {

struct Session {
  lab::Lab lab{lab::SimulationOptions{}};
  std::string out, err;
  bool Run(const std::string& script, const std::string& base_dir = ".") {
    auto outcome = lab.RunScript(script, base_dir, false,
                                 [this](const lab::ScriptLine&, const lab::CommandResult& r) {
                                   out += r.out;
                                   err += r.err;
                                 });
    return outcome.ok;
  }
  std::string Get(const std::string& args) {
    lab::CommandResult r = lab.ExecuteText("get " + args);
    err += r.err;
    return r.out;
  }
};

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
  EXPECT_NE(s.Get("rayservice rayservice-sample -o jsonpath={.status.numServeEndpoints}"), "0");
}

}  // namespace
