// The RayCronJob controller's pure parts: the cron parser (robfig/cron v3's ParseStandard and
// Next), the child RayJob's name and shape, and the spec validation.
// Mirrors: ray-operator/controllers/ray/raycronjob_controller_unit_test.go
// (TestGetRayJobName_Deterministic, TestFormatSchedule, TestRayCronJobReconcile_InvalidSchedule's
// message) and robfig/cron v3's parser_test.go / spec_test.go cases.
#include <string>

#include <gtest/gtest.h>

#include "core/base/time.h"
#include "core/operators/kuberay/common/civil_time.h"
#include "core/operators/kuberay/common/features.h"
#include "core/operators/kuberay/raycronjob/reconciler.h"
#include "core/operators/kuberay/raycronjob/schedule.h"

namespace kuberay::raycronjob {
namespace {

using api::Json;

// At is the virtual instant of a UTC calendar minute.
base::SimTime At(int64_t y, int mo, int d, int h, int mi) {
  CivilTime c;
  c.year = y;
  c.month = mo;
  c.day = d;
  c.hour = h;
  c.minute = mi;
  return FromCivil(c);
}

std::string Next(const std::string& spec, base::SimTime t) {
  auto s = Schedule::ParseStandard(spec);
  if (!s.ok()) return "error: " + s.status().message();
  auto n = s->Next(t);
  return n.has_value() ? base::FormatRfc3339(*n) : "never";
}

TEST(CivilTime, RoundTripsAndKnowsWeekdays) {
  const base::SimTime t = At(2028, 2, 29, 13, 7);
  CivilTime c = ToCivil(t + 42 * base::kSecond);
  EXPECT_EQ(c.year, 2028);
  EXPECT_EQ(c.month, 2);
  EXPECT_EQ(c.day, 29);
  EXPECT_EQ(c.hour, 13);
  EXPECT_EQ(c.minute, 7);
  EXPECT_EQ(c.weekday, 2);  // 2028-02-29 is a Tuesday
  EXPECT_EQ(FromCivil(c), t);
  EXPECT_EQ(ToCivil(0).weekday, 4);  // 2026-01-01 is a Thursday
  EXPECT_EQ(UnixSeconds(0), 1767225600);
  EXPECT_EQ(ParseRfc3339(base::FormatRfc3339(t)), t);
}

TEST(CronSchedule, NextIsStrictlyAfterAndOnTheMinute) {
  const base::SimTime midnight = At(2026, 1, 1, 0, 0);
  EXPECT_EQ(Next("*/5 * * * *", midnight), "2026-01-01T00:05:00Z");
  EXPECT_EQ(Next("*/5 * * * *", midnight + 4 * base::kMinute + 59 * base::kSecond),
            "2026-01-01T00:05:00Z");
  EXPECT_EQ(Next("*/5 * * * *", At(2026, 1, 1, 0, 5)), "2026-01-01T00:10:00Z");
  EXPECT_EQ(Next("* * * * *", midnight + 30 * base::kSecond), "2026-01-01T00:01:00Z");
  EXPECT_EQ(Next("30 2 * * *", At(2026, 1, 1, 3, 0)), "2026-01-02T02:30:00Z");
  EXPECT_EQ(Next("0 0 1 * *", At(2026, 1, 31, 12, 0)), "2026-02-01T00:00:00Z");
  EXPECT_EQ(Next("0 12 29 2 *", midnight), "2028-02-29T12:00:00Z");  // the next leap day
  EXPECT_EQ(Next("0 0 30 2 *", midnight), "never");
}

TEST(CronSchedule, RangesListsStepsAndNames) {
  const base::SimTime midnight = At(2026, 1, 1, 0, 0);  // a Thursday
  EXPECT_EQ(Next("15,45 9-17/4 * * *", midnight), "2026-01-01T09:15:00Z");
  EXPECT_EQ(Next("15,45 9-17/4 * * *", At(2026, 1, 1, 9, 45)), "2026-01-01T13:15:00Z");
  EXPECT_EQ(Next("0 0 * * mon-fri", At(2026, 1, 2, 1, 0)), "2026-01-05T00:00:00Z");  // Fri→Mon
  EXPECT_EQ(Next("0 0 * JUL *", midnight), "2026-07-01T00:00:00Z");
  EXPECT_EQ(Next("5/20 * * * *", midnight), "2026-01-01T00:05:00Z");
  EXPECT_EQ(Next("5/20 * * * *", At(2026, 1, 1, 0, 45)), "2026-01-01T01:05:00Z");
}

TEST(CronSchedule, DayOfMonthOrDayOfWeekWhenBothRestricted) {
  // Both restricted: the 15th OR any Sunday. 2026-01-04 is the first Sunday.
  EXPECT_EQ(Next("0 0 15 * sun", At(2026, 1, 1, 0, 0)), "2026-01-04T00:00:00Z");
  // Day of week is *: only the 15th.
  EXPECT_EQ(Next("0 0 15 * *", At(2026, 1, 1, 0, 0)), "2026-01-15T00:00:00Z");
  // A stepped * is not a star: */2 day-of-month OR Sunday.
  EXPECT_EQ(Next("0 0 */2 * sun", At(2026, 1, 1, 0, 0)), "2026-01-03T00:00:00Z");
}

TEST(CronSchedule, Descriptors) {
  const base::SimTime t = At(2026, 3, 10, 7, 30);  // a Tuesday
  EXPECT_EQ(Next("@hourly", t), "2026-03-10T08:00:00Z");
  EXPECT_EQ(Next("@daily", t), "2026-03-11T00:00:00Z");
  EXPECT_EQ(Next("@midnight", t), "2026-03-11T00:00:00Z");
  EXPECT_EQ(Next("@weekly", t), "2026-03-15T00:00:00Z");
  EXPECT_EQ(Next("@monthly", t), "2026-04-01T00:00:00Z");
  EXPECT_EQ(Next("@yearly", t), "2027-01-01T00:00:00Z");
  EXPECT_EQ(Next("@every 90s", t + 500 * base::kMillisecond), "2026-03-10T07:31:30Z");
}

TEST(CronSchedule, ErrorsAsRobfig) {
  EXPECT_EQ(Next("invalid cron string", 0),
            "error: expected exactly 5 fields, found 3: [invalid cron string]");
  EXPECT_EQ(Next("", 0), "error: empty spec string");
  EXPECT_EQ(Next("60 * * * *", 0), "error: end of range (60) above maximum (59): 60");
  EXPECT_EQ(Next("* * 0 * *", 0), "error: beginning of range (0) below minimum (1): 0");
  EXPECT_EQ(Next("5-2 * * * *", 0), "error: beginning of range (5) beyond end of range (2): 5-2");
  EXPECT_EQ(Next("1-2-3 * * * *", 0), "error: too many hyphens: 1-2-3");
  EXPECT_EQ(Next("*/0 * * * *", 0), "error: step of range should be a positive number: */0");
  EXPECT_EQ(Next("x * * * *", 0),
            "error: failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax");
  EXPECT_EQ(Next("@fortnightly", 0), "error: unrecognized descriptor: @fortnightly");
}

TEST(CronSchedule, TimeZonesAreFixedOffsets) {
  auto taipei = ZoneOffset("Asia/Taipei");
  ASSERT_TRUE(taipei.ok());
  auto s = Schedule::ParseStandard("45 21 * * *");
  ASSERT_TRUE(s.ok());
  // 21:45 in Taipei (UTC+8) is 13:45 UTC.
  EXPECT_EQ(base::FormatRfc3339(*s->InZone(*taipei).Next(0)), "2026-01-01T13:45:00Z");
  EXPECT_FALSE(ZoneOffset("Mars/Olympus_Mons").ok());
  EXPECT_EQ(ZoneOffset("Mars/Olympus_Mons").status().message(),
            "unknown time zone Mars/Olympus_Mons");
}

TEST(RayCronJob, TestGetRayJobName_Deterministic) {
  const base::SimTime tick = At(2026, 1, 1, 0, 5);
  EXPECT_EQ(GetRayJobName("test-cronjob", tick),
            "test-cronjob-" + std::to_string(UnixSeconds(tick) / 60));
  EXPECT_EQ(GetRayJobName("test-cronjob", tick), GetRayJobName("test-cronjob", tick));
  EXPECT_NE(GetRayJobName("test-cronjob", tick), GetRayJobName("test-cronjob", At(2026, 1, 1, 0, 10)));
}

Json CronJob(const std::string& name, const std::string& schedule) {
  return Json{{"apiVersion", "ray.io/v1"},
              {"kind", "RayCronJob"},
              {"metadata", {{"name", name}, {"namespace", "default"}, {"uid", "uid-cron"}}},
              {"spec",
               {{"schedule", schedule},
                {"jobTemplate",
                 {{"entrypoint", "python test.py"},
                  {"clusterSelector", {{"ray.io/cluster", "shared"}}}}}}}};
}

TEST(RayCronJob, ConstructRayJobCopiesTheTemplateAndOwnsIt) {
  const base::SimTime tick = At(2026, 1, 1, 0, 5);
  auto job = ConstructRayJob(CronJob("test-cronjob", "*/5 * * * *"), tick);
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  EXPECT_EQ(api::Name(*job), GetRayJobName("test-cronjob", tick));
  EXPECT_EQ(api::Labels(*job)["ray.io/cronjob-name"], "test-cronjob");
  EXPECT_EQ(api::Annotations(*job)["ray.io/cronjob-scheduled-timestamp"], "2026-01-01T00:05:00Z");
  EXPECT_EQ((*job)["spec"]["entrypoint"], "python test.py");
  auto owner = api::GetControllerOf(*job);
  ASSERT_TRUE(owner.has_value());
  EXPECT_EQ(owner->kind, "RayCronJob");
  EXPECT_EQ(owner->uid, "uid-cron");
}

TEST(RayCronJob, ValidateRayCronJobSpec) {
  FeatureGates gates;
  EXPECT_TRUE(ValidateRayCronJobSpec(CronJob("ok", "*/5 * * * *"), gates).ok());
  EXPECT_EQ(ValidateRayCronJobSpec(CronJob("invalid-cronjob", "invalid cron string"), gates).message(),
            "invalid cron schedule: expected exactly 5 fields, found 3: [invalid cron string]");
  EXPECT_EQ(ValidateRayCronJobSpec(CronJob("tz", "TZ=UTC */5 * * * *"), gates).message(),
            "cannot use TZ or CRON_TZ in schedule, use timeZone field instead");
  EXPECT_EQ(ValidateRayCronJobSpec(CronJob(std::string(37, 'a'), "*/5 * * * *"), gates).message(),
            "RayCronJob name should be no more than 36 characters");
  Json empty_zone = CronJob("zone", "*/5 * * * *");
  empty_zone["spec"]["timeZone"] = "";
  EXPECT_NE(ValidateRayCronJobSpec(empty_zone, gates).message().find("timeZone must not be empty"),
            std::string::npos);
  Json bad_zone = CronJob("zone", "*/5 * * * *");
  bad_zone["spec"]["timeZone"] = "Nowhere/City";
  EXPECT_EQ(ValidateRayCronJobSpec(bad_zone, gates).message(),
            "invalid time zone: unknown time zone Nowhere/City");
  Json no_cluster = CronJob("tmpl", "*/5 * * * *");
  no_cluster["spec"]["jobTemplate"].erase("clusterSelector");
  EXPECT_EQ(ValidateRayCronJobSpec(no_cluster, gates).message(),
            "invalid RayJob template: The RayJob spec is invalid: one of RayClusterSpec or "
            "ClusterSelector must be set");
}

}  // namespace
}  // namespace kuberay::raycronjob
