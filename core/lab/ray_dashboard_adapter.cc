#include "core/lab/ray_dashboard_adapter.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace lab {
namespace {

namespace dash = kuberay::dashboard;

dash::RayJobInfo ToInfo(const world::RayJobRecord& r) {
  dash::RayJobInfo info;
  info.job_status = r.status;
  info.entrypoint = r.entrypoint;
  info.job_id = r.job_id;
  info.submission_id = r.job_id;
  info.message = r.message;
  info.start_time = r.start_time_ms;
  info.end_time = r.end_time_ms;
  info.metadata = r.metadata;
  return info;
}

class Client final : public dash::RayDashboardClient {
 public:
  Client(world::RayHeads& heads, std::string ns, std::string cluster)
      : heads_(heads), ns_(std::move(ns)), cluster_(std::move(cluster)) {}

  base::StatusOr<dash::ServeDetails> GetServeDetails() override {
    base::StatusOr<std::vector<world::ServeAppRecord>> apps =
        heads_.GetServeApplications(ns_, cluster_);
    if (!apps.ok()) return apps.status();
    dash::ServeDetails details;
    for (const world::ServeAppRecord& a : *apps) {
      dash::ServeApplicationStatus s;
      s.status = a.status;
      s.message = a.message;
      for (const std::string& d : a.deployments) s.deployments[d] = {a.deployment_status, ""};
      details.applications[a.name] = s;
    }
    return details;
  }
  base::Status UpdateDeployments(const api::Json& config) override {
    return heads_.PutServeConfig(ns_, cluster_, config);
  }
  base::StatusOr<dash::RayJobInfo> GetJobInfo(const std::string& job_id) override {
    base::StatusOr<world::RayJobRecord> r = heads_.GetJob(ns_, cluster_, job_id);
    if (!r.ok()) return r.status();
    return ToInfo(*r);
  }
  base::StatusOr<std::vector<dash::RayJobInfo>> ListJobs() override {
    base::StatusOr<std::vector<world::RayJobRecord>> rs = heads_.ListJobs(ns_, cluster_);
    if (!rs.ok()) return rs.status();
    std::vector<dash::RayJobInfo> out;
    for (const world::RayJobRecord& r : *rs) out.push_back(ToInfo(r));
    return out;
  }
  base::StatusOr<std::string> SubmitJobReq(const dash::RayJobRequest& request) override {
    world::RayJobRecord r;
    r.job_id = request.submission_id;
    r.entrypoint = request.entrypoint;
    r.metadata = request.metadata;
    return heads_.SubmitJob(ns_, cluster_, r);
  }
  base::StatusOr<std::string> GetJobLog(const std::string& job_id) override {
    return heads_.GetJobLogs(ns_, cluster_, job_id);
  }
  base::Status StopJob(const std::string& job_id) override {
    return heads_.StopJob(ns_, cluster_, job_id);
  }
  base::Status DeleteJob(const std::string& job_id) override {
    return heads_.DeleteJob(ns_, cluster_, job_id);
  }

 private:
  world::RayHeads& heads_;
  std::string ns_;
  std::string cluster_;
};

class ProxyClient final : public dash::RayHttpProxyClient {
 public:
  ProxyClient(world::RayHeads& heads, std::string ns, std::string cluster)
      : heads_(heads), ns_(std::move(ns)), cluster_(std::move(cluster)) {}
  base::Status CheckProxyActorHealth() override { return heads_.CheckProxyHealth(ns_, cluster_); }

 private:
  world::RayHeads& heads_;
  std::string ns_;
  std::string cluster_;
};

}  // namespace

std::unique_ptr<dash::RayHttpProxyClient> RayDashboardAdapter::OpenHttpProxy(const api::Json& pod,
                                                                             int /*port*/) {
  const std::map<std::string, std::string> labels = api::Labels(pod);
  auto cluster = labels.find("ray.io/cluster");
  if (cluster == labels.end()) return nullptr;
  return std::make_unique<ProxyClient>(heads_, api::Namespace(pod), cluster->second);
}

std::unique_ptr<dash::RayDashboardClient> RayDashboardAdapter::Open(
    const api::Json& ray_cluster, const std::string& /*dashboard_url*/) {
  return std::make_unique<Client>(heads_, api::Namespace(ray_cluster), api::Name(ray_cluster));
}

}  // namespace lab
