#include "core/operators/kuberay/rayservice/reconciler.h"

#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "core/controller/controllerutil/controllerutil.h"
#include "core/operators/kuberay/common/conditions.h"
#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/names.h"
#include "core/operators/kuberay/common/utils.h"
#include "core/operators/kuberay/rayjob/submitter.h"
#include "core/operators/kuberay/rayservice/cluster_hash.h"
#include "core/operators/kuberay/rayservice/serve_label.h"

namespace kuberay::rayservice {

using api::Json;
using base::Status;
using reconcile::Outcome;

struct RayServiceReconciler::Pass {
  reconcile::ReconcileContext& ctx;
  Json svc;             // the RayService as read
  Json status;          // the status being computed
  api::ObjectPtr active;   // the active RayCluster, when it exists
  api::ObjectPtr pending;  // the pending RayCluster, when it exists
  std::string Key() const { return api::ObjectKey(svc); }
  std::string Ns() const { return api::Namespace(svc); }
  std::string ActiveName() const {
    return utils::StringAt(status, "/activeServiceStatus/rayClusterName");
  }
  std::string PendingName() const {
    return utils::StringAt(status, "/pendingServiceStatus/rayClusterName");
  }
};

namespace {

Outcome RequeueAfter(base::Duration d) {
  reconcile::Result r;
  r.requeue_after = d;
  return Outcome::Ok(r);
}

client::DeleteOptions Background() {
  client::DeleteOptions o;
  o.propagation = apiserver::PropagationPolicy::kBackground;
  return o;
}

std::string ServeServiceName(const Json& svc) {
  const std::string custom = utils::StringAt(svc, "/spec/serveService/metadata/name");
  return custom.empty() ? utils::GenerateServeServiceName(api::Name(svc)) : custom;
}

bool IsDNS1035Label(const std::string& s) {
  if (s.empty() || s.size() > 63 || s[0] < 'a' || s[0] > 'z' || s.back() == '-') return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

// ValidateRayService mirrors utils/validation.go ValidateRayServiceMetadata/Spec (a subset).
Status ValidateRayService(const Json& svc) {
  auto invalid = [](const std::string& m) { return Status(base::StatusCode::kInvalid, m); };
  const std::string name = api::Name(svc);
  if (name.size() > 47) return invalid("RayService name should be no more than 47 characters");
  if (!IsDNS1035Label(name)) return invalid("RayService name should be a valid DNS1035 label");
  const Json* head = utils::At(svc, "/spec/rayClusterConfig/headGroupSpec/template/spec/containers");
  if (head == nullptr || !head->is_array() || head->empty()) {
    return invalid("The RayService spec is invalid: headGroupSpec should have at least one container");
  }
  if (!utils::StringAt(svc, "/spec/rayClusterConfig/headGroupSpec/headService/metadata/name").empty()) {
    return invalid("The RayService spec is invalid: spec.rayClusterConfig.headGroupSpec.headService.metadata.name should not be set");
  }
  const std::string type = utils::StringAt(svc, "/spec/upgradeStrategy/type");
  if (!type.empty() && type != "NewCluster" && type != "NewClusterWithIncrementalUpgrade" &&
      type != "None") {
    return invalid("The RayService spec is invalid: Spec.UpgradeStrategy.Type value " + type +
                   " is invalid, valid options are NewClusterWithIncrementalUpgrade, NewCluster, or None");
  }
  std::optional<int64_t> delay = utils::IntAt(svc, "/spec/rayClusterDeletionDelaySeconds");
  if (delay.has_value() && *delay < 0) {
    return invalid("The RayService spec is invalid: Spec.RayClusterDeletionDelaySeconds should be a non-negative integer");
  }
  return Status::OK();
}

std::string ClusterHash(const Json& cluster) {
  const std::map<std::string, std::string> a = api::Annotations(cluster);
  auto it = a.find(utils::kHashWithoutReplicasAndWorkersToDeleteKey);
  return it == a.end() ? "" : it->second;
}

// TruncatedGoalHash is the goal spec's hash with its worker groups cut to the cluster's count.
std::string TruncatedGoalHash(const Json& goal, const Json& cluster) {
  const std::map<std::string, std::string> a = api::Annotations(cluster);
  auto it = a.find(utils::kNumWorkerGroupsKey);
  int64_t n = 0;
  if (it != a.end()) {
    for (char c : it->second) {
      if (c < '0' || c > '9') return "";
      n = n * 10 + (c - '0');
    }
  }
  Json truncated = goal;
  if (truncated.contains("workerGroupSpecs") && truncated["workerGroupSpecs"].is_array() &&
      static_cast<int64_t>(truncated["workerGroupSpecs"].size()) > n) {
    Json groups = Json::array();
    for (int64_t i = 0; i < n; ++i) groups.push_back(truncated["workerGroupSpecs"][static_cast<size_t>(i)]);
    truncated["workerGroupSpecs"] = groups;
  }
  return GenerateHashWithoutReplicasAndWorkersToDelete(truncated);
}

std::string ServiceClusterSelector(const api::ObjectPtr& service) {
  if (service == nullptr) return "";
  return utils::StringAt(*service, "/spec/selector/ray.io~1cluster");
}

}  // namespace

base::StatusOr<Json> BuildRayClusterForRayService(const Json& rayservice, const std::string& name) {
  const Json goal = utils::At(rayservice, "/spec/rayClusterConfig") != nullptr
                        ? rayservice["spec"]["rayClusterConfig"]
                        : Json::object();
  Json labels = Json::object();
  for (const auto& [k, v] : api::Labels(rayservice)) labels[k] = v;
  labels[utils::kRayOriginatedFromCRNameLabelKey] = api::Name(rayservice);
  labels[utils::kRayOriginatedFromCRDLabelKey] = "RayService";
  Json annotations = Json::object();
  for (const auto& [k, v] : api::Annotations(rayservice)) annotations[k] = v;
  annotations[utils::kHashWithoutReplicasAndWorkersToDeleteKey] =
      GenerateHashWithoutReplicasAndWorkersToDelete(goal);
  annotations[utils::kNumWorkerGroupsKey] = std::to_string(NumWorkerGroups(goal));
  annotations[utils::kKubeRayVersionAnnotationKey] = utils::kKubeRayVersion;
  Json rc = {{"apiVersion", "ray.io/v1"},
             {"kind", "RayCluster"},
             {"metadata",
              {{"name", name},
               {"namespace", api::Namespace(rayservice)},
               {"labels", labels},
               {"annotations", annotations}}},
             {"spec", goal}};
  Status owned = controllerutil::SetControllerReference(rayservice, rc);
  if (!owned.ok()) return owned;
  return rc;
}

RayServiceReconciler::RayServiceReconciler(client::Client& client,
                                           dashboard::ClientProvider& dashboards, sim::Prng prng,
                                           Options options)
    : client_(client), dashboards_(dashboards), prng_(prng), options_(std::move(options)) {
  if (options_.events != nullptr) {
    recorder_ = std::make_unique<EventRecorder>(*options_.events, "rayservice-controller");
  }
}

Status RayServiceReconciler::UpdateHeadPodServeLabels(Pass& p) {
  const bool exclude = utils::BoolAt(p.svc, "/spec/excludeHeadPodFromServeSvc");
  for (const api::ObjectPtr& cluster : {p.active, p.pending}) {
    if (cluster == nullptr) continue;
    base::StatusOr<ServeLabelUpdate> label =
        UpdateHeadPodServeLabel(client_, dashboards_, *cluster, exclude);
    if (!label.ok()) return label.status();
    if (!label->updated) continue;
    const std::string message = "Updated the serve label to \"" + label->value +
                                "\" for the Head Pod " + p.Ns() + "/" + label->pod;
    p.ctx.Info(message, {{"rayClusterName", api::Name(*cluster)}});
    if (recorder_ != nullptr) {
      recorder_->Eventf(p.svc, kEventTypeNormal, "UpdatedHeadPodServeLabel", message, p.ctx.now);
    }
  }
  return Status::OK();
}

Outcome RayServiceReconciler::Reconcile(reconcile::ReconcileContext& ctx,
                                        const reconcile::Request& req) {
  base::StatusOr<api::ObjectPtr> got = client_.Get(kKind, req.namespace_, req.name);
  if (!got.ok()) {
    if (base::IsNotFound(got.status())) {
      serve_configs_.erase(req.Key());
      return Outcome::Ok();
    }
    return Outcome::Error(got.status());
  }
  Pass p{ctx, **got, Json::object(), nullptr, nullptr};
  if (p.svc.contains("status") && p.svc["status"].is_object()) p.status = p.svc["status"];
  const Json original_status = p.status;

  // Clusters that are neither active nor pending go 60s after they were first seen so.
  if (!api::IsBeingDeleted(p.svc)) {
    Status cleaned = CleanUpDanglingClusters(p);
    if (!cleaned.ok()) return Outcome::Error(cleaned);
  }
  if (api::IsBeingDeleted(p.svc)) return Finalize(p);
  if (!api::HasFinalizer(p.svc, kRayServiceFinalizer)) {
    Json with = p.svc;
    controllerutil::AddFinalizer(with, kRayServiceFinalizer);
    base::StatusOr<api::ObjectPtr> updated = client_.Update(with);
    if (!updated.ok()) return Outcome::Error(updated.status());
    return RequeueAfter(options_.requeue);
  }

  Status valid = ValidateRayService(p.svc);
  if (!valid.ok()) {
    ctx.Info("Warning InvalidRayServiceSpec", {{"message", valid.message()}});
    utils::SetCondition(p.status["conditions"], "Ready", "False", "ValidationFailed",
                        valid.message(), ctx.now);
    p.status["serviceStatus"] = "";
    if (p.status != original_status) {
      Json write = p.svc;
      write["status"] = p.status;
      base::StatusOr<api::ObjectPtr> w = client_.UpdateStatus(write);
      if (!w.ok()) return Outcome::Error(w.status());
    }
    return Outcome::Ok();
  }

  if (std::optional<Outcome> suspended = Suspend(p)) {
    if (p.status != original_status) {
      Json write = p.svc;
      write["status"] = p.status;
      base::StatusOr<api::ObjectPtr> w = client_.UpdateStatus(write);
      if (!w.ok()) return Outcome::Error(w.status());
    }
    return *suspended;
  }

  Status clusters = ReconcileRayClusters(p);
  if (!clusters.ok()) return Outcome::Error(clusters);
  // The head Pods' ray.io/serve label follows their Serve proxy's health.
  Status labels = UpdateHeadPodServeLabels(p);
  if (!labels.ok()) return Outcome::Error(labels);

  // Serve runs on the pending cluster when there is one, else on the active one (unless a new
  // cluster is about to be prepared).
  Json active_apps;
  Json pending_apps;
  bool active_ready = false;
  bool pending_ready = false;
  if (p.pending != nullptr) {
    pending_ready = ReconcileServe(p, *p.pending, pending_apps);
  }
  if (p.active != nullptr && p.pending == nullptr && !ShouldPrepareNewCluster(p, false)) {
    active_ready = ReconcileServe(p, *p.active, active_apps);
  }
  std::string served;
  if (pending_ready || active_ready) {
    const Json& target = pending_ready ? *p.pending : *p.active;
    Status services = ReconcileServices(p, target);
    if (!services.ok()) return Outcome::Error(services);
    served = api::Name(target);
  }

  CalculateStatus(p, served, active_apps, pending_apps);
  if (p.status != original_status) {
    Json write = p.svc;
    write["status"] = p.status;
    base::StatusOr<api::ObjectPtr> w = client_.UpdateStatus(write);
    if (!w.ok()) return Outcome::Error(w.status());
  }
  return RequeueAfter(options_.requeue);
}

Outcome RayServiceReconciler::Finalize(Pass& p) {
  if (!api::HasFinalizer(p.svc, kRayServiceFinalizer)) return Outcome::Ok();
  client::ListOptions sel;
  sel.label_selector = utils::kRayOriginatedFromCRNameLabelKey + "=" + api::Name(p.svc) + "," +
                       utils::kRayOriginatedFromCRDLabelKey + "=RayService";
  base::StatusOr<std::vector<api::ObjectPtr>> clusters = client_.List("RayCluster", p.Ns(), sel);
  if (!clusters.ok()) return Outcome::Error(clusters.status());
  for (const api::ObjectPtr& rc : *clusters) {
    if (api::IsBeingDeleted(*rc)) continue;
    base::StatusOr<api::ObjectPtr> d = client_.Delete("RayCluster", p.Ns(), api::Name(*rc), Background());
    if (!d.ok() && !base::IsNotFound(d.status())) return Outcome::Error(d.status());
  }
  if (!clusters->empty()) {
    p.ctx.Info("Wait for the RayService's RayClusters to be deleted",
               {{"remaining", std::to_string(clusters->size())}});
    return RequeueAfter(options_.requeue);
  }
  Json without = p.svc;
  controllerutil::RemoveFinalizer(without, kRayServiceFinalizer);
  base::StatusOr<api::ObjectPtr> updated = client_.Update(without);
  if (!updated.ok()) return Outcome::Error(updated.status());
  serve_configs_.erase(p.Key());
  return Outcome::Ok();
}

Status RayServiceReconciler::CleanUpDanglingClusters(Pass& p) {
  client::ListOptions sel;
  sel.label_selector = utils::kRayOriginatedFromCRNameLabelKey + "=" + api::Name(p.svc) + "," +
                       utils::kRayOriginatedFromCRDLabelKey + "=RayService";
  base::StatusOr<std::vector<api::ObjectPtr>> clusters = client_.List("RayCluster", p.Ns(), sel);
  if (!clusters.ok()) return clusters.status();
  std::optional<int64_t> delay_s = utils::IntAt(p.svc, "/spec/rayClusterDeletionDelaySeconds");
  const base::Duration delay =
      delay_s.has_value() ? *delay_s * base::kSecond : options_.cluster_deletion_delay;
  for (const api::ObjectPtr& rc : *clusters) {
    const std::string name = api::Name(*rc);
    if (name == p.ActiveName() || name == p.PendingName() || api::IsBeingDeleted(*rc)) continue;
    const std::string key = api::ObjectKey(p.Ns(), name);
    auto it = deletion_times_.find(key);
    if (it == deletion_times_.end()) {
      deletion_times_[key] = p.ctx.now + delay;
      p.ctx.Info("Scheduled dangling RayCluster for deletion",
                 {{"rayClusterName", name}, {"deletionTime", base::FormatRfc3339(p.ctx.now + delay)}});
      continue;
    }
    if (p.ctx.now < it->second) continue;
    base::StatusOr<api::ObjectPtr> d = client_.Delete("RayCluster", p.Ns(), name, Background());
    if (!d.ok() && !base::IsNotFound(d.status())) return d.status();
    p.ctx.Info("Deleted dangling RayCluster", {{"rayClusterName", name}});
    deletion_times_.erase(it);
    serve_configs_[p.Key()].erase(name);
  }
  return Status::OK();
}

// mirrors rayservice_controller.go handleSuspend (+ deleteRayServiceOwnedResources)
std::optional<Outcome> RayServiceReconciler::Suspend(Pass& p) {
  const base::SimTime now = p.ctx.now;
  Json& conditions = p.status["conditions"];
  const Json view = Json{{"status", p.status}};
  const bool suspending = utils::IsConditionTrue(view, "Suspending");
  const bool suspended = utils::IsConditionTrue(view, "Suspended");
  const bool want = utils::BoolAt(p.svc, "/spec/suspend");
  if (suspended) {
    if (want) return Outcome::Ok();  // stays suspended, no requeue
    p.status["observedGeneration"] = api::Generation(p.svc);
    utils::SetCondition(conditions, "Suspended", "False", "RayServiceResumed",
                        "Spec.Suspend is false; RayService has resumed.", now);
    const std::string msg = "RayService is initializing after resuming from suspend.";
    utils::SetCondition(conditions, "Ready", "False", "Initializing", msg, now);
    utils::SetCondition(conditions, "UpgradeInProgress", "False", "Initializing", msg, now);
    return std::nullopt;  // resume reconciling in this pass
  }
  if (!suspending) {
    if (!want) return std::nullopt;
    p.status["observedGeneration"] = api::Generation(p.svc);
    utils::SetCondition(conditions, "Suspending", "True", "SuspendRequested",
                        "Spec.Suspend is true; will delete all Kubernetes resources owned by this RayService.",
                        now);
    utils::SetCondition(conditions, "Ready", "False", "SuspendInProgress", "RayService is suspending.", now);
    utils::SetCondition(conditions, "UpgradeInProgress", "False", "SuspendInProgress",
                        "No upgrade in progress.", now);
    p.status["activeServiceStatus"] = Json::object();
    p.status["pendingServiceStatus"] = Json::object();
    p.status["numServeEndpoints"] = 0;
    p.status["serviceStatus"] = "";
    return RequeueAfter(options_.requeue);
  }
  // Suspending (atomic: continues even if spec.suspend went back to false).
  bool remaining = false;
  client::ListOptions sel;
  sel.label_selector = utils::kRayOriginatedFromCRNameLabelKey + "=" + api::Name(p.svc) + "," +
                       utils::kRayOriginatedFromCRDLabelKey + "=RayService";
  base::StatusOr<std::vector<api::ObjectPtr>> clusters = client_.List("RayCluster", p.Ns(), sel);
  if (!clusters.ok()) return Outcome::Error(clusters.status());
  for (const api::ObjectPtr& rc : *clusters) {
    remaining = true;
    if (api::IsBeingDeleted(*rc)) continue;
    base::StatusOr<api::ObjectPtr> d = client_.Delete("RayCluster", p.Ns(), api::Name(*rc), Background());
    if (!d.ok() && !base::IsNotFound(d.status())) return Outcome::Error(d.status());
  }
  for (const std::string& name :
       {utils::GenerateHeadServiceName(api::Name(p.svc)), ServeServiceName(p.svc)}) {
    base::StatusOr<api::ObjectPtr> svc = client_.Get("Service", p.Ns(), name);
    if (!svc.ok()) continue;
    remaining = true;
    if (api::IsBeingDeleted(**svc)) continue;
    base::StatusOr<api::ObjectPtr> d = client_.Delete("Service", p.Ns(), name, Background());
    if (!d.ok() && !base::IsNotFound(d.status())) return Outcome::Error(d.status());
  }
  if (remaining) {
    utils::SetCondition(conditions, "Suspending", "True", "SuspendInProgress",
                        "Waiting for all Kubernetes resources owned by this RayService to be deleted.",
                        now);
    return RequeueAfter(options_.requeue);
  }
  const std::string done = "All owned resources have been deleted.";
  utils::SetCondition(conditions, "Suspending", "False", "SuspendComplete", done, now);
  utils::SetCondition(conditions, "Suspended", "True", "SuspendComplete", done, now);
  utils::SetCondition(conditions, "Ready", "False", "SuspendComplete", "RayService is suspended.", now);
  utils::SetCondition(conditions, "UpgradeInProgress", "False", "SuspendComplete",
                      "No upgrade in progress.", now);
  serve_configs_.erase(p.Key());
  return RequeueAfter(options_.requeue);
}

bool RayServiceReconciler::ShouldPrepareNewCluster(Pass& p, bool pending_serving) const {
  // The Services already point at the pending cluster: promotion is next, not a new cluster.
  if (pending_serving) return false;
  if (p.active == nullptr && p.pending == nullptr) return true;
  const Json& cluster = p.pending != nullptr ? *p.pending : *p.active;
  const Json goal = p.svc["spec"]["rayClusterConfig"];
  const std::string hash = ClusterHash(cluster);
  if (GenerateHashWithoutReplicasAndWorkersToDelete(goal) == hash) return false;
  if (TruncatedGoalHash(goal, cluster) == hash) return false;  // appended groups: update in place
  const std::string type = utils::StringAt(p.svc, "/spec/upgradeStrategy/type");
  if (type == "None") return false;
  if (type.empty()) return options_.enable_zero_downtime;
  return true;
}

Status RayServiceReconciler::ReconcileRayClusters(Pass& p) {
  if (!p.ActiveName().empty()) {
    base::StatusOr<api::ObjectPtr> rc = client_.Get("RayCluster", p.Ns(), p.ActiveName());
    if (rc.ok()) p.active = *rc;
    else if (!base::IsNotFound(rc.status())) return rc.status();
  }
  if (!p.PendingName().empty()) {
    base::StatusOr<api::ObjectPtr> rc = client_.Get("RayCluster", p.Ns(), p.PendingName());
    if (rc.ok()) {
      p.pending = *rc;
    } else if (base::IsNotFound(rc.status())) {
      base::StatusOr<Json> built = BuildRayClusterForRayService(p.svc, p.PendingName());
      if (!built.ok()) return built.status();
      base::StatusOr<api::ObjectPtr> created = client_.Create(*built);
      if (created.ok()) {
        p.pending = *created;
        p.ctx.Info("Created pending RayCluster", {{"rayClusterName", p.PendingName()}});
      } else if (!base::IsAlreadyExists(created.status())) {
        return created.status();
      }
    } else {
      return rc.status();
    }
  }
  // shouldUpdateCluster: appended worker groups or another KubeRay version → in-place update.
  if (p.active != nullptr && p.pending == nullptr) {
    const Json goal = p.svc["spec"]["rayClusterConfig"];
    const std::string hash = ClusterHash(*p.active);
    const std::map<std::string, std::string> a = api::Annotations(*p.active);
    auto version = a.find(utils::kKubeRayVersionAnnotationKey);
    const bool other_version = version == a.end() || version->second != utils::kKubeRayVersion;
    const std::string goal_hash = GenerateHashWithoutReplicasAndWorkersToDelete(goal);
    if (goal_hash != hash && (other_version || TruncatedGoalHash(goal, *p.active) == hash)) {
      base::StatusOr<Json> built = BuildRayClusterForRayService(p.svc, p.ActiveName());
      if (!built.ok()) return built.status();
      Json updated = *p.active;
      const Json suspend = utils::At(updated, "/spec/suspend") != nullptr ? updated["spec"]["suspend"] : Json();
      updated["spec"] = (*built)["spec"];
      if (!suspend.is_null()) updated["spec"]["suspend"] = suspend;
      updated["metadata"]["labels"] = (*built)["metadata"]["labels"];
      updated["metadata"]["annotations"] = (*built)["metadata"]["annotations"];
      base::StatusOr<api::ObjectPtr> u = client_.Update(updated);
      if (!u.ok()) return u.status();
      p.active = *u;
      p.ctx.Info("Updated the active RayCluster in place", {{"rayClusterName", p.ActiveName()}});
    }
  }
  return Status::OK();
}

bool RayServiceReconciler::ReconcileServe(Pass& p, const Json& cluster, Json& statuses) {
  if (!utils::IsConditionTrue(cluster, "HeadPodReady")) {
    p.ctx.Info("The head Pod is not ready; skip the Serve reconcile",
               {{"rayClusterName", api::Name(cluster)}});
    return false;
  }
  std::unique_ptr<dashboard::RayDashboardClient> dash =
      dashboards_.Open(cluster, utils::FetchHeadServiceURL(cluster));
  if (dash == nullptr) return false;
  base::StatusOr<dashboard::ServeDetails> details = dash->GetServeDetails();
  if (!details.ok()) {
    p.ctx.Info("Failed to get Serve details", {{"error", details.status().message()}});
    return false;
  }
  const std::string config = utils::StringAt(p.svc, "/spec/serveConfigV2");
  std::string& cached = serve_configs_[p.Key()][api::Name(cluster)];
  if (cached.empty() || details->applications.empty() || cached != config) {
    base::StatusOr<Json> json = rayjob::DecodeYamlMapping(config, "serveConfigV2");
    if (!json.ok()) {
      p.ctx.Info("Failed to parse serveConfigV2", {{"error", json.status().message()}});
      return false;
    }
    Status put = dash->UpdateDeployments(*json);
    if (!put.ok()) {
      p.ctx.Info("Failed to update Serve applications", {{"error", put.message()}});
      return false;
    }
    cached = config;
    p.ctx.Info("Updated Serve applications", {{"rayClusterName", api::Name(cluster)}});
  }
  bool ready = !details->applications.empty();
  statuses = Json::object();
  for (const auto& [name, app] : details->applications) {
    Json deployments = Json::object();
    for (const auto& [dname, d] : app.deployments) {
      deployments[dname] = Json{{"status", d.status}, {"message", d.message}};
    }
    statuses[name] = Json{{"status", app.status}, {"message", app.message},
                          {"serveDeploymentStatuses", deployments}};
    ready = ready && app.status == dashboard::kAppRunning;
  }
  return ready;
}

Status RayServiceReconciler::ReconcileServices(Pass& p, const Json& cluster) {
  const std::string ns = p.Ns();
  const std::string cluster_name = api::Name(cluster);
  // <svc>-head-svc copies the cluster's head Service.
  base::StatusOr<api::ObjectPtr> cluster_head = client_.Get("Service", ns, utils::HeadServiceName(cluster));
  std::vector<Json> wanted;
  if (cluster_head.ok()) {
    Json spec = (**cluster_head).contains("spec") ? (**cluster_head)["spec"] : Json::object();
    if (spec.value("clusterIP", Json()) != "None") spec.erase("clusterIP");
    spec.erase("clusterIPs");
    wanted.push_back(Json{{"apiVersion", "v1"},
                          {"kind", "Service"},
                          {"metadata",
                           {{"name", utils::GenerateHeadServiceName(api::Name(p.svc))},
                            {"namespace", ns},
                            {"labels",
                             {{utils::kRayOriginatedFromCRNameLabelKey, api::Name(p.svc)},
                              {utils::kRayOriginatedFromCRDLabelKey, "RayService"},
                              {utils::kRayNodeTypeLabelKey, "head"},
                              {utils::kRayIDLabelKey, api::Name(p.svc) + "-head"}}}}},
                          {"spec", spec}});
  } else if (!base::IsNotFound(cluster_head.status())) {
    return cluster_head.status();
  }
  // <svc>-serve-svc selects the cluster's Pods labelled ray.io/serve=true on the serve ports.
  Json ports = Json::array();
  const Json* containers = utils::At(cluster, "/spec/headGroupSpec/template/spec/containers");
  if (containers != nullptr && containers->is_array() && !containers->empty() &&
      (*containers)[0].contains("ports") && (*containers)[0]["ports"].is_array()) {
    for (const Json& port : (*containers)[0]["ports"]) {
      const std::string name = port.is_object() && port.value("name", Json()).is_string()
                                   ? port["name"].get<std::string>()
                                   : "";
      if (name == "serve" || name.rfind("serve-", 0) == 0) {
        ports.push_back(Json{{"name", name}, {"port", port.value("containerPort", Json(8000))}});
      }
    }
  }
  // mirrors ray-operator/controllers/ray/common/service.go getServicePorts: a head container
  // that declares no ports at all gets the default ports, serve 8000 among them.
  const bool no_declared_ports =
      containers == nullptr || !containers->is_array() || containers->empty() ||
      !(*containers)[0].contains("ports") || !(*containers)[0]["ports"].is_array() ||
      (*containers)[0]["ports"].empty();
  if (ports.empty() && no_declared_ports) ports.push_back(Json{{"name", "serve"}, {"port", 8000}});
  const Json* user_serve = utils::At(p.svc, "/spec/serveService/spec/ports");
  if (user_serve != nullptr && user_serve->is_array()) ports = *user_serve;
  if (ports.empty()) {
    return Status(base::StatusCode::kInvalid,
                  "Please specify the port named 'serve' in the Ray head container; otherwise, the Kubernetes service for Ray Serve will not be created.");
  }
  wanted.push_back(Json{{"apiVersion", "v1"},
                        {"kind", "Service"},
                        {"metadata",
                         {{"name", ServeServiceName(p.svc)},
                          {"namespace", ns},
                          {"labels",
                           {{utils::kRayOriginatedFromCRNameLabelKey, api::Name(p.svc)},
                            {utils::kRayOriginatedFromCRDLabelKey, "RayService"},
                            {utils::kRayServeLabelKey, api::Name(p.svc) + "-serve"}}}}},
                        {"spec",
                         {{"selector",
                           {{utils::kRayClusterLabelKey, cluster_name},
                            {utils::kRayServeLabelKey, "true"}}},
                          {"ports", ports}}}});
  for (Json& svc : wanted) {
    svc["spec"]["selector"][utils::kRayClusterLabelKey] = cluster_name;
    const std::string name = api::Name(svc);
    base::StatusOr<api::ObjectPtr> existing = client_.Get("Service", ns, name);
    if (existing.ok()) {
      if (ServiceClusterSelector(*existing) == cluster_name) continue;
      Json updated = **existing;
      updated["spec"]["selector"] = svc["spec"]["selector"];  // the ClusterIP is kept
      base::StatusOr<api::ObjectPtr> u = client_.Update(updated);
      if (!u.ok()) return u.status();
      p.ctx.Info("Switched Service to RayCluster", {{"Service", name}, {"rayClusterName", cluster_name}});
      continue;
    }
    if (!base::IsNotFound(existing.status())) return existing.status();
    Status owned = controllerutil::SetControllerReference(p.svc, svc);
    if (!owned.ok()) return owned;
    base::StatusOr<api::ObjectPtr> created = client_.Create(svc);
    if (!created.ok() && !base::IsAlreadyExists(created.status())) return created.status();
    p.ctx.Info("Created Service", {{"Service", name}, {"rayClusterName", cluster_name}});
  }
  return Status::OK();
}

void RayServiceReconciler::CalculateStatus(Pass& p, const std::string& served,
                                           const Json& active_apps, const Json& pending_apps) {
  const base::SimTime now = p.ctx.now;
  p.status["observedGeneration"] = api::Generation(p.svc);
  // Each pass reports the clusters' statuses and only the applications it reconciled.
  for (const auto& [field, cluster, apps] :
       {std::make_tuple("activeServiceStatus", p.active, &active_apps),
        std::make_tuple("pendingServiceStatus", p.pending, &pending_apps)}) {
    Json& s = p.status[field];
    if (!s.is_object()) s = Json::object();
    s["rayClusterStatus"] = cluster != nullptr && cluster->contains("status") ? (*cluster)["status"]
                                                                              : Json::object();
    if (apps->is_object()) {
      s["applicationStatuses"] = *apps;
    } else {
      s.erase("applicationStatuses");
    }
  }
  // reconcilePromotionAndServingStatus: the Services point at a cluster that is not the active
  // one, so the pending cluster becomes active.
  bool pending_serving = false;
  if (!served.empty()) {
    pending_serving = served == p.PendingName();
    if (served != p.ActiveName()) {
      p.ctx.Info("Promoting pending cluster to active.",
                 {{"oldCluster", p.ActiveName()}, {"newCluster", p.PendingName()}});
      p.status["activeServiceStatus"] = p.status["pendingServiceStatus"];
      p.status["pendingServiceStatus"] = Json::object();
    }
  }
  if (ShouldPrepareNewCluster(p, pending_serving)) {
    const std::string name = utils::GenerateRayClusterName(api::Name(p.svc), prng_);
    p.status["pendingServiceStatus"] = Json{{"rayClusterName", name}};
    p.ctx.Info("Preparing a new pending RayCluster instance by setting RayClusterName",
               {{"clusterName", name}});
  }
  // numServeEndpoints: unique ready Pods behind the serve Service.
  std::set<std::string> pods;
  base::StatusOr<api::ObjectPtr> endpoints = client_.Get("Endpoints", p.Ns(), ServeServiceName(p.svc));
  if (endpoints.ok() && (*endpoints)->contains("subsets") && (**endpoints)["subsets"].is_array()) {
    for (const Json& subset : (**endpoints)["subsets"]) {
      if (!subset.is_object() || !subset.contains("addresses") || !subset["addresses"].is_array()) continue;
      for (const Json& a : subset["addresses"]) {
        const std::string uid = utils::StringAt(a, "/targetRef/uid");
        pods.insert(!uid.empty() ? uid : utils::StringAt(a, "/ip"));
      }
    }
  }
  const int64_t n = static_cast<int64_t>(pods.size());
  p.status["numServeEndpoints"] = n;
  // calculateConditions
  Json& conditions = p.status["conditions"];
  if (!conditions.is_array() || conditions.empty()) {
    utils::SetCondition(conditions, "Ready", "False", "Initializing", "RayService is initializing", now);
    utils::SetCondition(conditions, "UpgradeInProgress", "False", "Initializing",
                        "RayService is initializing", now);
  }
  const Json view = Json{{"status", p.status}};
  if (n > 0) {
    utils::SetCondition(conditions, "Ready", "True", "NonZeroServeEndpoints",
                        "Number of serve endpoints is greater than 0", now);
  } else if (utils::IsConditionTrue(view, "Ready")) {
    utils::SetCondition(conditions, "Ready", "False", "ZeroServeEndpoints",
                        "Number of serve endpoints dropped to 0", now);
  }
  const bool has_active = !p.ActiveName().empty();
  const bool has_pending = !p.PendingName().empty();
  if (has_active && has_pending) {
    utils::SetCondition(conditions, "UpgradeInProgress", "True", "BothActivePendingClustersExist",
                        "Both active and pending Ray clusters exist", now);
  } else if (has_active) {
    utils::SetCondition(conditions, "UpgradeInProgress", "False", "NoPendingCluster",
                        "Active Ray cluster exists and no pending Ray cluster", now);
  } else {
    const Json now_view = Json{{"status", p.status}};  // FindCondition points into it
    const Json* c = utils::FindCondition(now_view, "UpgradeInProgress");
    const std::string reason = c != nullptr ? utils::StrField(*c, "reason") : "";
    if (reason != "Initializing" && reason != "InitializingTimeout") {
      utils::SetCondition(conditions, "UpgradeInProgress", "Unknown", "NoActiveCluster",
                          "No active Ray cluster exists, and the RayService is not initializing",
                          now);
    }
  }
  p.status["serviceStatus"] =
      utils::IsConditionTrue(Json{{"status", p.status}}, "Ready") ? "Running" : "";
}

}  // namespace kuberay::rayservice
