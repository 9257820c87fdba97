#include "core/operators/kuberay/rayjob/reconciler.h"

#include <gtest/gtest.h>

#include <string>

#include "core/operators/kuberay/common/civil_time.h"
#include "core/operators/kuberay/common/utils.h"
#include "core/operators/kuberay/rayjob/validation.h"
#include "tests/operators/kuberay/rayjob/ray_harness.h"

namespace kuberay::rayjob {
namespace {

using api::Json;
using testing::ClusterSpec;
using testing::RayHarness;

constexpr base::Duration kSecond = base::kSecond;

Json NewRayJob(const std::string& name, const std::string& mode, const Json& spec_patch = {},
               const Json& annotations = Json::object()) {
  Json job = {{"apiVersion", "ray.io/v1"},
              {"kind", "RayJob"},
              {"metadata", {{"name", name}, {"namespace", "default"}, {"annotations", annotations}}},
              {"spec",
               {{"entrypoint", "python /home/ray/samples/sample_code.py"},
                {"submissionMode", mode},
                {"rayClusterSpec", ClusterSpec()}}}};
  if (!spec_patch.is_null()) job["spec"].merge_patch(spec_patch);
  return job;
}

std::string Deploy(const RayHarness& h, const std::string& name = "job") {
  return h.Str("RayJob", name, "/status/jobDeploymentStatus");
}
std::string JobStatus(const RayHarness& h, const std::string& name = "job") {
  return h.Str("RayJob", name, "/status/jobStatus");
}
std::string ClusterName(const RayHarness& h, const std::string& name = "job") {
  return h.Str("RayJob", name, "/status/rayClusterName");
}

// ---- validation -------------------------------------------------------------------------------

TEST(ValidateRayJob, RejectsWhatUpstreamRejects) {
  struct Case {
    const char* what;
    Json patch;
    std::string needle;
  };
  const std::vector<Case> cases = {
      {"suspend without shutdown", Json{{"suspend", true}}, "not allowed to be suspended"},
      {"ttl without shutdown", Json{{"ttlSecondsAfterFinished", 10}}, "TTLSecondsAfterFinished"},
      {"selector and spec", Json{{"clusterSelector", {{"ray.io/cluster", "c"}}}}, "only one of"},
      {"interactive with retries", Json{{"submissionMode", "InteractiveMode"}, {"backoffLimit", 1}},
       "InteractiveMode"},
      {"sidecar submitter template",
       Json{{"submissionMode", "SidecarMode"}, {"submitterPodTemplate", Json::object()}},
       "SubmitterPodTemplate"},
      {"zero deadline", Json{{"activeDeadlineSeconds", 0}}, "activeDeadlineSeconds"},
      {"bad runtime env", Json{{"runtimeEnvYAML", "pip: [x"}}, "RuntimeEnvYAML"},
      {"rules with shutdown",
       Json{{"shutdownAfterJobFinishes", true},
            {"deletionStrategy",
             {{"deletionRules",
               Json::array({Json{{"policy", "DeleteCluster"},
                                 {"condition", {{"jobStatus", "SUCCEEDED"}}}}})}}}},
       "mutually exclusive"},
      {"rules ttl order",
       Json{{"deletionStrategy",
             {{"deletionRules",
               Json::array({Json{{"policy", "DeleteCluster"},
                                 {"condition", {{"jobStatus", "FAILED"}, {"ttlSeconds", 10}}}},
                            Json{{"policy", "DeleteWorkers"},
                                 {"condition", {{"jobStatus", "FAILED"}, {"ttlSeconds", 20}}}}})}}}},
       "order"},
  };
  EXPECT_TRUE(ValidateRayJob(NewRayJob("job", "K8sJobMode"), true).ok());
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    base::Status s = ValidateRayJob(NewRayJob("job", "K8sJobMode", c.patch), true);
    EXPECT_EQ(s.code(), base::StatusCode::kInvalid);
    EXPECT_NE(s.message().find(c.needle), std::string::npos) << s.message();
  }
  EXPECT_FALSE(ValidateRayJob(NewRayJob(std::string(48, 'a'), "K8sJobMode"), true).ok());
  EXPECT_FALSE(ValidateRayJob(NewRayJob("Job", "K8sJobMode"), true).ok());
}

TEST(InconsistentRayJobStatus, OnlyTheFieldsUpstreamCompares) {
  const Json a = Json::parse(R"({"jobStatus":"RUNNING","jobDeploymentStatus":"Running",
      "dashboardURL":"x","rayClusterStatus":{"state":"ready","lastUpdateTime":"t1"}})");
  Json b = a;
  b["dashboardURL"] = "y";
  b["rayClusterStatus"]["lastUpdateTime"] = "t2";
  EXPECT_FALSE(InconsistentRayJobStatus(a, b));
  b["rayClusterStatus"]["state"] = "suspended";
  EXPECT_TRUE(InconsistentRayJobStatus(a, b));
  b = a;
  b["jobStatus"] = "SUCCEEDED";
  EXPECT_TRUE(InconsistentRayJobStatus(a, b));
}

