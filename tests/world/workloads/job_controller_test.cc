#include "core/world/workloads/job_controller.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/api/pointer.h"
#include "tests/world/workloads/world_fixture.h"

namespace world {
namespace {

using api::Json;
using testing::WorldFixture;

Json JobJson(const std::string& name, const std::map<std::string, Json>& spec,
             const std::map<std::string, std::string>& sandbox) {
  Json annotations = Json::object();
  for (const auto& [k, v] : sandbox) annotations[kSandboxPrefix + k] = v;
  Json job = {
      {"apiVersion", "batch/v1"},
      {"kind", "Job"},
      {"metadata", {{"name", name}, {"namespace", "default"}}},
      {"spec",
       {{"template",
         {{"metadata", {{"annotations", annotations}}},
          {"spec",
           {{"restartPolicy", "Never"},
            {"containers", Json::array({Json{{"name", "work"}, {"image", "busybox:1.36"}}})}}}}}}}};
  for (const auto& [k, v] : spec) job["spec"][k] = v;
  return job;
}

int64_t Count(WorldFixture& f, const std::string& name, const char* field) {
  auto job = f.Get("Job", name);
  return job == nullptr ? -1 : IntAt(*job, std::string("/status/") + field, 0);
}

TEST(JobController, RunsCompletionsWithParallelismAndCompletes) {
  WorldFixture f;
  f.Create(JobJson("pi", {{"completions", 3}, {"parallelism", 2}},
                   {{"crash-after", "2s"}, {"exit-code", "0"}}));
  f.Run(100 * base::kMillisecond);
  EXPECT_EQ(Count(f, "pi", "active"), 2);
  auto pods = f.Pods({{kJobNameLabel, "pi"}});
  ASSERT_EQ(pods.size(), 2u);
  EXPECT_EQ(api::Labels(*pods[0]).at(kLegacyJobNameLabel), "pi");
  EXPECT_EQ(api::GenerateName(*pods[0]), "pi-");
  EXPECT_FALSE(api::GetString(*f.Get("Job", "pi"), "/status/startTime").empty());

  ASSERT_TRUE(f.RunUntil([&] { return ConditionIs(*f.Get("Job", "pi"), "Complete", "True"); },
                         base::kMinute));
  auto job = f.Get("Job", "pi");
  EXPECT_EQ(Count(f, "pi", "succeeded"), 3);
  EXPECT_EQ(Count(f, "pi", "active"), 0);
  EXPECT_EQ(Count(f, "pi", "failed"), 0);
  EXPECT_TRUE(ConditionIs(*job, "SuccessCriteriaMet", "True"));
  EXPECT_FALSE(api::GetString(*job, "/status/completionTime").empty());
  EXPECT_EQ(f.Pods({{kJobNameLabel, "pi"}}).size(), 3u);  // finished Pods are kept
  // Two rounds: pods run 2s after a 3s start-up, the third starts when the first two finish.
  f.Run(base::kMinute);
  EXPECT_EQ(f.Pods({{kJobNameLabel, "pi"}}).size(), 3u);
}

TEST(JobController, FailingJobHitsBackoffLimitExceededWithGrowingDelays) {
  WorldFixture f;
  f.Create(JobJson("bad", {{"backoffLimit", 2}}, {{"crash-after", "1s"}, {"exit-code", "1"}}));
  std::vector<base::SimTime> created;
  size_t seen = 0;
  auto check = [&] {
    const size_t n = f.Pods({{kJobNameLabel, "bad"}}).size();
    if (n > seen) {
      created.push_back(f.clock.Now());
      seen = n;
    }
  };
  check();
  ASSERT_TRUE(f.RunUntil([&] { return ConditionIs(*f.Get("Job", "bad"), "Failed", "True"); },
                         5 * base::kMinute, check));
  auto job = f.Get("Job", "bad");
  const Json* failed = FindCondition(*job, "Failed");
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ((*failed)["reason"], "BackoffLimitExceeded");
  EXPECT_EQ((*failed)["message"], "Job has reached the specified backoff limit");
  EXPECT_TRUE(ConditionIs(*job, "FailureTarget", "True"));
  EXPECT_EQ(Count(f, "bad", "failed"), 3);  // backoffLimit 2: the third failure ends it
  EXPECT_EQ(Count(f, "bad", "active"), 0);
  ASSERT_EQ(created.size(), 3u);
  // Each Pod fails 4s after creation (3s start-up + 1s); replacements wait 10s, then 20s.
  EXPECT_GE(created[1] - created[0], 14 * base::kSecond);
  EXPECT_LT(created[1] - created[0], 14 * base::kSecond + 100 * base::kMillisecond);
  EXPECT_GE(created[2] - created[1], 24 * base::kSecond);
  EXPECT_LT(created[2] - created[1], 24 * base::kSecond + 100 * base::kMillisecond);
}

TEST(JobController, OnFailureCountsContainerRestartsAgainstTheLimit) {
  WorldFixture f;
  Json job = JobJson("retry", {{"backoffLimit", 1}}, {{"crash-after", "1s"}, {"exit-code", "1"}});
  job["spec"]["template"]["spec"]["restartPolicy"] = "OnFailure";
  f.Create(job);
  ASSERT_TRUE(f.RunUntil([&] { return ConditionIs(*f.Get("Job", "retry"), "Failed", "True"); },
                         base::kMinute));
  EXPECT_EQ(f.Pods({{kJobNameLabel, "retry"}}).size(), 1u);  // one Pod, restarted in place
}

}  // namespace
}  // namespace world
