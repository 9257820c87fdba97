#include "core/operators/kuberay/raycronjob/reconciler.h"

#include <utility>

#include "core/controller/controllerutil/controllerutil.h"
#include "core/operators/kuberay/common/civil_time.h"
#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/utils.h"
#include "core/operators/kuberay/raycronjob/schedule.h"
#include "core/operators/kuberay/rayjob/validation.h"

namespace kuberay::raycronjob {

using api::Json;
using base::Status;
using reconcile::Outcome;

namespace {

Status Invalid(const std::string& msg) { return Status(base::StatusCode::kInvalid, msg); }

Outcome RequeueAfter(base::Duration d) {
  reconcile::Result r;
  r.requeue_after = d;
  return Outcome::Ok(r);
}

// ZonedSchedule mirrors formatSchedule + cron.ParseStandard: the schedule read in spec.timeZone.
base::StatusOr<Schedule> ZonedSchedule(const Json& cronjob) {
  auto schedule = Schedule::ParseStandard(StringAt(cronjob, "/spec/schedule"));
  if (!schedule.ok()) return schedule.status();
  const Json* zone = At(cronjob, "/spec/timeZone");
  if (zone == nullptr || !zone->is_string()) return schedule;
  auto offset = ZoneOffset(zone->get<std::string>());
  if (!offset.ok()) return offset.status();
  return schedule->InZone(*offset);
}

}  // namespace

// mirrors utils/validation.go ValidateRayCronJobSpec
Status ValidateRayCronJobSpec(const Json& cronjob, const FeatureGates& features) {
  if (api::Name(cronjob).size() > kMaxRayCronJobNameLength) {
    return Invalid("RayCronJob name should be no more than " +
                   std::to_string(kMaxRayCronJobNameLength) + " characters");
  }
  const std::string schedule = StringAt(cronjob, "/spec/schedule");
  if (schedule.find("TZ") != std::string::npos) {
    return Invalid("cannot use TZ or CRON_TZ in schedule, use timeZone field instead");
  }
  auto parsed = Schedule::ParseStandard(schedule);
  if (!parsed.ok()) return Invalid("invalid cron schedule: " + parsed.status().message());
  const Json* zone = At(cronjob, "/spec/timeZone");
  if (zone != nullptr && zone->is_string()) {
    if (zone->get<std::string>().empty()) {
      return Invalid("timeZone must not be empty string, omit the field to use the local time "
                     "zone of the KubeRay operator");
    }
    auto offset = ZoneOffset(zone->get<std::string>());
    if (!offset.ok()) return Invalid("invalid time zone: " + offset.status().message());
  }
  const Json* tmpl = At(cronjob, "/spec/jobTemplate");
  Json rayjob = Json{{"spec", tmpl != nullptr ? *tmpl : Json::object()}};
  Status job = rayjob::ValidateRayJobSpec(rayjob, features.Enabled(kRayJobDeletionPolicy));
  if (!job.ok()) return Invalid("invalid RayJob template: " + job.message());
  return Status::OK();
}

// mirrors getRayJobName / getTimeHashInMinutes
std::string GetRayJobName(const std::string& cronjob, base::SimTime scheduled) {
  return cronjob + "-" + std::to_string(UnixSeconds(scheduled) / 60);
}

// mirrors constructRayJob
base::StatusOr<Json> ConstructRayJob(const Json& cronjob, base::SimTime scheduled) {
  const Json* tmpl = At(cronjob, "/spec/jobTemplate");
  Json rayjob = {
      {"apiVersion", "ray.io/v1"},
      {"kind", "RayJob"},
      {"metadata",
       {{"name", GetRayJobName(api::Name(cronjob), scheduled)},
        {"namespace", api::Namespace(cronjob)},
        {"labels", {{kRayCronJobNameLabelKey, api::Name(cronjob)}}},
        {"annotations", {{kRayCronJobTimestampAnnotationKey, base::FormatRfc3339(scheduled)}}}}},
      {"spec", tmpl != nullptr ? *tmpl : Json::object()}};
  Status owned = controllerutil::SetControllerReference(cronjob, rayjob);
  if (!owned.ok()) return owned;
  return rayjob;
}

RayCronJobReconciler::RayCronJobReconciler(client::Client& client, client::Client& events,
                                           OperatorConfig config)
    : client_(client), recorder_(events, "raycronjob-controller"), config_(std::move(config)) {}

// mirrors raycronjob_controller.go Reconcile
Outcome RayCronJobReconciler::Reconcile(reconcile::ReconcileContext& ctx,
                                        const reconcile::Request& req) {
  auto got = client_.Get(kKind, req.namespace_, req.name);
  if (!got.ok()) {
    if (base::IsNotFound(got.status())) {
      ctx.Info("RayCronJob resource not found.");
      return Outcome::Ok();
    }
    ctx.Error("Failed to get RayCronJob", {{"error", got.status().message()}});
    return Outcome{reconcile::Result{false, kDefaultRequeueDuration, std::nullopt}, got.status()};
  }
  const Json& original = **got;  // never modified below
  Json cronjob = original;

  Status valid = ValidateRayCronJobSpec(cronjob, config_.features);
  if (!valid.ok()) {
    recorder_.Eventf(cronjob, kEventTypeWarning, kInvalidRayCronJobSpec,
                     req.namespace_ + "/" + req.name + ": " + valid.message(), ctx.now);
    return Outcome::Ok();
  }
  if (BoolAt(cronjob, "/spec/suspend")) {
    recorder_.Eventf(cronjob, kEventTypeNormal, kSuspendedRayCronJob,
                     "RayCronJob suspended, no new RayJobs will be created", ctx.now);
    return Outcome::Ok();
  }
  auto schedule = ZonedSchedule(cronjob);
  if (!schedule.ok()) {
    // Validation already parsed it; kept for parity with upstream.
    ctx.Error("Failed to parse validated cron schedule", {{"error", schedule.status().message()}});
    return Outcome{reconcile::Result{false, kDefaultRequeueDuration, std::nullopt},
                   schedule.status()};
  }

  // The earliest time to look from: the last tick, or the creation time before the first.
  std::optional<base::SimTime> earliest =
      ParseRfc3339(StringAt(cronjob, "/status/lastScheduleTime"));
  if (!earliest.has_value()) {
    earliest = ParseRfc3339(StringAt(cronjob, "/metadata/creationTimestamp")).value_or(0);
  }
  std::optional<base::SimTime> schedule_time = schedule->Next(*earliest);
  if (!schedule_time.has_value()) {
    ctx.Info("No schedule time within five years", {{"schedule", StringAt(cronjob, "/spec/schedule")}});
    return Outcome::Ok();
  }
  if (*schedule_time > ctx.now) return RequeueAfter(*schedule_time - ctx.now);

  auto rayjob = ConstructRayJob(cronjob, *schedule_time);
  if (!rayjob.ok()) return Outcome::Error(rayjob.status());
  const std::string job_name = api::Name(*rayjob);
  auto created = client_.Create(*rayjob);
  if (!created.ok()) {
    if (!base::IsAlreadyExists(created.status())) {
      ctx.Error("Failed to create RayJob from RayCronJob", {{"error", created.status().message()}});
      return Outcome::Error(created.status());
    }
    // The name is the tick's: an earlier pass (reading a stale lastScheduleTime) created it.
    ctx.Info("RayJob for this tick already exists, skipping creation",
             {{"rayJobName", job_name}, {"namespace", req.namespace_}});
  } else {
    ctx.Info("Successfully created RayJob", {{"rayJobName", job_name}, {"namespace", req.namespace_}});
  }
  cronjob["status"]["lastScheduleTime"] = base::FormatRfc3339(*schedule_time);

  std::optional<base::SimTime> next = schedule->Next(*schedule_time);
  const base::Duration requeue_at = next.has_value() ? *next - ctx.now : 0;
  ctx.Info("Schedule timing", {{"now", base::FormatRfc3339(ctx.now)},
                               {"nextScheduledTime", next ? base::FormatRfc3339(*next) : ""},
                               {"requeueAfter", base::FormatDuration(requeue_at)}});

  // mirrors updateRayCronJobStatus: the only status write, and only when the tick moved.
  if (StringAt(original, "/status/lastScheduleTime") !=
      StringAt(cronjob, "/status/lastScheduleTime")) {
    auto updated = client_.UpdateStatus(cronjob);
    if (!updated.ok()) {
      ctx.Info("Failed to update RayCronJob status", {{"error", updated.status().message()}});
      return Outcome{reconcile::Result{false, kDefaultRequeueDuration, std::nullopt},
                     updated.status()};
    }
  }
  return RequeueAfter(requeue_at);
}

}  // namespace kuberay::raycronjob