// ---- the controller in a running simulation -----------------------------------------------------

// mirrors rayjob_controller_test.go "Should create a RayCluster and submit the job (HTTPMode)"
TEST(RayJobController, HTTPModeCreatesTheClusterSubmitsAndCompletes) {
  RayHarness h;
  h.Create(NewRayJob("job", "HTTPMode", {}, Json{{"sim.reconcile-lab.io/job-runtime", "4s"}}));
  h.Run(kSecond);
  api::ObjectPtr job = h.Get("RayJob", "job");
  EXPECT_TRUE(api::HasFinalizer(*job, kRayJobStopJobFinalizer));
  EXPECT_EQ(Deploy(h), "Initializing");
  EXPECT_EQ(JobStatus(h), "");
  const std::string cluster = ClusterName(h);
  EXPECT_EQ(cluster.rfind("job-", 0), 0u);
  EXPECT_EQ(cluster.size(), 9u);
  EXPECT_EQ(h.Str("RayJob", "job", "/status/jobId").rfind("job-", 0), 0u);
  EXPECT_EQ(h.Str("RayJob", "job", "/status/startTime"), "2026-01-01T00:00:00Z");
  api::ObjectPtr rc = h.Get("RayCluster", cluster);
  ASSERT_NE(rc, nullptr);
  EXPECT_EQ(api::Labels(*rc).at("ray.io/originated-from-crd"), "RayJob");
  EXPECT_EQ(api::Labels(*rc).at("ray.io/originated-from-cr-name"), "job");
  EXPECT_EQ(api::Labels(*rc).at("ray.io/job-submission-mode"), "HTTPMode");
  EXPECT_EQ((*rc)["spec"], (*job)["spec"]["rayClusterSpec"]) << "a copy of rayClusterSpec";
  EXPECT_EQ(api::GetControllerOf(*rc)->kind, "RayJob");

  h.Run(5 * kSecond);
  EXPECT_EQ(Deploy(h), "Initializing") << "waits for the RayCluster to be ready";
  h.MakeClusterReady(cluster);
  h.Run(4 * kSecond);
  EXPECT_EQ(Deploy(h), "Running");
  EXPECT_EQ(h.Str("RayJob", "job", "/status/dashboardURL"),
            cluster + "-head-svc.default.svc.cluster.local:8265");
  EXPECT_EQ(h.Str("RayJob", "job", "/status/rayClusterStatus/state"), "ready");
  EXPECT_EQ(h.Count("ray.call", {{"op", "submit-job"}}), 1);
  EXPECT_EQ(h.All("Job").size(), 0u) << "HTTPMode has no submitter";
  api::ObjectPtr svc = h.Get("Service", "job-head-svc");
  ASSERT_NE(svc, nullptr) << "the RayJob's own head Service";
  EXPECT_EQ((*svc)["spec"]["selector"]["ray.io/cluster"], cluster);
  EXPECT_EQ(api::Labels(*svc).at("ray.io/identifier"), "job-head");

  h.Run(10 * kSecond);
  EXPECT_EQ(JobStatus(h), "SUCCEEDED");
  EXPECT_EQ(Deploy(h), "Complete");
  EXPECT_EQ(h.Str("RayJob", "job", "/status/rayJobInfo/endTime").empty(), false);
  EXPECT_EQ((*h.Get("RayJob", "job"))["status"]["succeeded"], 1);
  EXPECT_NE(h.Get("RayCluster", cluster), nullptr) << "no shutdownAfterJobFinishes: kept";
  const int64_t mark = h.trace.last_seq();
  h.Run(30 * kSecond);
  EXPECT_EQ(h.Count("reconcile.start", {{"controller", "rayjob"}}, mark), 0)
      << "a finished RayJob without cleanup is not requeued";
}

