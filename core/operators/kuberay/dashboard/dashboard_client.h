#pragma once
// RayDashboardClient: what the KubeRay operator asks a Ray head's dashboard — the job
// submission API (submit, status, stop, delete, logs) and the Serve REST API (get the
// applications, put a config). The operator declares it; core/world/ray implements it, and the
// lab (composition root) adapts one to the other, so operators never include core/world.
// Mirrors: ray-operator/controllers/ray/utils/dashboardclient/dashboard_httpclient.go
// (RayDashboardClientInterface) and utils/util.go GetRayDashboardClientFunc (ClientProvider).
// Simplified: calls are synchronous and return a status instead of an HTTP response; the Serve
// details keep only application and deployment statuses; job times are milliseconds of virtual
// time since the virtual epoch (Ray reports Unix milliseconds).
// Teaching: a 404 from GET /api/jobs/<id> is kNotFound here, which the RayJob controller reads
// as "not submitted yet" (HTTPMode submits then); an unreachable head (its Pod not Ready) is
// kServiceUnavailable.
// Single-threaded.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/status.h"

namespace kuberay::dashboard {

// Job statuses, as Ray's job manager reports them (utils/dashboardclient JobStatus).
inline const std::string kJobPending = "PENDING";
inline const std::string kJobRunning = "RUNNING";
inline const std::string kJobStopped = "STOPPED";
inline const std::string kJobSucceeded = "SUCCEEDED";
inline const std::string kJobFailed = "FAILED";
// IsJobTerminal mirrors rayv1.IsJobTerminal: STOPPED, SUCCEEDED and FAILED never change again.
bool IsJobTerminal(const std::string& job_status);

// Serve application statuses (utils/dashboardclient ApplicationStatusEnum).
inline const std::string kAppNotStarted = "NOT_STARTED";
inline const std::string kAppDeploying = "DEPLOYING";
inline const std::string kAppRunning = "RUNNING";
inline const std::string kAppDeployFailed = "DEPLOY_FAILED";
inline const std::string kAppDeleting = "DELETING";
inline const std::string kAppUnhealthy = "UNHEALTHY";

// RayJobInfo mirrors dashboardclient.RayJobInfo (GET /api/jobs/<id>).
struct RayJobInfo {
  std::string job_status;
  std::string entrypoint;
  std::string job_id;
  std::string submission_id;
  std::string message;
  // start_time / end_time are virtual milliseconds; 0 when not started / not ended.
  int64_t start_time = 0;
  int64_t end_time = 0;
  std::map<std::string, std::string> metadata;
};

// RayJobRequest mirrors dashboardclient.RayJobRequest (POST /api/jobs/).
struct RayJobRequest {
  std::string entrypoint;
  std::string submission_id;
  api::Json runtime_env;  // null when unset
  std::map<std::string, std::string> metadata;
};

// ServeDeploymentStatus / ServeApplicationStatus mirror dashboardclient's
// ServeDeploymentDetails / ServeApplicationDetails (status and message only).
struct ServeDeploymentStatus {
  std::string status;  // UPDATING, HEALTHY, UNHEALTHY
  std::string message;
};
struct ServeApplicationStatus {
  std::string status;
  std::string message;
  std::map<std::string, ServeDeploymentStatus> deployments;
};
// ServeDetails mirrors dashboardclient.ServeDetails: applications by name (Ray reports the
// unnamed application as "default").
struct ServeDetails {
  std::map<std::string, ServeApplicationStatus> applications;
};

class RayDashboardClient {
 public:
  virtual ~RayDashboardClient() = default;
  // GetServeDetails is GET /api/serve/applications/.
  virtual base::StatusOr<ServeDetails> GetServeDetails() = 0;
  // UpdateDeployments is PUT /api/serve/applications/ with the Serve config as JSON.
  virtual base::Status UpdateDeployments(const api::Json& config) = 0;
  // GetJobInfo is GET /api/jobs/<job_id>; kNotFound when no such job was submitted.
  virtual base::StatusOr<RayJobInfo> GetJobInfo(const std::string& job_id) = 0;
  // ListJobs is GET /api/jobs/.
  virtual base::StatusOr<std::vector<RayJobInfo>> ListJobs() = 0;
  // SubmitJobReq is POST /api/jobs/; returns the job id (the submission id when given).
  virtual base::StatusOr<std::string> SubmitJobReq(const RayJobRequest& request) = 0;
  // GetJobLog is GET /api/jobs/<job_id>/logs.
  virtual base::StatusOr<std::string> GetJobLog(const std::string& job_id) = 0;
  // StopJob is POST /api/jobs/<job_id>/stop; stopping a terminal job is OK.
  virtual base::Status StopJob(const std::string& job_id) = 0;
  // DeleteJob is DELETE /api/jobs/<job_id>.
  virtual base::Status DeleteJob(const std::string& job_id) = 0;
};

// RayHttpProxyClient is the Ray Serve HTTP proxy on one Pod.
// mirrors utils/httpproxy_httpclient.go RayHttpProxyClientInterface
class RayHttpProxyClient {
 public:
  virtual ~RayHttpProxyClient() = default;
  // CheckProxyActorHealth is GET http://<pod IP>:<serving port>/-/healthz; OK when healthy.
  virtual base::Status CheckProxyActorHealth() = 0;
};

// ClientProvider opens a dashboard client for a RayCluster at a dashboard URL
// ("<head-svc>.<ns>.svc.cluster.local:8265"). mirrors utils.GetRayDashboardClientFunc /
// RayDashboardClient.InitClient
class ClientProvider {
 public:
  virtual ~ClientProvider() = default;
  virtual std::unique_ptr<RayDashboardClient> Open(const api::Json& ray_cluster,
                                                   const std::string& dashboard_url) = 0;
  // OpenHttpProxy opens a client for the Serve proxy of pod on port.
  // mirrors utils.GetRayHttpProxyClientFunc. Defaults to none (the proxy counts as unhealthy).
  virtual std::unique_ptr<RayHttpProxyClient> OpenHttpProxy(const api::Json& /*pod*/,
                                                            int /*port*/) {
    return nullptr;
  }
};

}  // namespace kuberay::dashboard
