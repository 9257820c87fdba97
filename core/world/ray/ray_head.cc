#include "core/world/ray/ray_head.h"

#include <utility>

#include "core/api/pointer.h"

namespace world {
namespace {

using api::Json;
using base::Status;
using base::StatusCode;

constexpr const char* kClusterLabel = "ray.io/cluster";
constexpr const char* kNodeTypeLabel = "ray.io/node-type";

int64_t Millis(base::SimTime t) { return t / base::kMillisecond; }

// DurationOr parses a Go duration annotation; missing or malformed → fallback (bad input never
// crashes, it only falls back to the default).
base::Duration DurationOr(const std::string& text, base::Duration fallback) {
  if (text.empty()) return fallback;
  base::StatusOr<base::Duration> d = base::ParseDuration(text);
  return d.ok() && *d >= 0 ? *d : fallback;
}

std::string OneOf(const std::string& value, const std::vector<std::string>& allowed) {
  for (const std::string& a : allowed) {
    if (value == a) return a;
  }
  return allowed.front();
}

// RayContainerReady: the head Pod is Ready, or at least its Ray container (the first) is. The dashboard runs there, so
// a sidecar that ended (SidecarMode's submitter), which makes the Pod itself not Ready, does
// not take it down.
bool RayContainerReady(const Json& pod) {
  if (api::IsBeingDeleted(pod)) return false;
  const Json::json_pointer conditions("/status/conditions");
  if (pod.contains(conditions) && pod.at(conditions).is_array()) {
    for (const Json& c : pod.at(conditions)) {
      if (c.is_object() && c.value("type", Json()) == "Ready" && c.value("status", Json()) == "True")
        return true;
    }
  }
  const std::string ray = api::GetString(pod, "/spec/containers/0/name");
  const Json::json_pointer ptr("/status/containerStatuses");
  if (!pod.contains(ptr) || !pod.at(ptr).is_array()) return false;
  for (const Json& c : pod.at(ptr)) {
    if (c.is_object() && c.value("name", Json()) == ray) return c.value("ready", Json()) == true;
  }
  return false;
}

}  // namespace

RayHeads::RayHeads(const apiserver::ApiServer& apiserver, const sim::Clock& clock,
                   sim::Trace& trace)
    : apiserver_(apiserver), clock_(clock), trace_(trace) {}

void RayHeads::SetUnavailable(const std::string& ns, const std::string& cluster,
                              bool unavailable) {
  const std::string key = cluster == "*" ? "*" : api::ObjectKey(ns, cluster);
  if (unavailable) {
    unavailable_[key] = true;
  } else {
    unavailable_.erase(key);
  }
}

bool RayHeads::HeadPodReady(const std::string& ns, const std::string& cluster) const {
  for (const api::ObjectPtr& pod : apiserver_.PeekAll("Pod")) {
    if (api::Namespace(*pod) != ns) continue;
    const std::map<std::string, std::string> labels = api::Labels(*pod);
    auto c = labels.find(kClusterLabel);
    auto t = labels.find(kNodeTypeLabel);
    if (c == labels.end() || c->second != cluster || t == labels.end() || t->second != "head")
      continue;
    if (RayContainerReady(*pod)) return true;
  }
  return false;
}

bool RayHeads::GcsHealthy(const std::string& ns, const std::string& cluster) const {
  if (unavailable_.count("*") != 0 || unavailable_.count(api::ObjectKey(ns, cluster)) != 0)
    return false;
  return apiserver_.Peek("RayCluster", ns, cluster) != nullptr && HeadPodReady(ns, cluster);
}

void RayHeads::Trace(const std::string& op, const std::string& ns, const std::string& cluster,
                     const std::string& item, const Status& status) {
  trace_.Emit("ray.call", {{"op", op},
                           {"cluster", api::ObjectKey(ns, cluster)},
                           {"name", item},
                           {"code", status.ok() ? 200 : status.http_code()},
                           {"cause", trace_.current_cause()}});
}

base::StatusOr<RayHeads::Head*> RayHeads::Reach(const std::string& op, const std::string& ns,
                                                const std::string& cluster,
                                                const std::string& item) {
  Status status;
  api::ObjectPtr rc = apiserver_.Peek("RayCluster", ns, cluster);
  if (!GcsHealthy(ns, cluster)) {
    status = Status(StatusCode::kServiceUnavailable,
                    "Ray dashboard of RayCluster " + api::ObjectKey(ns, cluster) +
                        " is unavailable (head Pod not Ready)");
  }
  Trace(op, ns, cluster, item, status);
  if (!status.ok()) return status;
  Head& head = heads_[api::ObjectKey(ns, cluster)];
  if (head.cluster_uid != api::Uid(*rc)) {
    // A new RayCluster with the same name has a new GCS: nothing survives.
    head = Head{};
    head.cluster_uid = api::Uid(*rc);
  }
  return &head;
}

std::string RayHeads::SandboxAnnotation(const std::string& ns, const std::string& cluster,
                                        const std::string& job_id,
                                        const std::string& key) const {
  if (!job_id.empty()) {
    for (const api::ObjectPtr& job : apiserver_.PeekAll("RayJob")) {
      if (api::Namespace(*job) != ns) continue;
      const Json::json_pointer id("/status/jobId");
      if (!job->contains(id) || job->at(id) != job_id) continue;
      const std::map<std::string, std::string> a = api::Annotations(*job);
      auto it = a.find(key);
      if (it != a.end()) return it->second;
    }
  }
  if (api::ObjectPtr rc = apiserver_.Peek("RayCluster", ns, cluster)) {
    const std::map<std::string, std::string> a = api::Annotations(*rc);
    auto it = a.find(key);
    if (it != a.end()) return it->second;
  }
  return "";
}

RayJobRecord RayHeads::View(const StoredJob& job) const {
  RayJobRecord r = job.record;
  const base::SimTime now = clock_.Now();
  const base::SimTime started = job.submitted + kJobStartDelay;
  const base::SimTime ended = started + job.runtime;
  if (job.stopped_at >= 0 && (job.stopped_at < ended)) {
    r.status = "STOPPED";
    r.start_time_ms = job.stopped_at >= started ? Millis(started) : 0;
    r.end_time_ms = Millis(job.stopped_at);
    r.message = "Job was intentionally stopped.";
  } else if (now < started) {
    r.status = "PENDING";
    r.message = "Job has not started yet. It may be waiting for the runtime environment to be set up.";
  } else if (now < ended) {
    r.status = "RUNNING";
    r.start_time_ms = Millis(started);
    r.message = "Job is currently running.";
  } else {
    r.status = job.outcome;
    r.start_time_ms = Millis(started);
    r.end_time_ms = Millis(ended);
    r.message = job.outcome == "SUCCEEDED" ? "Job finished successfully."
                : job.outcome == "FAILED"  ? "Job entrypoint command failed with exit code 1"
                                           : "Job was intentionally stopped.";
  }
  return r;
}

base::StatusOr<std::string> RayHeads::SubmitJob(const std::string& ns, const std::string& cluster,
                                                const RayJobRecord& request) {
  base::StatusOr<Head*> head = Reach("submit-job", ns, cluster, request.job_id);
  if (!head.ok()) return head.status();
  if (request.job_id.empty()) return Status(StatusCode::kInvalid, "submission_id is required");
  if ((*head)->jobs.count(request.job_id) != 0) {
    // Ray's job manager refuses a second job with the same submission id.
    return Status(StatusCode::kInvalid,
                  "Job with submission_id " + request.job_id + " already exists.");
  }
  StoredJob job;
  job.record = request;
  job.submitted = clock_.Now();
  job.runtime = DurationOr(SandboxAnnotation(ns, cluster, request.job_id, kJobRuntimeAnnotation),
                           kDefaultJobRuntime);
  job.outcome = OneOf(SandboxAnnotation(ns, cluster, request.job_id, kJobOutcomeAnnotation),
                      {"SUCCEEDED", "FAILED", "STOPPED"});
  (*head)->jobs.emplace(request.job_id, std::move(job));
  return request.job_id;
}

base::StatusOr<RayJobRecord> RayHeads::GetJob(const std::string& ns, const std::string& cluster,
                                              const std::string& job_id) {
  base::StatusOr<Head*> head = Reach("get-job", ns, cluster, job_id);
  if (!head.ok()) return head.status();
  auto it = (*head)->jobs.find(job_id);
  if (it == (*head)->jobs.end()) {
    return Status(StatusCode::kNotFound, "Job " + job_id + " does not exist");
  }
  return View(it->second);
}

base::StatusOr<std::vector<RayJobRecord>> RayHeads::ListJobs(const std::string& ns,
                                                             const std::string& cluster) {
  base::StatusOr<Head*> head = Reach("list-jobs", ns, cluster, "");
  if (!head.ok()) return head.status();
  std::vector<RayJobRecord> out;
  for (const auto& [id, job] : (*head)->jobs) out.push_back(View(job));
  return out;
}

base::Status RayHeads::StopJob(const std::string& ns, const std::string& cluster,
                               const std::string& job_id) {
  base::StatusOr<Head*> head = Reach("stop-job", ns, cluster, job_id);
  if (!head.ok()) return head.status();
  auto it = (*head)->jobs.find(job_id);
  if (it == (*head)->jobs.end()) {
    return Status(StatusCode::kNotFound, "Job " + job_id + " does not exist");
  }
  if (it->second.stopped_at < 0 && View(it->second).status != "SUCCEEDED" &&
      View(it->second).status != "FAILED") {
    it->second.stopped_at = clock_.Now();
  }
  return Status::OK();
}

base::Status RayHeads::DeleteJob(const std::string& ns, const std::string& cluster,
                                 const std::string& job_id) {
  base::StatusOr<Head*> head = Reach("delete-job", ns, cluster, job_id);
  if (!head.ok()) return head.status();
  auto it = (*head)->jobs.find(job_id);
  if (it == (*head)->jobs.end()) {
    return Status(StatusCode::kNotFound, "Job " + job_id + " does not exist");
  }
  const std::string status = View(it->second).status;
  if (status == "PENDING" || status == "RUNNING") {
    return Status(StatusCode::kInvalid, "Job " + job_id + " is not in a terminal state");
  }
  (*head)->jobs.erase(it);
  return Status::OK();
}

base::StatusOr<std::string> RayHeads::GetJobLogs(const std::string& ns,
                                                 const std::string& cluster,
                                                 const std::string& job_id) {
  base::StatusOr<Head*> head = Reach("get-job-logs", ns, cluster, job_id);
  if (!head.ok()) return head.status();
  auto it = (*head)->jobs.find(job_id);
  if (it == (*head)->jobs.end()) {
    return Status(StatusCode::kNotFound, "Job " + job_id + " does not exist");
  }
  const RayJobRecord r = View(it->second);
  std::string logs = "Job " + job_id + " submitted: " + r.entrypoint + "\n";
  if (r.status != "PENDING") logs += "Job " + job_id + " running\n";
  if (r.status == "SUCCEEDED" || r.status == "FAILED" || r.status == "STOPPED") {
    logs += "Job '" + job_id + "' " + r.status + "\n";
  }
  return logs;
}

ServeAppRecord RayHeads::View(const StoredApp& app) const {
  ServeAppRecord r;
  r.name = app.name;
  if (app.spec.contains("deployments") && app.spec["deployments"].is_array()) {
    for (const Json& d : app.spec["deployments"]) {
      if (d.is_object() && d.value("name", Json()).is_string())
        r.deployments.push_back(d["name"].get<std::string>());
    }
  }
  if (clock_.Now() < app.deployed + app.deploy_time) {
    r.status = "DEPLOYING";
    r.deployment_status = "UPDATING";
    return r;
  }
  r.status = app.outcome;
  if (app.outcome == "RUNNING") {
    r.deployment_status = "HEALTHY";
  } else if (app.outcome == "DEPLOY_FAILED") {
    r.deployment_status = "UNHEALTHY";
    r.message = "Deploying application " + app.name + " failed";
  } else {
    r.deployment_status = "UNHEALTHY";
    r.message = "The deployments of application " + app.name + " are UNHEALTHY";
  }
  return r;
}

base::Status RayHeads::PutServeConfig(const std::string& ns, const std::string& cluster,
                                      const api::Json& config) {
  base::StatusOr<Head*> head = Reach("put-serve-applications", ns, cluster, "");
  if (!head.ok()) return head.status();
  if (!config.is_object() || !config.contains("applications") ||
      !config["applications"].is_array()) {
    return Status(StatusCode::kInvalid, "serve config has no applications list");
  }
  std::map<std::string, StoredApp> next;
  const base::Duration deploy_time = DurationOr(
      SandboxAnnotation(ns, cluster, "", kServeDeployTimeAnnotation), kDefaultServeDeployTime);
  const std::string outcome = OneOf(SandboxAnnotation(ns, cluster, "", kServeOutcomeAnnotation),
                                    {"RUNNING", "DEPLOY_FAILED", "UNHEALTHY"});
  for (const Json& app : config["applications"]) {
    if (!app.is_object()) return Status(StatusCode::kInvalid, "serve application is not an object");
    std::string name = app.value("name", Json("")).is_string()
                           ? app.value("name", Json("")).get<std::string>()
                           : std::string();
    if (name.empty()) name = "default";
    if (next.count(name) != 0) {
      return Status(StatusCode::kInvalid, "duplicate serve application name " + name);
    }
    auto old = (*head)->apps.find(name);
    if (old != (*head)->apps.end() && old->second.spec == app) {
      next.emplace(name, old->second);  // unchanged: keeps its status
      continue;
    }
    next.emplace(name, StoredApp{name, app, clock_.Now(), deploy_time, outcome});
  }
  (*head)->apps = std::move(next);
  return Status::OK();
}

base::StatusOr<std::vector<ServeAppRecord>> RayHeads::GetServeApplications(
    const std::string& ns, const std::string& cluster) {
  base::StatusOr<Head*> head = Reach("get-serve-applications", ns, cluster, "");
  if (!head.ok()) return head.status();
  std::vector<ServeAppRecord> out;
  for (const auto& [name, app] : (*head)->apps) out.push_back(View(app));
  return out;
}

Status RayHeads::CheckProxyHealth(const std::string& ns, const std::string& cluster) {
  base::StatusOr<Head*> head = Reach("proxy-healthz", ns, cluster, "");
  if (!head.ok()) return head.status();
  // Serve starts its proxies with the first application; before that nothing listens on 8000.
  if ((*head)->apps.empty()) {
    return Status(StatusCode::kServiceUnavailable,
                  "Serve HTTP proxy of RayCluster " + api::ObjectKey(ns, cluster) + " is not running");
  }
  return Status::OK();
}

}  // namespace world