TEST(RayJobController, K8sJobModeWaitsForTheSubmitterToFinish) {
  RayHarness h;
  h.Create(NewRayJob("job", "K8sJobMode"));
  h.Run(kSecond);
  const std::string cluster = ClusterName(h);
  h.MakeClusterReady(cluster);
  h.Run(4 * kSecond);
  EXPECT_EQ(Deploy(h), "Running");
  api::ObjectPtr submitter = h.Get("Job", "job");
  ASSERT_NE(submitter, nullptr);
  const std::string args = (*submitter)["spec"]["template"]["spec"]["containers"][0]["args"][0];
  EXPECT_NE(args.find("ray job submit --address http://" + cluster +
                      "-head-svc.default.svc.cluster.local:8265 --no-wait"),
            std::string::npos);
  h.Run(6 * kSecond);
  EXPECT_EQ(Deploy(h), "Running");
  EXPECT_EQ(JobStatus(h), "") << "the operator never submits in K8sJobMode";

  // The submitter Pod runs `ray job submit`.
  world::RayJobRecord request;
  request.job_id = h.Str("RayJob", "job", "/status/jobId");
  request.entrypoint = "python /home/ray/samples/sample_code.py";
  ASSERT_TRUE(h.heads.SubmitJob("default", cluster, request).ok());
  h.Run(6 * kSecond);
  EXPECT_EQ(JobStatus(h), "RUNNING");
  h.Run(10 * kSecond);
  EXPECT_EQ(JobStatus(h), "SUCCEEDED");
  EXPECT_EQ(Deploy(h), "Running") << "the submitter has not finished yet";
  h.CompleteSubmitter("job");
  h.Run(4 * kSecond);
  EXPECT_EQ(Deploy(h), "Complete");
}

TEST(RayJobController, FailedSubmitterIsSubmissionFailed) {
  RayHarness h;
  h.Create(NewRayJob("job", "K8sJobMode"));
  h.Run(kSecond);
  h.MakeClusterReady(ClusterName(h));
  h.Run(4 * kSecond);
  h.CompleteSubmitter("job", /*failed=*/true);
  h.Run(4 * kSecond);
  EXPECT_EQ(Deploy(h), "Failed");
  EXPECT_EQ(h.Str("RayJob", "job", "/status/reason"), "SubmissionFailed");
  EXPECT_EQ((*h.Get("RayJob", "job"))["status"]["failed"], 1);
}

TEST(RayJobController, BackoffLimitRetriesOnANewClusterThenFails) {
  RayHarness h;
  h.Create(NewRayJob("job", "HTTPMode", Json{{"backoffLimit", 1}},
                     Json{{"sim.reconcile-lab.io/job-runtime", "2s"},
                          {"sim.reconcile-lab.io/job-outcome", "FAILED"}}));
  h.Run(kSecond);
  const std::string first = ClusterName(h);
  const std::string first_id = h.Str("RayJob", "job", "/status/jobId");
  h.MakeClusterReady(first);
  h.Run(12 * kSecond);
  EXPECT_EQ(h.Count("api.request", {{"verb", "update"}, {"kind", "RayJob"}, {"subresource", "status"}}) > 0, true);
  EXPECT_EQ(h.Get("RayCluster", first), nullptr) << "Retrying deleted the first cluster";
  const std::string second = ClusterName(h);
  ASSERT_FALSE(second.empty());
  EXPECT_NE(second, first);
  EXPECT_NE(h.Str("RayJob", "job", "/status/jobId"), first_id) << "a retry gets a new job id";
  EXPECT_EQ((*h.Get("RayJob", "job"))["status"]["failed"], 1);
  EXPECT_EQ(Deploy(h), "Initializing");
  h.MakeClusterReady(second);
  h.Run(12 * kSecond);
  EXPECT_EQ(Deploy(h), "Failed");
  EXPECT_EQ(h.Str("RayJob", "job", "/status/reason"), "AppFailed");
  EXPECT_EQ((*h.Get("RayJob", "job"))["status"]["failed"], 2);
  EXPECT_EQ(JobStatus(h), "FAILED");
}

