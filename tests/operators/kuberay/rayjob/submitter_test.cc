#include "core/operators/kuberay/rayjob/submitter.h"

#include <gtest/gtest.h>

#include <string>

#include "core/operators/kuberay/common/civil_time.h"
#include "core/operators/kuberay/common/names.h"
#include "core/operators/kuberay/common/utils.h"
#include "tests/operators/kuberay/rayjob/ray_harness.h"

namespace kuberay::rayjob {
namespace {

using api::Json;

Json SampleRayJob() {
  return Json{{"apiVersion", "ray.io/v1"},
              {"kind", "RayJob"},
              {"metadata", {{"name", "rayjob-sample"}, {"namespace", "default"}, {"uid", "u-1"}}},
              {"spec",
               {{"entrypoint", "python /home/ray/samples/sample_code.py"},
                {"runtimeEnvYAML", "pip:\n  - requests==2.26.0\n  - pendulum==2.1.2\nenv_vars:\n  counter_name: \"test_counter\"\n"},
                {"metadata", {{"owner", "ml"}}},
                {"entrypointNumCpus", 1},
                {"rayClusterSpec", testing::ClusterSpec()}}},
              {"status",
               {{"jobId", "rayjob-sample-x2b4k"},
                {"dashboardURL", "rayjob-sample-abcde-head-svc.default.svc.cluster.local:8265"}}}};
}

// mirrors ray-operator/controllers/ray/common/job_test.go TestGetK8sJobCommand
TEST(GetK8sJobCommand, WaitsForGcsSubmitsOnceAndFollowsTheLogs) {
  const Json job = SampleRayJob();
  base::StatusOr<std::string> cmd = GetK8sJobCommand(job, job["spec"]["rayClusterSpec"]);
  ASSERT_TRUE(cmd.ok()) << cmd.status().ToString();
  const std::string addr = "http://rayjob-sample-abcde-head-svc.default.svc.cluster.local:8265";
  const std::string expected =
      "until python -c \"import urllib.request; r=urllib.request.urlopen('" + addr +
      "/api/gcs_healthz', timeout=10); exit(0 if b'success' in r.read() else 1)\" >/dev/null 2>&1 ; do echo \"Waiting for Ray Dashboard GCS "
      "to become healthy at " + addr + " ...\" ; sleep 2 ; done ; "
      "if ! ray job status --address " + addr + " rayjob-sample-x2b4k >/dev/null 2>&1 ; then "
      "ray job submit --address " + addr + " --no-wait "
      "--runtime-env-json \"{\\\"env_vars\\\":{\\\"counter_name\\\":\\\"test_counter\\\"},"
      "\\\"pip\\\":[\\\"requests==2.26.0\\\",\\\"pendulum==2.1.2\\\"]}\" "
      "--metadata-json \"{\\\"owner\\\":\\\"ml\\\"}\" "
      "--submission-id rayjob-sample-x2b4k --entrypoint-num-cpus 1.000000 "
      "-- python /home/ray/samples/sample_code.py ; fi ; "
      "ray job logs --address " + addr + " --follow rayjob-sample-x2b4k";
  EXPECT_EQ(*cmd, expected);
}

TEST(GetK8sJobCommand, SidecarModeTalksToTheLocalDashboardWithoutTheStatusWrapper) {
  Json job = SampleRayJob();
  job["spec"]["submissionMode"] = "SidecarMode";
  job["spec"].erase("runtimeEnvYAML");
  job["spec"].erase("metadata");
  job["spec"].erase("entrypointNumCpus");
  base::StatusOr<std::string> cmd = GetK8sJobCommand(job, job["spec"]["rayClusterSpec"]);
  ASSERT_TRUE(cmd.ok());
  EXPECT_EQ(*cmd,
            "until python -c \"import urllib.request; r=urllib.request.urlopen("
            "'http://localhost:8265/api/gcs_healthz', timeout=10); exit(0 if b'success' in "
            "r.read() else 1)\" >/dev/null 2>&1 ; do echo "
            "\"Waiting for Ray Dashboard GCS to become healthy at http://127.0.0.1:8265 ...\" ; "
            "sleep 2 ; done ; ray job submit --address http://127.0.0.1:8265 --submission-id "
            "rayjob-sample-x2b4k -- python /home/ray/samples/sample_code.py ;");
}

TEST(GetRuntimeEnvJson, BadYamlIsInvalid) {
  Json job = SampleRayJob();
  job["spec"]["runtimeEnvYAML"] = "pip: [unclosed";
  EXPECT_EQ(GetRuntimeEnvJson(job).status().code(), base::StatusCode::kInvalid);
  job["spec"].erase("runtimeEnvYAML");
  EXPECT_EQ(*GetRuntimeEnvJson(job), "");
}

TEST(GetK8sJobCommand, MetadataNeedsRay260AndAnEmptyJobIdIsLeftOut) {
  Json job = SampleRayJob();
  job["spec"]["rayClusterSpec"]["rayVersion"] = "2.5.1";
  EXPECT_EQ(GetK8sJobCommand(job, job["spec"]["rayClusterSpec"]).status().code(),
            base::StatusCode::kInvalid);
  job["spec"].erase("metadata");
  job["status"].erase("jobId");
  job["spec"]["entrypoint"] = "  python x.py  ";
  base::StatusOr<std::string> cmd = GetK8sJobCommand(job, job["spec"]["rayClusterSpec"]);
  ASSERT_TRUE(cmd.ok());
  EXPECT_EQ(cmd->find("--submission-id"), std::string::npos);
  EXPECT_NE(cmd->find("-- python x.py ; fi ;"), std::string::npos) << *cmd;
}

// mirrors rayjob_controller_unit_test.go TestGetSubmitterTemplate
TEST(GetSubmitterTemplate, DefaultContainerGetsCommandAndEnvUserCommandIsKept) {
  Json job = SampleRayJob();
  base::StatusOr<Json> tmpl = GetSubmitterTemplate(job, job["spec"]["rayClusterSpec"]);
  ASSERT_TRUE(tmpl.ok());
  const Json& c = (*tmpl)["spec"]["containers"][0];
  EXPECT_EQ((*tmpl)["spec"]["restartPolicy"], "Never");
  EXPECT_EQ(c["name"], "ray-job-submitter");
  EXPECT_EQ(c["image"], "rayproject/ray:2.46.0");
  EXPECT_EQ(c["command"], Json::parse(R"(["/bin/bash","-ce","--"])"));
  EXPECT_EQ(c["resources"]["requests"], Json::parse(R"({"cpu":"500m","memory":"200Mi"})"));
  EXPECT_EQ(c["resources"]["limits"], Json::parse(R"({"cpu":"1","memory":"1Gi"})"));
  EXPECT_EQ(c["env"], Json::parse(R"([{"name":"PYTHONUNBUFFERED","value":"1"},
      {"name":"RAY_DASHBOARD_ADDRESS","value":"rayjob-sample-abcde-head-svc.default.svc.cluster.local:8265"},
      {"name":"RAY_JOB_SUBMISSION_ID","value":"rayjob-sample-x2b4k"}])"));

  job["spec"]["submitterPodTemplate"] = Json::parse(
      R"({"spec":{"restartPolicy":"Never","containers":[{"name":"mine","image":"x","command":["ray","job","submit"]}]}})");
  tmpl = GetSubmitterTemplate(job, job["spec"]["rayClusterSpec"]);
  ASSERT_TRUE(tmpl.ok());
  EXPECT_EQ((*tmpl)["spec"]["containers"][0]["command"], Json::parse(R"(["ray","job","submit"])"));
  EXPECT_FALSE((*tmpl)["spec"]["containers"][0].contains("args"));
}

TEST(BuildSubmitterJob, NamedAfterTheRayJobLabelledAndOwned) {
  Json job = SampleRayJob();
  base::StatusOr<Json> k8s = BuildSubmitterJob(job, job["spec"]["rayClusterSpec"]);
  ASSERT_TRUE(k8s.ok());
  EXPECT_EQ((*k8s)["metadata"]["name"], "rayjob-sample");
  const Json labels = Json::parse(R"({"ray.io/originated-from-cr-name":"rayjob-sample",
      "ray.io/originated-from-crd":"RayJob","app.kubernetes.io/created-by":"kuberay-operator"})");
  EXPECT_EQ((*k8s)["metadata"]["labels"], labels);
  EXPECT_EQ((*k8s)["spec"]["template"]["metadata"]["labels"], labels);
  EXPECT_EQ((*k8s)["spec"]["backoffLimit"], 2);
  EXPECT_EQ((*k8s)["metadata"]["ownerReferences"][0]["kind"], "RayJob");
  job["spec"]["submitterConfig"] = {{"backoffLimit", 0}};
  EXPECT_EQ((*BuildSubmitterJob(job, job["spec"]["rayClusterSpec"]))["spec"]["backoffLimit"], 0);
}

TEST(RayUtils, NamesAndTimestamps) {
  sim::Prng prng(7);
  const std::string name = utils::GenerateRayClusterName("rayjob-sample", prng);
  ASSERT_EQ(name.size(), std::string("rayjob-sample-").size() + 5);
  EXPECT_EQ(name.rfind("rayjob-sample-", 0), 0u);
  for (char c : name.substr(14)) {
    EXPECT_NE(std::string("bcdfghjklmnpqrstvwxz2456789").find(c), std::string::npos);
  }
  EXPECT_EQ(utils::CheckName(std::string(60, 'a')), std::string(50, 'a'));
  EXPECT_EQ(utils::CheckName("1abc"), "rabc");
  EXPECT_EQ(utils::GenerateHeadServiceName("job"), "job-head-svc");
  EXPECT_EQ(utils::ParseRfc3339(base::FormatRfc3339(93784 * base::kSecond)),
            93784 * base::kSecond);
  EXPECT_EQ(utils::ParseRfc3339("2027-03-01T00:00:00Z"),
            (365 + 59) * 24 * 3600 * base::kSecond);
  EXPECT_FALSE(utils::ParseRfc3339("yesterday").has_value());
}

}  // namespace
}  // namespace kuberay::rayjob
