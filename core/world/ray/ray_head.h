#pragma once
// RayHeads: the simulated Ray head of every RayCluster — the dashboard's job API (submit,
// status, stop, delete, logs), Serve applications (put a config, read statuses) and GCS health.
// The operator reaches it through kuberay::dashboard::RayDashboardClient, which the lab adapts to
// this class.
// No Go counterpart (a real head runs Ray's job manager and Serve controller); statuses and
// their names follow Ray's dashboard API as KubeRay's dashboardclient reads it.
// Behaviour comes from sandbox annotations (DESIGN.md), read when a job is submitted or a Serve
// config is put: the RayJob whose status.jobId is the submission id, else the RayCluster (which
// carries its RayJob's / RayService's annotations):
//   sim.reconcile-lab.io/job-runtime       [10s]  RUNNING lasts this long
//   sim.reconcile-lab.io/job-outcome       [SUCCEEDED | FAILED | STOPPED]
//   sim.reconcile-lab.io/serve-deploy-time [5s]   DEPLOYING lasts this long
//   sim.reconcile-lab.io/serve-outcome     [RUNNING | DEPLOY_FAILED | UNHEALTHY]
// A job is PENDING for kJobStartDelay, then RUNNING for job-runtime, then its outcome. A Serve
// application is DEPLOYING for serve-deploy-time, then its outcome.
// Simplified: statuses are computed from virtual time when asked (no scheduled events); GCS is
// in memory and tied to the RayCluster's UID (a recreated cluster starts empty; a restarted head
// Pod keeps its jobs, as with GCS fault tolerance); bad annotation values fall back to defaults.
// Teaching: the head answers only while its Ray container is ready (like a dashboard behind the
// head Service; a SidecarMode submitter that ended does not count); otherwise every call is kServiceUnavailable, as is every call while
// SetUnavailable is in force (`fault`-style injection).
// Single-threaded; ordered containers only; calls are traced as ray.call.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/apiserver/api_server.h"
#include "core/base/status.h"
#include "core/base/time.h"
#include "core/sim/clock.h"
#include "core/sim/trace.h"

namespace world {

// The sandbox annotations the head reads.
inline const std::string kJobRuntimeAnnotation = "sim.reconcile-lab.io/job-runtime";
inline const std::string kJobOutcomeAnnotation = "sim.reconcile-lab.io/job-outcome";
inline const std::string kServeDeployTimeAnnotation = "sim.reconcile-lab.io/serve-deploy-time";
inline const std::string kServeOutcomeAnnotation = "sim.reconcile-lab.io/serve-outcome";
// Defaults of those annotations, and how long a submitted job stays PENDING.
constexpr base::Duration kDefaultJobRuntime = 10 * base::kSecond;
constexpr base::Duration kDefaultServeDeployTime = 5 * base::kSecond;
constexpr base::Duration kJobStartDelay = 1 * base::kSecond;

// RayJobRecord is one job in a head's job table, as the dashboard reports it.
struct RayJobRecord {
  std::string job_id;  // the submission id
  std::string entrypoint;
  std::string status;  // PENDING, RUNNING, STOPPED, SUCCEEDED, FAILED
  std::string message;
  int64_t start_time_ms = 0;  // virtual ms; 0 while PENDING
  int64_t end_time_ms = 0;    // virtual ms; 0 until terminal
  std::map<std::string, std::string> metadata;
};

// ServeAppRecord is one Serve application's status.
struct ServeAppRecord {
  std::string name;
  std::string status;  // DEPLOYING, RUNNING, DEPLOY_FAILED, UNHEALTHY
  std::string message;
  std::vector<std::string> deployments;  // deployment names from the config
  std::string deployment_status;         // UPDATING, HEALTHY, UNHEALTHY (all deployments)
};

class RayHeads {
 public:
  // apiserver, clock and trace must outlive this object.
  RayHeads(const apiserver::ApiServer& apiserver, const sim::Clock& clock, sim::Trace& trace);
  RayHeads(const RayHeads&) = delete;
  RayHeads& operator=(const RayHeads&) = delete;

