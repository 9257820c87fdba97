// The RayCronJob controller inside the whole simulated cluster: registered only with the
// RayCronJob gate (after an operator restart), it creates one RayJob per tick on the virtual
// clock, records lastScheduleTime, honours suspend and reports an invalid schedule as an event.
// Mirrors: ray-operator/controllers/ray/raycronjob_controller_unit_test.go
// (TestRayCronJobReconcile_FirstSchedule, _CreateRayJob, _Suspend, _InvalidSchedule,
// _NoDuplicateOnStaleStatus) and ray-operator/main.go's gate check.
#include <string>

#include <gtest/gtest.h>

#include "tests/operators/kuberay/gate_session.h"

namespace kuberay {
namespace {

struct CronSession : testing::GateSession {
  void EnableGate() { ASSERT_TRUE(EnableGates("RayCronJob=true")) << err; }
  bool ApplyCronJob(const std::string& name, const std::string& schedule,
                    const std::string& extra_spec = "") {
    return Run("apply -f - <<EOF\napiVersion: ray.io/v1\nkind: RayCronJob\nmetadata:\n  name: " +
               name + "\nspec:\n  schedule: \"" + schedule + "\"\n" + extra_spec +
               "  jobTemplate:\n    entrypoint: python test.py\n    clusterSelector:\n"
               "      ray.io/cluster: shared\nEOF\n");
  }
};

// Unix minutes of the virtual epoch (2026-01-01T00:00:00Z): the child names' base.
constexpr int64_t kEpochMinutes = 1767225600 / 60;

std::string ChildName(const std::string& cronjob, int64_t minute_of_day) {
  return cronjob + "-" + std::to_string(kEpochMinutes + minute_of_day);
}

TEST(RayCronJobLab, NotRegisteredWithoutTheGate) {
  CronSession s;
  ASSERT_TRUE(s.Run("run 5s")) << s.err;
  ASSERT_TRUE(s.ApplyCronJob("tick", "* * * * *")) << s.err;
  ASSERT_TRUE(s.Run("run 3m")) << s.err;
  EXPECT_EQ(s.Get("rayjobs -o name"), "");
  EXPECT_EQ(s.Get("raycronjob tick -o jsonpath='{.status.lastScheduleTime}'"), "");
  ASSERT_TRUE(s.Run("expect trace reconcile.start controller=raycronjob --max 0")) << s.err;
}

TEST(RayCronJobLab, TestRayCronJobReconcile_FirstScheduleAndCreateRayJob) {
  CronSession s;
  s.EnableGate();
  ASSERT_TRUE(s.ApplyCronJob("tick", "*/2 * * * *")) << s.err;
  // Created before 00:02, so the first tick is 00:02 and the second 00:04.
  ASSERT_TRUE(s.Run("run 1m")) << s.err;
  EXPECT_EQ(s.Get("rayjobs -o name"), "");
  ASSERT_TRUE(s.Run("wait --for=jsonpath='{.status.lastScheduleTime}'=2026-01-01T00:04:00Z "
                    "raycronjob/tick --timeout=5m")) << s.err;
  EXPECT_EQ(s.Get("rayjobs -o name"), "rayjob.ray.io/" + ChildName("tick", 2) + "\nrayjob.ray.io/" +
                                          ChildName("tick", 4) + "\n");
  const std::string first = ChildName("tick", 2);
  EXPECT_EQ(s.Get("rayjob " + first + " -o jsonpath='{.metadata.labels.ray\\.io/cronjob-name}'"), "tick");
  EXPECT_EQ(s.Get("rayjob " + first +
                  " -o jsonpath='{.metadata.annotations.ray\\.io/cronjob-scheduled-timestamp}'"),
            "2026-01-01T00:02:00Z");
  EXPECT_EQ(s.Get("rayjob " + first + " -o jsonpath='{.metadata.ownerReferences[0].kind}'"), "RayCronJob");
  EXPECT_EQ(s.Get("rayjob " + first + " -o jsonpath='{.spec.entrypoint}'"), "python test.py");
  // Each tick is one reconcile woken by RequeueAfter (the status write wakes one more).
  ASSERT_TRUE(s.Run("expect trace reconcile.end controller=raycronjob result=requeue_after --min 2")) << s.err;
}

TEST(RayCronJobLab, TestRayCronJobReconcile_Suspend) {
  CronSession s;
  s.EnableGate();
  ASSERT_TRUE(s.ApplyCronJob("sleepy", "* * * * *", "  suspend: true\n")) << s.err;
  ASSERT_TRUE(s.Run("run 3m")) << s.err;
  EXPECT_EQ(s.Get("rayjobs -o name"), "");
  const std::string events = s.Get("events");
  EXPECT_NE(events.find("SuspendedRayCronJob"), std::string::npos) << events;
  EXPECT_NE(events.find("RayCronJob suspended, no new RayJobs will be created"), std::string::npos);
  // Resuming schedules from the creation time again: the missed ticks are caught up one by one.
  ASSERT_TRUE(s.Run("patch raycronjob sleepy --type merge -p '{\"spec\":{\"suspend\":false}}'")) << s.err;
  ASSERT_TRUE(s.Run("run 5s")) << s.err;
  EXPECT_NE(s.Get("rayjobs -o name").find(ChildName("sleepy", 1)), std::string::npos);
}

TEST(RayCronJobLab, TestRayCronJobReconcile_InvalidSchedule) {
  CronSession s;
  s.EnableGate();
  ASSERT_TRUE(s.ApplyCronJob("invalid-cronjob", "invalid cron string")) << s.err;
  ASSERT_TRUE(s.Run("run 2m")) << s.err;
  const std::string events = s.Get("events");
  EXPECT_NE(events.find("InvalidRayCronJobSpec"), std::string::npos) << events;
  EXPECT_NE(events.find("invalid cron schedule: expected exactly 5 fields, found 3"), std::string::npos)
      << events;
  EXPECT_EQ(s.Get("rayjobs -o name"), "");
}

TEST(RayCronJobLab, TestRayCronJobReconcile_NoDuplicateOnStaleStatus) {
  CronSession s;
  s.EnableGate();
  ASSERT_TRUE(s.ApplyCronJob("tick", "* * * * *")) << s.err;
  ASSERT_TRUE(s.Run("wait --for=jsonpath='{.status.lastScheduleTime}'=2026-01-01T00:02:00Z "
                    "raycronjob/tick --timeout=5m")) << s.err;
  const std::string before = s.Get("rayjobs -o name");
  // Put lastScheduleTime back, as a lagging cache would show it: the controller walks the
  // ticks again, but every RayJob name it builds already exists.
  ASSERT_TRUE(s.Run("patch raycronjob tick --subresource status --type merge "
                    "-p '{\"status\":{\"lastScheduleTime\":\"2026-01-01T00:00:00Z\"}}'")) << s.err;
  ASSERT_TRUE(s.Run("run 10s")) << s.err;
  EXPECT_EQ(s.Get("rayjobs -o name"), before);
  EXPECT_EQ(s.Get("raycronjob tick -o jsonpath='{.status.lastScheduleTime}'"), "2026-01-01T00:02:00Z");
}

TEST(RayCronJobLab, PrinterColumnsAsTheCRD) {
  CronSession s;
  ASSERT_TRUE(s.ApplyCronJob("tick", "*/5 * * * *", "  timeZone: Asia/Taipei\n")) << s.err;
  const std::string table = s.Get("raycronjobs");
  const std::string header = table.substr(0, table.find('\n'));
  EXPECT_EQ(header.find("NAME"), 0u) << table;
  EXPECT_LT(header.find("SCHEDULE"), header.find("TIMEZONE")) << table;
  EXPECT_LT(header.find("TIMEZONE"), header.find("LAST SCHEDULE")) << table;
  EXPECT_LT(header.find("AGE"), header.find("SUSPEND")) << table;
  EXPECT_NE(table.find("Asia/Taipei"), std::string::npos) << table;
}

}  // namespace
}  // namespace kuberay