TEST(RayJobController, ActiveDeadlineFailsWithoutRetry) {
  RayHarness h;
  h.Create(NewRayJob("job", "HTTPMode", Json{{"activeDeadlineSeconds", 5}, {"backoffLimit", 2}}));
  h.Run(10 * kSecond);
  EXPECT_EQ(Deploy(h), "Failed");
  EXPECT_EQ(h.Str("RayJob", "job", "/status/reason"), "DeadlineExceeded");
  EXPECT_NE(h.Str("RayJob", "job", "/status/message").find("activeDeadlineSeconds"),
            std::string::npos);
}

TEST(RayJobController, SuspendDeletesTheClusterAndResumeStartsOver) {
  RayHarness h;
  h.Create(NewRayJob("job", "K8sJobMode", Json{{"shutdownAfterJobFinishes", true}}));
  h.Run(kSecond);
  const std::string first = ClusterName(h);
  h.MakeClusterReady(first);
  h.Run(4 * kSecond);
  ASSERT_EQ(Deploy(h), "Running");
  ASSERT_NE(h.Get("Job", "job"), nullptr);
  h.Patch("RayJob", "job", Json{{"spec", {{"suspend", true}}}});
  h.Run(8 * kSecond);
  EXPECT_EQ(Deploy(h), "Suspended");
  EXPECT_EQ(h.Get("RayCluster", first), nullptr);
  EXPECT_EQ(h.Get("Job", "job"), nullptr);
  EXPECT_EQ(ClusterName(h), "");
  EXPECT_EQ(h.Str("RayJob", "job", "/status/jobId"), "");
  h.Patch("RayJob", "job", Json{{"spec", {{"suspend", false}}}});
  h.Run(2 * kSecond);
  EXPECT_EQ(Deploy(h), "Initializing");
  EXPECT_FALSE(ClusterName(h).empty());
  EXPECT_NE(ClusterName(h), first);
}

TEST(RayJobController, ShutdownAfterJobFinishesDeletesTheClusterAfterTheTtl) {
  RayHarness h;
  h.Create(NewRayJob("job", "HTTPMode",
                     Json{{"shutdownAfterJobFinishes", true}, {"ttlSecondsAfterFinished", 10}},
                     Json{{"sim.reconcile-lab.io/job-runtime", "2s"}}));
  h.Run(kSecond);
  const std::string cluster = ClusterName(h);
  h.MakeClusterReady(cluster);
  h.Run(10 * kSecond);
  ASSERT_EQ(Deploy(h), "Complete");
  const std::optional<base::SimTime> end =
      utils::ParseRfc3339(h.Str("RayJob", "job", "/status/endTime"));
  ASSERT_TRUE(end.has_value());
  h.Run(*end + 9 * kSecond - h.clock.Now());
  EXPECT_NE(h.Get("RayCluster", cluster), nullptr) << "before the TTL";
  h.Run(4 * kSecond);
  EXPECT_EQ(h.Count("api.request", {{"verb", "delete"}, {"kind", "RayCluster"}}), 1);
  EXPECT_NE(h.Get("RayJob", "job"), nullptr) << "the RayJob stays";
}

TEST(RayJobController, DeleteRayJobCrAfterJobFinishesDeletesTheRayJob) {
  rayjob::Options o;
  o.delete_rayjob_cr_after_job_finishes = true;
  RayHarness h(o);
  h.Create(NewRayJob("job", "HTTPMode", Json{{"shutdownAfterJobFinishes", true}},
                     Json{{"sim.reconcile-lab.io/job-runtime", "2s"}}));
  h.Run(kSecond);
  h.MakeClusterReady(ClusterName(h));
  h.Run(15 * kSecond);
  EXPECT_EQ(h.Get("RayJob", "job"), nullptr) << "deleted, and its finalizer removed";
}