  // Every call addresses the head of RayCluster ns/cluster. Unreachable (no Ready head Pod, the
  // RayCluster is gone, or SetUnavailable) → kServiceUnavailable.
  base::StatusOr<std::string> SubmitJob(const std::string& ns, const std::string& cluster,
                                        const RayJobRecord& request);
  // GetJob: kNotFound when job_id was never submitted to this head.
  base::StatusOr<RayJobRecord> GetJob(const std::string& ns, const std::string& cluster,
                                      const std::string& job_id);
  base::StatusOr<std::vector<RayJobRecord>> ListJobs(const std::string& ns,
                                                     const std::string& cluster);
  // StopJob: a PENDING or RUNNING job becomes STOPPED now; a terminal one is left alone.
  base::Status StopJob(const std::string& ns, const std::string& cluster,
                       const std::string& job_id);
  base::Status DeleteJob(const std::string& ns, const std::string& cluster,
                         const std::string& job_id);
  base::StatusOr<std::string> GetJobLogs(const std::string& ns, const std::string& cluster,
                                         const std::string& job_id);
  // PutServeConfig deploys config["applications"] (each {name, route_prefix, import_path,
  // deployments:[{name}]}): a new or changed application starts DEPLOYING; unchanged ones keep
  // their status; applications absent from the config are removed. Malformed config → kInvalid.
  base::Status PutServeConfig(const std::string& ns, const std::string& cluster,
                              const api::Json& config);
  base::StatusOr<std::vector<ServeAppRecord>> GetServeApplications(const std::string& ns,
                                                                   const std::string& cluster);
  // CheckProxyHealth is GET /-/healthz on the head Pod's Serve HTTP proxy: OK once Serve runs
  // there (a config was put) and the head is reachable; kServiceUnavailable otherwise.
  base::Status CheckProxyHealth(const std::string& ns, const std::string& cluster);
  // GcsHealthy is GET /api/gcs_healthz: the head is reachable.
  bool GcsHealthy(const std::string& ns, const std::string& cluster) const;

  // SetUnavailable makes the head of ns/cluster (or every head when cluster is "*") refuse calls.
  void SetUnavailable(const std::string& ns, const std::string& cluster, bool unavailable);

 private:
  struct StoredJob {
    RayJobRecord record;  // job_id, entrypoint, metadata, message
    base::SimTime submitted = 0;
    base::Duration runtime = 0;
    std::string outcome;
    base::SimTime stopped_at = -1;  // >= 0 once StopJob ran
  };
  struct StoredApp {
    std::string name;
    api::Json spec;  // the application's config, to tell a change
    base::SimTime deployed = 0;
    base::Duration deploy_time = 0;
    std::string outcome;
  };
  struct Head {
    std::string cluster_uid;
    std::map<std::string, StoredJob> jobs;
    std::map<std::string, StoredApp> apps;
  };

  // Reach returns the head's state (reset when the cluster's UID changed) or an error.
  base::StatusOr<Head*> Reach(const std::string& op, const std::string& ns,
                              const std::string& cluster, const std::string& item);
  bool HeadPodReady(const std::string& ns, const std::string& cluster) const;
  RayJobRecord View(const StoredJob& job) const;
  ServeAppRecord View(const StoredApp& app) const;
  // SandboxAnnotation reads key from the RayJob with status.jobId == job_id (when given), else
  // from the RayCluster; "" when absent.
  std::string SandboxAnnotation(const std::string& ns, const std::string& cluster,
                                const std::string& job_id, const std::string& key) const;
  void Trace(const std::string& op, const std::string& ns, const std::string& cluster,
             const std::string& item, const base::Status& status);

  const apiserver::ApiServer& apiserver_;
  const sim::Clock& clock_;
  sim::Trace& trace_;
  std::map<std::string, Head> heads_;  // by "ns/cluster"
  std::map<std::string, bool> unavailable_;
};

}  // namespace world
