#include "core/operators/kuberay/rayjob/reconciler.h"

#include <utility>
#include <vector>

#include "core/controller/controllerutil/controllerutil.h"
#include "core/operators/kuberay/rayjob/deletion.h"
#include "core/operators/kuberay/common/civil_time.h"
#include "core/operators/kuberay/common/conditions.h"
#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/names.h"
#include "core/operators/kuberay/common/utils.h"
#include "core/operators/kuberay/rayjob/submitter.h"
#include "core/operators/kuberay/rayjob/validation.h"

namespace kuberay::rayjob {

using api::Json;
using base::Status;
using reconcile::Outcome;

struct RayJobReconciler::Pass {
  reconcile::ReconcileContext& ctx;
  Json original;  // the RayJob as read (after the finalizer update, if any)
  Json job;       // the RayJob with this pass's status changes
  Json& status() { return job["status"]; }
  std::string Str(const char* field) const {
    const Json& st = job.contains("status") ? job["status"] : Json::object();
    return st.is_object() && st.value(field, Json()).is_string() ? st[field].get<std::string>()
                                                                  : std::string();
  }
  base::SimTime now() const { return ctx.now; }
};

namespace {

std::string Mode(const Json& rayjob) {
  const std::string m = utils::StringAt(rayjob, "/spec/submissionMode");
  return m.empty() ? "K8sJobMode" : m;
}

bool HasClusterSelector(const Json& rayjob) {
  const Json* s = utils::At(rayjob, "/spec/clusterSelector");
  return s != nullptr && s->is_object() && !s->empty();
}

Outcome Requeue(base::Duration d) {
  reconcile::Result r;
  r.requeue_after = d;
  return Outcome::Ok(r);
}

// SetDeploymentStatus moves jobDeploymentStatus; entering Complete or Failed stamps endTime.
void SetDeploymentStatus(Json& status, const std::string& value, base::SimTime now) {
  status["jobDeploymentStatus"] = value;
  if (value == kComplete || value == kFailed) status["endTime"] = base::FormatRfc3339(now);
}

void Fail(Json& status, const std::string& reason, const std::string& message,
          base::SimTime now) {
  SetDeploymentStatus(status, kFailed, now);
  status["reason"] = reason;
  status["message"] = message;
}

// SinceStamp is now minus status[field] (an RFC 3339 stamp); nullopt when unset.
std::optional<base::Duration> SinceStamp(const Json& status, const char* field,
                                         base::SimTime now) {
  if (!status.is_object() || !status.value(field, Json()).is_string()) return std::nullopt;
  std::optional<base::SimTime> t = utils::ParseRfc3339(status[field].get<std::string>());
  if (!t.has_value()) return std::nullopt;
  return now - *t;
}

// CheckActiveDeadline mirrors checkActiveDeadlineAndUpdateStatusIfNeeded.
bool CheckActiveDeadline(const Json& rayjob, Json& status, base::SimTime now) {
  std::optional<int64_t> ads = utils::IntAt(rayjob, "/spec/activeDeadlineSeconds");
  std::optional<base::Duration> since = SinceStamp(status, "startTime", now);
  if (!ads.has_value() || !since.has_value() || *since < *ads * base::kSecond) return false;
  Fail(status, kDeadlineExceeded,
       "The RayJob has passed the activeDeadlineSeconds. StartTime: " +
           utils::StrField(status, "startTime") +
           ". ActiveDeadlineSeconds: " + std::to_string(*ads),
       now);
  return true;
}

// CheckPreRunningDeadline mirrors checkPreRunningDeadlineAndUpdateStatusIfNeeded.
bool CheckPreRunningDeadline(const Json& rayjob, Json& status, base::SimTime now) {
  std::optional<int64_t> d = utils::IntAt(rayjob, "/spec/preRunningDeadlineSeconds");
  std::optional<base::Duration> since = SinceStamp(status, "startTime", now);
  if (!d.has_value() || !since.has_value() || *since < *d * base::kSecond) return false;
  Fail(status, kPreRunningDeadlineExceeded,
       "The RayJob has passed the preRunningDeadlineSeconds. StartTime: " +
           utils::StrField(status, "startTime") +
           ". PreRunningDeadlineSeconds: " + std::to_string(*d),
       now);
  return true;
}

// ClusterStatusForCompare keeps the RayCluster status fields InconsistentRayClusterStatus reads.
Json ClusterStatusForCompare(const Json& s) {
  Json out = Json::object();
  if (!s.is_object()) return out;
  for (const char* f : {"state", "reason", "readyWorkerReplicas", "availableWorkerReplicas",
                        "desiredWorkerReplicas", "minWorkerReplicas", "maxWorkerReplicas",
                        "endpoints", "head", "conditions"}) {
    if (s.contains(f)) out[f] = s[f];
  }
  return out;
}

const Json& Field(const Json& obj, const char* f) { return MemberOrNull(obj, f); }

// SubmitterState is what the submitter (K8s Job or sidecar container) reports.
struct SubmitterState {
  bool finished = false;
  bool failed = false;
  base::SimTime finished_at = 0;
  bool head_missing = false;  // SidecarMode: the head Pod is gone
  std::string failure;        // the SubmissionFailed message
};

}  // namespace

bool InconsistentRayJobStatus(const Json& old_status, const Json& new_status) {
  for (const char* f : {"jobStatus", "jobDeploymentStatus", "jobStatusCheckFailureStartTime"}) {
    if (Field(old_status, f) != Field(new_status, f)) return true;
  }
  return ClusterStatusForCompare(Field(old_status, "rayClusterStatus")) !=
         ClusterStatusForCompare(Field(new_status, "rayClusterStatus"));
}

RayJobReconciler::RayJobReconciler(client::Client& client, dashboard::ClientProvider& dashboards,
                                   sim::Prng prng, Options options)
    : client_(client), dashboards_(dashboards), prng_(prng), options_(std::move(options)) {
  if (options_.events != nullptr) {
    recorder_ = std::make_unique<EventRecorder>(*options_.events, "rayjob-controller");
  }
}

void RayJobReconciler::Event(Pass& p, const std::string& type, const std::string& reason,
                             const std::string& message) {
  if (recorder_ != nullptr) recorder_->Eventf(p.job, type, reason, message, p.now());
}

Status RayJobReconciler::WriteStatus(Pass& p) {
  if (!InconsistentRayJobStatus(Field(p.original, "status"), Field(p.job, "status"))) {
    return Status::OK();
  }
  base::StatusOr<api::ObjectPtr> written = client_.UpdateStatus(p.job);
  if (!written.ok()) return written.status();
  p.ctx.Info("updated RayJob status",
             {{"jobDeploymentStatus", p.Str("jobDeploymentStatus")}, {"jobStatus", p.Str("jobStatus")}});
  return Status::OK();
}

std::unique_ptr<dashboard::RayDashboardClient> RayJobReconciler::Dashboard(const Json& rayjob) {
  const std::string name = utils::StringAt(rayjob, "/status/rayClusterName");
  if (name.empty()) return nullptr;
  base::StatusOr<api::ObjectPtr> rc = client_.Get("RayCluster", api::Namespace(rayjob), name);
  if (!rc.ok()) return nullptr;
  return dashboards_.Open(**rc, utils::StringAt(rayjob, "/status/dashboardURL"));
}

Outcome RayJobReconciler::Reconcile(reconcile::ReconcileContext& ctx,
                                    const reconcile::Request& req) {
  base::StatusOr<api::ObjectPtr> got = client_.Get(kKind, req.namespace_, req.name);
  if (!got.ok()) {
    const Status s = base::IgnoreNotFound(got.status());
    return s.ok() ? Outcome::Ok() : Outcome::Error(s);
  }
  Json rayjob = **got;
  if (api::IsBeingDeleted(rayjob)) return Finalize(ctx, std::move(rayjob));

  Pass p{ctx, rayjob, rayjob};
  if (!p.job.contains("status") || !p.job["status"].is_object()) p.job["status"] = Json::object();

  // Validation runs in every state; a failure is recorded once and not requeued.
  std::string invalid_reason;
  Status valid = ValidateRayJob(rayjob, options_.ray_job_deletion_policy, &invalid_reason);
  if (!valid.ok()) {
    ctx.Info("Warning " + invalid_reason, {{"message", valid.message()}});
    Event(p, kEventTypeWarning, invalid_reason,
          api::Namespace(rayjob) + "/" + api::Name(rayjob) + ": " + valid.message());
    p.status()["jobDeploymentStatus"] = kValidationFailed;
    p.status()["reason"] = kValidationFailed;
    p.status()["message"] = valid.message();
    Status w = WriteStatus(p);
    return w.ok() ? Outcome::Ok() : Outcome::Error(w);
  }

  const std::string state = p.Str("jobDeploymentStatus");
  std::optional<Outcome> early;
  if (state == kNew) {
    early = New(p);
  } else if (state == kInitializing) {
    early = Initializing(p);
  } else if (state == kWaiting) {
    early = Waiting(p);
  } else if (state == kRunning) {
    early = Running(p);
  } else if (state == kSuspending || state == kRetrying) {
    early = SuspendingOrRetrying(p);
  } else if (state == kSuspended) {
    if (utils::BoolAt(p.job, "/spec/suspend")) return Outcome::Ok();
    p.status()["jobDeploymentStatus"] = kNew;  // resumed: start over
  } else if (state == kComplete || state == kFailed) {
    return Finished(p);
  } else {
    // ValidationFailed (after the spec was fixed) and unknown values: nothing resets them.
    ctx.Info("Unknown JobDeploymentStatus", {{"JobDeploymentStatus", state}});
    return Requeue(options_.requeue);
  }
  if (early.has_value()) return *early;

  // checkBackoffLimitAndUpdateStatusIfNeeded: count the pass's Failed / Complete(SUCCEEDED)
  // (only transition passes get here in those states) and turn a retriable Failed into Retrying.
  const std::string after = p.Str("jobDeploymentStatus");
  int64_t failed = utils::IntAt(p.job, "/status/failed").value_or(0);
  int64_t succeeded = utils::IntAt(p.job, "/status/succeeded").value_or(0);
  if (after == kFailed) ++failed;
  if (after == kComplete && p.Str("jobStatus") == dashboard::kJobSucceeded) ++succeeded;
  p.status()["failed"] = failed;
  p.status()["succeeded"] = succeeded;
  const std::optional<int64_t> limit = utils::IntAt(p.job, "/spec/backoffLimit");
  if (after == kFailed && limit.has_value() && failed < *limit + 1) {
    const std::string reason = p.Str("reason");
    if (reason != kDeadlineExceeded && reason != kJobStatusCheckTimeoutExceeded) {
      ctx.Info("RayJob is eligible for retry, setting JobDeploymentStatus to Retrying",
               {{"backoffLimit", std::to_string(*limit)}, {"failed", std::to_string(failed)}});
      p.status()["jobDeploymentStatus"] = kRetrying;
    }
  }
  Status w = WriteStatus(p);
  if (!w.ok()) return Outcome::Error(w);
  return Requeue(options_.requeue);
}

Outcome RayJobReconciler::Finalize(reconcile::ReconcileContext& ctx, Json rayjob) {
  if (!api::HasFinalizer(rayjob, kRayJobStopJobFinalizer)) return Outcome::Ok();
  const std::string job_status = utils::StringAt(rayjob, "/status/jobStatus");
  const std::string job_id = utils::StringAt(rayjob, "/status/jobId");
  if (!dashboard::IsJobTerminal(job_status) && !job_id.empty()) {
    // Best effort: the Ray job is stopped before the RayJob goes; failures are only logged.
    if (std::unique_ptr<dashboard::RayDashboardClient> dash = Dashboard(rayjob)) {
      Status stopped = dash->StopJob(job_id);
      ctx.Info(stopped.ok() ? "The associated Ray job was stopped"
                            : "Failed to stop the Ray job; the RayJob is deleted anyway",
               {{"jobId", job_id}, {"error", stopped.ok() ? "" : stopped.message()}});
    }
  }
  controllerutil::RemoveFinalizer(rayjob, kRayJobStopJobFinalizer);
  base::StatusOr<api::ObjectPtr> updated = client_.Update(rayjob);
  if (!updated.ok()) {
    Outcome o = Outcome::Error(updated.status());
    o.result.requeue_after = options_.requeue;
    return o;
  }
  return Requeue(options_.requeue);
}

std::optional<Outcome> RayJobReconciler::New(Pass& p) {
  if (!api::HasFinalizer(p.job, kRayJobStopJobFinalizer)) {
    Json with = p.original;
    controllerutil::AddFinalizer(with, kRayJobStopJobFinalizer);
    base::StatusOr<api::ObjectPtr> updated = client_.Update(with);
    if (!updated.ok()) {
      Outcome o = Outcome::Error(updated.status());
      o.result.requeue_after = options_.requeue;
      return o;
    }
    Json status = p.status();
    p.original = **updated;
    p.job = **updated;
    p.job["status"] = status;
  }
  // initRayJobStatusIfNeed: a job id (not in InteractiveMode), a cluster name, a start time.
  Json& st = p.status();
  const std::string mode = Mode(p.job);
  const std::string spec_job_id = utils::StringAt(p.job, "/spec/jobId");
  if (mode != "InteractiveMode") {
    st["jobId"] = !spec_job_id.empty() ? spec_job_id
                                       : utils::GenerateRayJobId(api::Name(p.job), prng_);
  } else if (!spec_job_id.empty()) {
    st["jobId"] = spec_job_id;
  }
  st["rayClusterName"] =
      HasClusterSelector(p.job)
          ? utils::StringAt(p.job, "/spec/clusterSelector/ray.io~1cluster")
          : utils::GenerateRayClusterName(api::Name(p.job), prng_);
  st["jobStatus"] = "";
  st["startTime"] = base::FormatRfc3339(p.now());
  st["jobDeploymentStatus"] = kInitializing;
  return std::nullopt;
}

base::StatusOr<api::ObjectPtr> RayJobReconciler::GetOrCreateRayCluster(Pass& p) {
  const std::string ns = api::Namespace(p.job);
  const std::string name = p.Str("rayClusterName");
  base::StatusOr<api::ObjectPtr> got = client_.Get("RayCluster", ns, name);
  if (got.ok()) return got;
  if (!base::IsNotFound(got.status())) return got.status();
  if (HasClusterSelector(p.job)) {
    const std::string message = "RayCluster " + ns + "/" + name +
                                " set in the clusterSelector is not found. It must be created manually";
    p.ctx.Info("Warning RayClusterNotFound", {{"message", message}});
    Event(p, kEventTypeWarning, "RayClusterNotFound", message);
    return api::ObjectPtr(nullptr);
  }
  // constructRayClusterForRayJob
  Json labels = Json::object();
  for (const auto& [k, v] : api::Labels(p.job)) labels[k] = v;
  labels[utils::kRayOriginatedFromCRNameLabelKey] = api::Name(p.job);
  labels[utils::kRayOriginatedFromCRDLabelKey] = "RayJob";
  labels[utils::kRayJobSubmissionModeLabelKey] = Mode(p.job);
  Json annotations = Json::object();
  for (const auto& [k, v] : api::Annotations(p.job)) annotations[k] = v;
  Json spec = p.job["spec"]["rayClusterSpec"];
  if (Mode(p.job) == "SidecarMode") {
    annotations[utils::kDisableProvisionedHeadRestartAnnotationKey] = "true";
    base::StatusOr<Json> sidecar = BuildSidecarSubmitterContainer(p.job, spec);
    if (!sidecar.ok()) return sidecar.status();
    spec["headGroupSpec"]["template"]["spec"]["containers"].push_back(*sidecar);
    spec["headGroupSpec"]["template"]["spec"]["restartPolicy"] = "Never";
  }
  Json rc = {{"apiVersion", "ray.io/v1"},
             {"kind", "RayCluster"},
             {"metadata",
              {{"name", name}, {"namespace", ns}, {"labels", labels}, {"annotations", annotations}}},
             {"spec", spec}};
  Status owned = controllerutil::SetControllerReference(p.job, rc);
  if (!owned.ok()) return owned;
  base::StatusOr<api::ObjectPtr> created = client_.Create(rc);
  if (!created.ok()) {
    // Created by an earlier pass and not in the cache yet: wait for it.
    if (base::IsAlreadyExists(created.status())) return api::ObjectPtr(nullptr);
    return created.status();
  }
  p.ctx.Info("Created RayCluster for RayJob", {{"RayCluster", name}});
  Event(p, kEventTypeNormal, "CreatedRayCluster", "Created RayCluster " + ns + "/" + name);
  return created;
}

std::optional<Outcome> RayJobReconciler::Initializing(Pass& p) {
  if (utils::BoolAt(p.job, "/spec/suspend")) {
    p.status()["jobDeploymentStatus"] = kSuspending;
    return std::nullopt;
  }
  if (CheckActiveDeadline(p.job, p.status(), p.now())) return std::nullopt;
  if (CheckPreRunningDeadline(p.job, p.status(), p.now())) return std::nullopt;
  base::StatusOr<api::ObjectPtr> rc = GetOrCreateRayCluster(p);
  if (!rc.ok()) {
    Outcome o = Outcome::Error(rc.status());
    o.result.requeue_after = options_.requeue;
    return o;
  }
  if (*rc == nullptr) return Requeue(options_.requeue);
  const Json& cluster = **rc;
  p.status()["rayClusterStatus"] = cluster.contains("status") ? cluster["status"] : Json::object();
  if (utils::StringAt(cluster, "/status/state") != "ready") {
    p.ctx.Info("Wait for the RayCluster.Status.State to be ready before submitting the job.",
               {{"RayCluster", api::Name(cluster)},
                {"State", utils::StringAt(cluster, "/status/state")}});
    return std::nullopt;
  }
  if (p.Str("dashboardURL").empty()) p.status()["dashboardURL"] = utils::FetchHeadServiceURL(cluster);
  const std::string mode = Mode(p.job);
  if (mode == "InteractiveMode") {
    p.status()["jobDeploymentStatus"] = kWaiting;
    return std::nullopt;
  }
  if (mode == "K8sJobMode") {
    // createK8sJobIfNeed
    base::StatusOr<api::ObjectPtr> existing = client_.Get("Job", api::Namespace(p.job), api::Name(p.job));
    if (!existing.ok()) {
      if (!base::IsNotFound(existing.status())) return Outcome::Error(existing.status());
      base::StatusOr<Json> job = BuildSubmitterJob(p.job, cluster["spec"]);
      if (!job.ok()) return Outcome::Error(job.status());
      base::StatusOr<api::ObjectPtr> created = client_.Create(*job);
      if (!created.ok() && !base::IsAlreadyExists(created.status())) {
        Outcome o = Outcome::Error(created.status());
        o.result.requeue_after = options_.requeue;
        return o;
      }
      p.ctx.Info("Created submitter Kubernetes Job", {{"Job", api::Name(p.job)}});
      if (created.ok()) {
        Event(p, kEventTypeNormal, "CreatedRayJobSubmitter",
              "Created Kubernetes Job " + api::Namespace(p.job) + "/" + api::Name(p.job));
      }
    }
  }
  p.status()["jobDeploymentStatus"] = kRunning;
  return std::nullopt;
}

std::optional<Outcome> RayJobReconciler::Waiting(Pass& p) {
  if (CheckPreRunningDeadline(p.job, p.status(), p.now())) return std::nullopt;
  const std::string spec_job_id = utils::StringAt(p.job, "/spec/jobId");
  if (spec_job_id.empty()) return std::nullopt;  // the user has not submitted yet
  p.status()["jobId"] = spec_job_id;
  p.status()["jobDeploymentStatus"] = kRunning;
  return std::nullopt;
}

Status RayJobReconciler::ReconcileHeadService(Pass& p, const Json& cluster) {
  const std::string ns = api::Namespace(p.job);
  base::StatusOr<api::ObjectPtr> cluster_svc =
      client_.Get("Service", ns, utils::HeadServiceName(cluster));
  if (!cluster_svc.ok()) return base::IgnoreNotFound(cluster_svc.status());  // not yet
  const std::string name = utils::GenerateHeadServiceName(api::Name(p.job));
  const Json& selector = Field(Field(**cluster_svc, "spec"), "selector");
  base::StatusOr<api::ObjectPtr> existing = client_.Get("Service", ns, name);
  if (existing.ok()) {
    if (Field(Field(Field(**existing, "spec"), "selector"), utils::kRayClusterLabelKey.c_str()) ==
        Field(selector, utils::kRayClusterLabelKey.c_str())) {
      return Status::OK();
    }
    Json updated = **existing;
    updated["spec"]["selector"] = selector;
    base::StatusOr<api::ObjectPtr> u = client_.Update(updated);
    return u.ok() ? Status::OK() : u.status();
  }
  if (!base::IsNotFound(existing.status())) return existing.status();
  Json spec = Field(**cluster_svc, "spec");
  if (spec.is_object() && spec.value("clusterIP", Json()) != "None") {
    spec.erase("clusterIP");
    spec.erase("clusterIPs");
  } else if (spec.is_object()) {
    spec.erase("clusterIPs");
  }
  Json svc = {{"apiVersion", "v1"},
              {"kind", "Service"},
              {"metadata",
               {{"name", name},
                {"namespace", ns},
                {"labels",
                 {{utils::kRayOriginatedFromCRNameLabelKey, api::Name(p.job)},
                  {utils::kRayOriginatedFromCRDLabelKey, "RayJob"},
                  {utils::kRayNodeTypeLabelKey, "head"},
                  {utils::kRayIDLabelKey, api::Name(p.job) + "-head"}}}}},
              {"spec", spec}};
  Status owned = controllerutil::SetControllerReference(p.job, svc);
  if (!owned.ok()) return owned;
  base::StatusOr<api::ObjectPtr> created = client_.Create(svc);
  if (!created.ok() && !base::IsAlreadyExists(created.status())) return created.status();
  return Status::OK();
}

namespace {

// K8sJobState mirrors checkK8sJobStatus: a Complete or Failed condition finishes the Job.
SubmitterState K8sJobState(const Json& job) {
  SubmitterState s;
  for (const char* type : {"Complete", "Failed"}) {
    const Json* c = utils::FindCondition(job, type);
    if (c == nullptr || c->value("status", Json()) != "True") continue;
    s.finished = true;
    s.failed = std::string(type) == "Failed";
    if (s.failed) {
      s.failure = "Job submission has failed. Reason: " + utils::StrField(*c, "reason") +
                  ". Message: " + utils::StrField(*c, "message");
    }
    std::optional<base::SimTime> at = utils::ParseRfc3339(utils::StrField(*c, "lastTransitionTime"));
    s.finished_at = at.value_or(0);
  }
  return s;
}

// SidecarState mirrors checkSidecarContainerStatus: the head Pod's ray-job-submitter container.
SubmitterState SidecarState(const std::vector<api::ObjectPtr>& heads) {
  SubmitterState s;
  if (heads.empty()) {
    s.head_missing = true;
    return s;
  }
  const Json* statuses = utils::At(*heads[0], "/status/containerStatuses");
  if (statuses == nullptr || !statuses->is_array()) return s;
  for (const Json& cs : *statuses) {
    if (!cs.is_object() || cs.value("name", Json()) != utils::kSubmitterContainerName) continue;
    const Json* term = utils::At(cs, "/state/terminated");
    if (term == nullptr || !term->is_object()) return s;
    s.finished = true;
    s.failed = term->value("exitCode", Json(0)) != Json(0);
    s.failure = "Ray head pod container " + utils::kSubmitterContainerName +
                " terminated with exit code " + term->value("exitCode", Json(0)).dump() + ": " +
                utils::StrField(*term, "reason");
    std::optional<base::SimTime> at = utils::ParseRfc3339(utils::StrField(*term, "finishedAt"));
    s.finished_at = at.value_or(0);
  }
  return s;
}

std::string Stamp(int64_t virtual_ms) {
  return base::FormatRfc3339(virtual_ms * base::kMillisecond);
}

}  // namespace

std::optional<Outcome> RayJobReconciler::Running(Pass& p) {
  const base::SimTime now = p.now();
  Json& st = p.status();
  if (utils::BoolAt(p.job, "/spec/suspend")) {
    st["jobDeploymentStatus"] = kSuspending;
    return std::nullopt;
  }
  if (CheckActiveDeadline(p.job, st, now)) return std::nullopt;
  // A terminal Ray job whose RayJob is still Running after the grace period.
  if (dashboard::IsJobTerminal(p.Str("jobStatus"))) {
    std::optional<base::SimTime> end =
        utils::ParseRfc3339(utils::StringAt(p.job, "/status/rayJobInfo/endTime"));
    if (end.has_value() && now - *end > options_.transition_grace_period) {
      const bool failed = p.Str("jobStatus") == dashboard::kJobFailed;
      SetDeploymentStatus(st, failed ? kFailed : kComplete, now);
      st["reason"] = kTransitionGracePeriodExceeded;
      st["message"] = "The RayJob submitter did not finish within the transition grace period";
      return std::nullopt;
    }
  }
  if (std::optional<base::Duration> failing = SinceStamp(st, "jobStatusCheckFailureStartTime", now);
      failing.has_value() && *failing > options_.status_check_timeout) {
    Fail(st, kJobStatusCheckTimeoutExceeded,
         "Failed to get the Ray job status for longer than the status check timeout", now);
    return std::nullopt;
  }
  base::StatusOr<api::ObjectPtr> rc = GetOrCreateRayCluster(p);
  if (!rc.ok()) return Outcome::Error(rc.status());
  if (*rc == nullptr) return Requeue(options_.requeue);
  const Json& cluster = **rc;
  if (!HasClusterSelector(p.job)) {
    Status svc = ReconcileHeadService(p, cluster);
    if (!svc.ok()) return Outcome::Error(svc);
  }

  const std::string mode = Mode(p.job);
  SubmitterState submitter;
  if (mode == "K8sJobMode") {
    base::StatusOr<api::ObjectPtr> job = client_.Get("Job", api::Namespace(p.job), api::Name(p.job));
    if (job.ok()) submitter = K8sJobState(**job);
    else if (!base::IsNotFound(job.status())) return Outcome::Error(job.status());
  } else if (mode == "SidecarMode") {
    client::ListOptions sel;
    sel.label_selector = utils::kRayClusterLabelKey + "=" + api::Name(cluster) + "," +
                         utils::kRayNodeTypeLabelKey + "=head";
    base::StatusOr<std::vector<api::ObjectPtr>> heads = client_.List("Pod", api::Namespace(p.job), sel);
    if (!heads.ok()) return Outcome::Error(heads.status());
    submitter = SidecarState(*heads);
    if (submitter.head_missing) {
      Fail(st, kAppFailed, "Ray head pod not found.", now);
      return std::nullopt;
    }
  }
  if (submitter.failed) {
    // An AppFailed keeps the Ray job's message; a SubmissionFailed explains the submitter.
    const bool app = p.Str("jobStatus") == dashboard::kJobFailed;
    Fail(st, app ? kAppFailed : kSubmissionFailed, app ? p.Str("message") : submitter.failure,
         now);
    return std::nullopt;
  }

  // checkSubmitterFinishedTimeoutAndUpdateStatusIfNeeded: a submitter that finished 30s ago
  // ends the RayJob, whatever the dashboard says.
  if (submitter.finished && now - submitter.finished_at >= options_.submitter_finished_grace) {
    st["jobStatus"] = dashboard::kJobFailed;
    Fail(st, kTransitionGracePeriodExceeded,
         "The RayJob submitter finished at " + base::FormatRfc3339(submitter.finished_at) +
             " but the ray job did not reach terminal state within 30s",
         now);
    return std::nullopt;
  }
  std::unique_ptr<dashboard::RayDashboardClient> dash =
      dashboards_.Open(cluster, p.Str("dashboardURL"));
  const std::string job_id = p.Str("jobId");
  base::StatusOr<dashboard::RayJobInfo> info =
      dash != nullptr ? dash->GetJobInfo(job_id)
                      : base::StatusOr<dashboard::RayJobInfo>(
                            Status(base::StatusCode::kServiceUnavailable, "no dashboard client"));
  if (!info.ok() && base::IsNotFound(info.status())) {
    if (mode == "HTTPMode" && dash != nullptr) {
      dashboard::RayJobRequest request;
      request.entrypoint = utils::StringAt(p.job, "/spec/entrypoint");
      request.submission_id = job_id;
      base::StatusOr<std::string> env = GetRuntimeEnvJson(p.job);
      if (env.ok() && !env->empty()) {
        // Non-throwing: the sandbox must not abort on a learner's runtimeEnvYAML.
        Json parsed = Json::parse(*env, nullptr, /*allow_exceptions=*/false);
        if (!parsed.is_discarded()) request.runtime_env = std::move(parsed);
      }
      const Json* md = utils::At(p.job, "/spec/metadata");
      if (md != nullptr && md->is_object()) {
        for (const auto& [k, v] : md->items()) {
          if (v.is_string()) request.metadata[k] = v.get<std::string>();
        }
      }
      base::StatusOr<std::string> submitted = dash->SubmitJobReq(request);
      if (!submitted.ok()) {
        // recordJobStatusCheckFailure: a failing submission counts toward the status check
        // timeout.
        p.ctx.Info("Failed to submit the Ray job", {{"error", submitted.status().message()}});
        if (p.Str("jobStatusCheckFailureStartTime").empty()) {
          st["jobStatusCheckFailureStartTime"] = base::FormatRfc3339(now);
        }
        return std::nullopt;
      }
      p.ctx.Info("The Ray job was not found. Submitted a Ray job via an HTTP request.",
                 {{"jobId", job_id}});
      st.erase("jobStatusCheckFailureStartTime");
      return std::nullopt;
    }
    if (submitter.finished) {
      Fail(st, kAppFailed, "Submitter completed but Ray job not found in RayCluster.", now);
    }
    return std::nullopt;
  }
  if (!info.ok()) {
    // The dashboard is unreachable: remember since when, and give up after the timeout.
    if (p.Str("jobStatusCheckFailureStartTime").empty()) {
      st["jobStatusCheckFailureStartTime"] = base::FormatRfc3339(now);
    }
    p.ctx.Info("Failed to get the Ray job status", {{"error", info.status().message()}});
    return std::nullopt;
  }
  st.erase("jobStatusCheckFailureStartTime");
  st["rayClusterStatus"] = cluster.contains("status") ? cluster["status"] : Json::object();
  st["jobStatus"] = info->job_status;
  st["message"] = info->message;
  Json job_info = Json::object();
  if (info->start_time > 0) job_info["startTime"] = Stamp(info->start_time);
  if (info->end_time > 0) job_info["endTime"] = Stamp(info->end_time);
  st["rayJobInfo"] = job_info;

  bool terminal = dashboard::IsJobTerminal(info->job_status);
  if ((mode == "K8sJobMode" || mode == "SidecarMode") && !submitter.finished) {
    terminal = false;  // the submitter must finish too (its logs are complete then)
  }

  if (terminal) {
    if (info->job_status == dashboard::kJobFailed) {
      Fail(st, kAppFailed, info->message, now);
    } else {
      SetDeploymentStatus(st, kComplete, now);
    }
  }
  return std::nullopt;
}

std::optional<Outcome> RayJobReconciler::SuspendingOrRetrying(Pass& p) {
  const std::string ns = api::Namespace(p.job);
  bool gone = true;
  client::DeleteOptions background;
  background.propagation = apiserver::PropagationPolicy::kBackground;
  if (!HasClusterSelector(p.job) && !p.Str("rayClusterName").empty()) {
    base::StatusOr<api::ObjectPtr> rc = client_.Get("RayCluster", ns, p.Str("rayClusterName"));
    if (rc.ok()) {
      gone = false;
      if (!api::IsBeingDeleted(**rc)) {
        base::StatusOr<api::ObjectPtr> d =
            client_.Delete("RayCluster", ns, p.Str("rayClusterName"), background);
        if (!d.ok() && !base::IsNotFound(d.status())) return Outcome::Error(d.status());
      }
    } else if (!base::IsNotFound(rc.status())) {
      return Outcome::Error(rc.status());
    }
  }
  if (Mode(p.job) == "K8sJobMode") {
    base::StatusOr<api::ObjectPtr> job = client_.Get("Job", ns, api::Name(p.job));
    if (job.ok()) {
      gone = false;
      if (!api::IsBeingDeleted(**job)) {
        base::StatusOr<api::ObjectPtr> d = client_.Delete("Job", ns, api::Name(p.job), background);
        if (!d.ok() && !base::IsNotFound(d.status())) return Outcome::Error(d.status());
      }
    } else if (!base::IsNotFound(job.status())) {
      return Outcome::Error(job.status());
    }
  }
  if (!gone) {
    p.ctx.Info("Wait for the RayCluster and the submitter Job to be deleted");
    return Requeue(options_.requeue);
  }
  Json& st = p.status();
  for (const char* f : {"rayClusterName", "dashboardURL", "jobId", "message", "reason",
                        "rayJobInfo", "rayClusterStatus", "jobStatusCheckFailureStartTime"}) {
    st.erase(f);
  }
  st["jobStatus"] = "";
  st["jobDeploymentStatus"] = p.Str("jobDeploymentStatus") == kSuspending ? kSuspended : kNew;
  return std::nullopt;
}

Outcome RayJobReconciler::Finished(Pass& p) {
  if (HasClusterSelector(p.job)) return Outcome::Ok();
  DeletionContext d{client_, p.ctx, p.job, p.now(), options_.delete_rayjob_cr_after_job_finishes,
                    recorder_.get()};
  const Json* strategy = utils::At(p.job, "/spec/deletionStrategy");
  if (options_.ray_job_deletion_policy && strategy != nullptr && strategy->is_object()) {
    return HandleDeletionStrategy(d);
  }
  if (utils::BoolAt(p.job, "/spec/shutdownAfterJobFinishes")) return HandleShutdownAfterJobFinishes(d);
  return Outcome::Ok();
}

}  // namespace kuberay::rayjob