TEST(RayJobController, DeletionRulesRunTheMostImpactfulOverdueRule) {
  RayHarness h;
  const Json rules = Json::array(
      {Json{{"policy", "DeleteWorkers"}, {"condition", {{"jobStatus", "SUCCEEDED"}, {"ttlSeconds", 0}}}},
       Json{{"policy", "DeleteCluster"}, {"condition", {{"jobStatus", "SUCCEEDED"}, {"ttlSeconds", 20}}}},
       Json{{"policy", "DeleteSelf"}, {"condition", {{"jobStatus", "FAILED"}, {"ttlSeconds", 0}}}}});
  h.Create(NewRayJob("job", "HTTPMode", Json{{"deletionStrategy", {{"deletionRules", rules}}}},
                     Json{{"sim.reconcile-lab.io/job-runtime", "2s"}}));
  h.Run(kSecond);
  const std::string cluster = ClusterName(h);
  h.MakeClusterReady(cluster);
  h.Run(10 * kSecond);
  ASSERT_EQ(Deploy(h), "Complete");
  EXPECT_EQ((*h.Get("RayCluster", cluster))["spec"]["workerGroupSpecs"][0]["suspend"], true)
      << "DeleteWorkers (ttl 0) suspended the worker groups";
  h.Run(25 * kSecond);
  EXPECT_EQ(h.Get("RayCluster", cluster), nullptr) << "DeleteCluster at endTime + 20s";
  EXPECT_NE(h.Get("RayJob", "job"), nullptr) << "the FAILED rule does not match";
}

TEST(RayJobController, ClusterSelectorUsesTheExistingClusterAndNeverDeletesIt) {
  RayHarness h;
  h.Create(Json{{"apiVersion", "ray.io/v1"},
                {"kind", "RayCluster"},
                {"metadata", {{"name", "shared"}, {"namespace", "default"}}},
                {"spec", ClusterSpec()}});
  h.MakeClusterReady("shared");
  Json job = NewRayJob("job", "HTTPMode", Json{{"clusterSelector", {{"ray.io/cluster", "shared"}}}},
                       Json{{"sim.reconcile-lab.io/job-runtime", "2s"}});
  job["spec"].erase("rayClusterSpec");
  h.Create(job);
  h.Run(20 * kSecond);
  EXPECT_EQ(ClusterName(h), "shared");
  EXPECT_EQ(Deploy(h), "Complete");
  EXPECT_EQ(h.All("RayCluster").size(), 1u);
  EXPECT_EQ(h.Get("Service", "job-head-svc"), nullptr) << "no RayJob head Service";
  ASSERT_TRUE(h.admin.Delete("RayJob", "default", "job", {}).ok());
  h.Run(5 * kSecond);
  EXPECT_EQ(h.Get("RayJob", "job"), nullptr);
  EXPECT_NE(h.Get("RayCluster", "shared"), nullptr);
}

TEST(RayJobController, InteractiveModeWaitsForTheUsersJobId) {
  RayHarness h;
  h.Create(NewRayJob("job", "InteractiveMode", {}, Json{{"sim.reconcile-lab.io/job-runtime", "2s"}}));
  h.Run(kSecond);
  EXPECT_EQ(h.Str("RayJob", "job", "/status/jobId"), "") << "no generated id in InteractiveMode";
  const std::string cluster = ClusterName(h);
  h.MakeClusterReady(cluster);
  h.Run(6 * kSecond);
  EXPECT_EQ(Deploy(h), "Waiting");
  world::RayJobRecord request;
  request.job_id = "raysubmit_abc";
  ASSERT_TRUE(h.heads.SubmitJob("default", cluster, request).ok());
  h.Patch("RayJob", "job", Json{{"spec", {{"jobId", "raysubmit_abc"}}}});
  h.Run(10 * kSecond);
  EXPECT_EQ(h.Str("RayJob", "job", "/status/jobId"), "raysubmit_abc");
  EXPECT_EQ(Deploy(h), "Complete");
}

