#include "core/world/ray/ray_head.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/apiserver/api_server.h"
#include "core/client/client.h"
#include "core/sim/clock.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace world {
namespace {

using api::Json;
constexpr base::Duration kSecond = base::kSecond;

// MinimalSpec is the smallest RayClusterSpec the CRD schema accepts.
Json MinimalSpec() {
  return Json{{"headGroupSpec",
               {{"rayStartParams", Json::object()},
                {"template",
                 {{"spec", {{"containers", Json::array({Json{{"name", "ray-head"}, {"image", "ray"}}})}}}}}}}};
}

// RayHeadFixture: an API server with RayCluster default/rc and (optionally) its Ready head Pod.
struct RayHeadFixture {
  explicit RayHeadFixture(const Json& annotations = Json::object(), bool head_ready = true) {
    EXPECT_TRUE(admin
                    .Create(Json{{"apiVersion", "v1"},
                                 {"kind", "Namespace"},
                                 {"metadata", {{"name", "default"}}}})
                    .ok());
    Json rc = {{"apiVersion", "ray.io/v1"},
               {"kind", "RayCluster"},
               {"metadata", {{"name", "rc"}, {"namespace", "default"}, {"annotations", annotations}}},
               {"spec", MinimalSpec()}};
    auto made = admin.Create(rc);
    EXPECT_TRUE(made.ok()) << made.status().ToString();
    SetHeadReady(head_ready);
  }
  void SetHeadReady(bool ready) {
    Json pod = {{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata",
                 {{"name", "rc-head-abcde"},
                  {"namespace", "default"},
                  {"labels", {{"ray.io/cluster", "rc"}, {"ray.io/node-type", "head"}}}}},
                {"spec", {{"containers", Json::array({Json{{"name", "ray-head"}, {"image", "ray"}}})}}}};
    api::ObjectPtr existing = api.Peek("Pod", "default", "rc-head-abcde");
    if (existing == nullptr) {
      auto created = admin.Create(pod);
      ASSERT_TRUE(created.ok()) << created.status().ToString();
      existing = *created;
    }
    Json updated = *existing;
    updated["status"] = {{"phase", "Running"},
                         {"conditions", Json::array({Json{{"type", "Ready"},
                                                          {"status", ready ? "True" : "False"}}})}};
    ASSERT_TRUE(admin.UpdateStatus(updated).ok());
  }
  void Advance(base::Duration d) { scheduler.RunUntil(clock.Now() + d, 100000); }
  RayJobRecord Job(const std::string& id) {
    base::StatusOr<RayJobRecord> r = heads.GetJob("default", "rc", id);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : RayJobRecord{};
  }
  std::string AppStatus(const std::string& name) {
    base::StatusOr<std::vector<ServeAppRecord>> apps = heads.GetServeApplications("default", "rc");
    EXPECT_TRUE(apps.ok());
    if (!apps.ok()) return "";
    for (const ServeAppRecord& a : *apps) {
      if (a.name == name) return a.status;
    }
    return "<absent>";
  }

  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  apiserver::ApiServer api{scheduler, trace, sim::Prng(1)};
  client::DirectClient admin{api, apiserver::kAdminUser};
  RayHeads heads{api, clock, trace};
};

RayJobRecord Request(const std::string& id) {
  RayJobRecord r;
  r.job_id = id;
  r.entrypoint = "python /home/ray/samples/sample_code.py";
  return r;
}

TEST(RayHeads, JobGoesPendingRunningSucceededOnVirtualTime) {
  RayHeadFixture f;
  base::StatusOr<std::string> id = f.heads.SubmitJob("default", "rc", Request("job-1"));
  ASSERT_TRUE(id.ok()) << id.status().ToString();
  EXPECT_EQ(*id, "job-1");
  EXPECT_EQ(f.Job("job-1").status, "PENDING");
  EXPECT_EQ(f.Job("job-1").start_time_ms, 0);
  f.Advance(kJobStartDelay);
  EXPECT_EQ(f.Job("job-1").status, "RUNNING");
  EXPECT_EQ(f.Job("job-1").start_time_ms, 1000);
  f.Advance(kDefaultJobRuntime - base::kMillisecond);
  EXPECT_EQ(f.Job("job-1").status, "RUNNING") << "the default runtime is 10s";
  f.Advance(base::kMillisecond);
  const RayJobRecord done = f.Job("job-1");
  EXPECT_EQ(done.status, "SUCCEEDED");
  EXPECT_EQ(done.end_time_ms, 11000);
  base::StatusOr<std::string> logs = f.heads.GetJobLogs("default", "rc", "job-1");
  ASSERT_TRUE(logs.ok());
  EXPECT_NE(logs->find("SUCCEEDED"), std::string::npos);
}

TEST(RayHeads, RuntimeAndOutcomeComeFromTheSandboxAnnotations) {
  for (const std::string outcome : {"FAILED", "STOPPED", "SUCCEEDED"}) {
    SCOPED_TRACE(outcome);
    RayHeadFixture f(Json{{kJobRuntimeAnnotation, "3s"}, {kJobOutcomeAnnotation, outcome}});
    ASSERT_TRUE(f.heads.SubmitJob("default", "rc", Request("j")).ok());
    f.Advance(kJobStartDelay + 3 * kSecond - base::kMillisecond);
    EXPECT_EQ(f.Job("j").status, "RUNNING");
    f.Advance(base::kMillisecond);
    EXPECT_EQ(f.Job("j").status, outcome);
  }
}

TEST(RayHeads, BadAnnotationsFallBackToTheDefaults) {
  RayHeadFixture f(Json{{kJobRuntimeAnnotation, "soon"}, {kJobOutcomeAnnotation, "MAYBE"}});
  ASSERT_TRUE(f.heads.SubmitJob("default", "rc", Request("j")).ok());
  f.Advance(kJobStartDelay + kDefaultJobRuntime);
  EXPECT_EQ(f.Job("j").status, "SUCCEEDED");
}

TEST(RayHeads, StopJobStopsARunningJobAndLeavesTerminalOnesAlone) {
  RayHeadFixture f;
  ASSERT_TRUE(f.heads.SubmitJob("default", "rc", Request("j")).ok());
  f.Advance(2 * kSecond);
  ASSERT_TRUE(f.heads.StopJob("default", "rc", "j").ok());
  EXPECT_EQ(f.Job("j").status, "STOPPED");
  EXPECT_EQ(f.Job("j").end_time_ms, 2000);
  f.Advance(20 * kSecond);
  EXPECT_EQ(f.Job("j").status, "STOPPED");
  EXPECT_EQ(f.heads.StopJob("default", "rc", "missing").code(), base::StatusCode::kNotFound);
}

TEST(RayHeads, UnknownJobIsNotFoundAndDuplicateSubmissionIsRefused) {
  RayHeadFixture f;
  EXPECT_EQ(f.heads.GetJob("default", "rc", "nope").status().code(), base::StatusCode::kNotFound);
  ASSERT_TRUE(f.heads.SubmitJob("default", "rc", Request("j")).ok());
  EXPECT_EQ(f.heads.SubmitJob("default", "rc", Request("j")).status().code(),
            base::StatusCode::kInvalid);
  EXPECT_EQ(f.heads.DeleteJob("default", "rc", "j").code(), base::StatusCode::kInvalid)
      << "a running job cannot be deleted";
  f.Advance(20 * kSecond);
  EXPECT_TRUE(f.heads.DeleteJob("default", "rc", "j").ok());
  EXPECT_EQ(f.heads.GetJob("default", "rc", "j").status().code(), base::StatusCode::kNotFound);
}

TEST(RayHeads, UnavailableWhileTheHeadPodIsNotReady) {
  RayHeadFixture f(Json::object(), /*head_ready=*/false);
  EXPECT_FALSE(f.heads.GcsHealthy("default", "rc"));
  EXPECT_EQ(f.heads.SubmitJob("default", "rc", Request("j")).status().code(),
            base::StatusCode::kServiceUnavailable);
  f.SetHeadReady(true);
  EXPECT_TRUE(f.heads.GcsHealthy("default", "rc"));
  EXPECT_TRUE(f.heads.SubmitJob("default", "rc", Request("j")).ok());
  f.heads.SetUnavailable("default", "rc", true);
  EXPECT_EQ(f.heads.GetJob("default", "rc", "j").status().code(),
            base::StatusCode::kServiceUnavailable);
  f.heads.SetUnavailable("default", "rc", false);
  EXPECT_TRUE(f.heads.GetJob("default", "rc", "j").ok()) << "jobs survive an outage";
  EXPECT_EQ(f.heads.GetJob("default", "other", "j").status().code(),
            base::StatusCode::kServiceUnavailable)
      << "no such RayCluster";
  int calls = 0;
  for (const sim::TraceEvent& e : f.trace.events()) calls += e.type == "ray.call" ? 1 : 0;
  EXPECT_EQ(calls, 5);
}

TEST(RayHeads, ARecreatedClusterStartsWithAnEmptyGcs) {
  RayHeadFixture f;
  ASSERT_TRUE(f.heads.SubmitJob("default", "rc", Request("j")).ok());
  ASSERT_TRUE(f.admin.Delete("RayCluster", "default", "rc", {}).ok());
  f.Advance(kSecond);
  ASSERT_TRUE(f.admin
                  .Create(Json{{"apiVersion", "ray.io/v1"},
                               {"kind", "RayCluster"},
                               {"metadata", {{"name", "rc"}, {"namespace", "default"}}},
                               {"spec", MinimalSpec()}})
                  .ok());
  EXPECT_EQ(f.heads.GetJob("default", "rc", "j").status().code(), base::StatusCode::kNotFound);
}

Json ServeConfig(const std::string& import_path) {
  return Json{{"applications",
               Json::array({Json{{"name", "fruit_app"},
                                 {"import_path", import_path},
                                 {"deployments", Json::array({Json{{"name", "FruitMarket"}}})}},
                            Json{{"name", "math_app"},
                                 {"import_path", "conditional_dag.serve_dag"},
                                 {"deployments", Json::array({Json{{"name", "Adder"}}})}}})}};
}

TEST(RayHeads, ServeApplicationsDeployThenReachTheirOutcome) {
  struct Case {
    std::string outcome;
    std::string deployment;
  };
  for (const Case& c : std::vector<Case>{{"RUNNING", "HEALTHY"},
                                         {"DEPLOY_FAILED", "UNHEALTHY"},
                                         {"UNHEALTHY", "UNHEALTHY"}}) {
    SCOPED_TRACE(c.outcome);
    RayHeadFixture f(Json{{kServeOutcomeAnnotation, c.outcome}, {kServeDeployTimeAnnotation, "2s"}});
    EXPECT_EQ(f.AppStatus("fruit_app"), "<absent>");
    ASSERT_TRUE(f.heads.PutServeConfig("default", "rc", ServeConfig("fruit.deployment_graph")).ok());
    EXPECT_EQ(f.AppStatus("fruit_app"), "DEPLOYING");
    f.Advance(2 * kSecond);
    EXPECT_EQ(f.AppStatus("fruit_app"), c.outcome);
    EXPECT_EQ(f.AppStatus("math_app"), c.outcome);
    base::StatusOr<std::vector<ServeAppRecord>> apps = f.heads.GetServeApplications("default", "rc");
    ASSERT_TRUE(apps.ok());
    EXPECT_EQ((*apps)[0].deployments, std::vector<std::string>{"FruitMarket"});
    EXPECT_EQ((*apps)[0].deployment_status, c.deployment);
  }
}

TEST(RayHeads, PuttingTheSameConfigKeepsStatusesAndAChangeRedeploys) {
  RayHeadFixture f;
  ASSERT_TRUE(f.heads.PutServeConfig("default", "rc", ServeConfig("fruit.v1")).ok());
  f.Advance(kDefaultServeDeployTime);
  EXPECT_EQ(f.AppStatus("fruit_app"), "RUNNING");
  ASSERT_TRUE(f.heads.PutServeConfig("default", "rc", ServeConfig("fruit.v1")).ok());
  EXPECT_EQ(f.AppStatus("fruit_app"), "RUNNING");
  ASSERT_TRUE(f.heads.PutServeConfig("default", "rc", ServeConfig("fruit.v2")).ok());
  EXPECT_EQ(f.AppStatus("fruit_app"), "DEPLOYING");
  EXPECT_EQ(f.AppStatus("math_app"), "RUNNING") << "an unchanged application keeps running";
  ASSERT_TRUE(f.heads
                  .PutServeConfig("default", "rc",
                                  Json{{"applications", Json::array({Json{{"import_path", "x"}}})}})
                  .ok());
  EXPECT_EQ(f.AppStatus("fruit_app"), "<absent>");
  EXPECT_EQ(f.AppStatus("default"), "DEPLOYING") << "an unnamed application is called default";
  EXPECT_EQ(f.heads.PutServeConfig("default", "rc", Json{{"applications", 3}}).code(),
            base::StatusCode::kInvalid);
}

}  // namespace
}  // namespace world