TEST(RayJobController, SidecarModeAddsTheSubmitterToTheHeadPod) {
  RayHarness h;
  h.Create(NewRayJob("job", "SidecarMode"));
  h.Run(kSecond);
  api::ObjectPtr rc = h.Get("RayCluster", ClusterName(h));
  ASSERT_NE(rc, nullptr);
  const Json& pod_spec = (*rc)["spec"]["headGroupSpec"]["template"]["spec"];
  ASSERT_EQ(pod_spec["containers"].size(), 2u);
  EXPECT_EQ(pod_spec["containers"][1]["name"], "ray-job-submitter");
  EXPECT_EQ(pod_spec["restartPolicy"], "Never");
  EXPECT_EQ(api::Annotations(*rc).at("ray.io/disable-provisioned-head-restart"), "true");
  EXPECT_EQ(h.All("Job").size(), 0u);
}

TEST(RayJobController, DeletingARunningRayJobStopsTheRayJobFirst) {
  RayHarness h;
  h.Create(NewRayJob("job", "HTTPMode", {}, Json{{"sim.reconcile-lab.io/job-runtime", "60s"}}));
  h.Run(kSecond);
  const std::string cluster = ClusterName(h);
  const std::string id = h.Str("RayJob", "job", "/status/jobId");
  h.MakeClusterReady(cluster);
  h.Run(8 * kSecond);
  ASSERT_EQ(JobStatus(h), "RUNNING");
  ASSERT_TRUE(h.admin.Delete("RayJob", "default", "job", {}).ok());
  h.Run(2 * kSecond);
  EXPECT_EQ(h.Get("RayJob", "job"), nullptr);
  EXPECT_EQ(h.heads.GetJob("default", cluster, id)->status, "STOPPED");
}

TEST(RayJobController, InvalidSpecIsValidationFailedAndNotRequeued) {
  RayHarness h;
  h.Create(NewRayJob("job", "HTTPMode", Json{{"suspend", true}}));
  h.Run(10 * kSecond);
  EXPECT_EQ(Deploy(h), "ValidationFailed");
  EXPECT_EQ(h.Str("RayJob", "job", "/status/reason"), "ValidationFailed");
  EXPECT_EQ(h.Count("reconcile.start", {{"controller", "rayjob"}}), 2)
      << "the first pass and the one its status write triggered";
  EXPECT_EQ(h.All("RayCluster").size(), 0u);
}

TEST(RayJobController, UnreachableDashboardTimesOutTheStatusCheck) {
  rayjob::Options o;
  o.status_check_timeout = 20 * kSecond;
  RayHarness h(o);
  h.Create(NewRayJob("job", "HTTPMode", {}, Json{{"sim.reconcile-lab.io/job-runtime", "300s"}}));
  h.Run(kSecond);
  const std::string cluster = ClusterName(h);
  h.MakeClusterReady(cluster);
  h.Run(8 * kSecond);
  ASSERT_EQ(JobStatus(h), "RUNNING");
  h.heads.SetUnavailable("default", cluster, true);
  h.Run(4 * kSecond);
  EXPECT_FALSE(h.Str("RayJob", "job", "/status/jobStatusCheckFailureStartTime").empty());
  h.Run(24 * kSecond);
  EXPECT_EQ(Deploy(h), "Failed");
  EXPECT_EQ(h.Str("RayJob", "job", "/status/reason"), "JobStatusCheckTimeoutExceeded");
}

}  // namespace
}  // namespace kuberay::rayjob

namespace kuberay::rayjob {
namespace {

TEST(RayJobController, GarbledStatusesNeverCrashTheOperator) {
  RayHarness h;
  h.Create(NewRayJob("job", "K8sJobMode"));
  h.Run(kSecond);
  h.MakeClusterReady(ClusterName(h));
  h.Run(4 * kSecond);
  ASSERT_EQ(Deploy(h), "Running");
  auto patched = h.admin.PatchStatus(
      "Job", "default", "job", client::PatchType::kJsonMerge,
      Json::parse(R"({"status":{"conditions":[{"type":"Failed","status":"True","reason":3,
                     "message":["x"],"lastTransitionTime":false}]}})"));
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  h.Run(4 * kSecond);
  EXPECT_EQ(Deploy(h), "Failed");
  EXPECT_EQ(h.Str("RayJob", "job", "/status/reason"), "SubmissionFailed");
  EXPECT_EQ(h.Str("RayJob", "job", "/status/message"), "Job submission has failed. Reason: . Message: ");
}

}  // namespace
}  // namespace kuberay::rayjob
