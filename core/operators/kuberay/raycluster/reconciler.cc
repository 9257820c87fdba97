#include "core/operators/kuberay/raycluster/reconciler.h"

#include <cstdlib>
#include <optional>
#include <set>

#include "core/api/fields.h"
#include "core/api/pointer.h"
#include "core/controller/controllerutil/controllerutil.h"
#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/hash.h"
#include "core/operators/kuberay/common/utils.h"
#include "core/operators/kuberay/raycluster/pod_builder.h"
#include "core/operators/kuberay/raycluster/service_builder.h"
#include "core/operators/kuberay/raycluster/validation.h"

namespace kuberay {
namespace {

using api::Json;
using api::ObjectPtr;
using reconcile::Outcome;

ReconcileError Err(base::Status s, std::string marker = "") {
  return ReconcileError{std::move(s), std::move(marker)};
}

ReconcileError Ok() { return ReconcileError{base::Status::OK(), ""}; }

std::string Selector(const std::vector<std::pair<std::string, std::string>>& kv) {
  std::string out;
  for (const auto& [k, v] : kv) out += (out.empty() ? "" : ",") + k + "=" + v;
  return out;
}

Json OwnerLabels(const Json& cluster) {
  return Json{{kRayClusterLabelKey, api::Name(cluster)},
              {kK8sAppNameLabelKey, kApplicationName},
              {kK8sAppCreatedByLabelKey, kComponentName}};
}

// GetHeadGroupServiceAccountName: the head template's serviceAccountName, else the cluster name.
std::string HeadGroupServiceAccountName(const Json& cluster) {
  const std::string sa = StringAt(cluster, "/spec/headGroupSpec/template/spec/serviceAccountName");
  return sa.empty() ? api::Name(cluster) : sa;
}

// RayContainerTerminated returns the Ray container's (containers[0]) terminated state or null.
const Json* RayContainerTerminated(const Json& pod) {
  const Json* containers = api::PodSpec(pod).Containers();
  // A Pod has at least one container, and every container a name (ValidatePod).
  if (containers == nullptr || !containers->is_array() || containers->empty()) return nullptr;
  const std::string& name = api::Container((*containers)[0]).Name();
  const Json* statuses = api::PodStatus(pod).ContainerStatuses();
  if (statuses == nullptr || !statuses->is_array()) return nullptr;
  for (const Json& s : *statuses) {
    if (s.is_object() && api::ContainerStatus(s).Name() == name) {
      return api::ContainerStatus(s).Terminated();
    }
  }
  return nullptr;
}

// NeedsDefaults reports whether setDefaults would change the cluster: spec missing or not an
// object, or a head or worker group whose rayStartParams is not an object.
bool NeedsDefaults(const Json& cluster) {
  auto spec = cluster.find("spec");
  if (spec == cluster.end() || !spec->is_object()) return true;
  auto params_missing = [](const Json& group) {
    auto it = group.find("rayStartParams");
    return it == group.end() || !it->is_object();
  };
  auto head = spec->find("headGroupSpec");
  if (head != spec->end() && head->is_object() && params_missing(*head)) return true;
  auto groups = spec->find("workerGroupSpecs");
  if (groups != spec->end() && groups->is_array()) {
    for (const Json& g : *groups) {
      if (g.is_object() && params_missing(g)) return true;
    }
  }
  return false;
}

std::string Describe(const Json* terminated) {
  return terminated == nullptr ? "nil" : "&" + terminated->dump();
}

}  // namespace

// mirrors raycluster_controller.go shouldDeletePod
bool ShouldDeletePod(const Json& pod, const std::string& node_type, std::string* reason) {
  // Upstream always builds the reason, for its log line; the text is composed here only for a
  // caller that reads it (each reconcile asks about every worker).
  const std::string phase = StringAt(pod, "/status/phase");
  if (phase == "Failed" || phase == "Succeeded") {
    if (reason != nullptr) {
      *reason = "The " + node_type + " Pod " + api::Name(pod) + " status is " + phase +
                " which is a terminal state. KubeRay will delete the Pod and create new Pods in "
                "the next reconciliation if necessary.";
    }
    return true;
  }
  const Json* terminated = RayContainerTerminated(pod);
  if (phase == "Running" && terminated != nullptr) {
    const std::string policy = StringAt(pod, "/spec/restartPolicy");
    if (policy == "Never") {
      if (reason != nullptr) {
        *reason = "The Pod status of the " + node_type + " Pod " + api::Name(pod) + " is " +
                  phase + ", and the Ray container terminated status is " +
                  Describe(terminated) +
                  ". The container is unable to restart due to its restart policy Never, so "
                  "KubeRay will delete it.";
      }
      return true;
    }
    if (reason != nullptr) {
      *reason = "The Pod status of the " + node_type + " Pod " + api::Name(pod) + " is " + phase +
                ", and the Ray container terminated status is " + Describe(terminated) +
                ". However, KubeRay will not delete the Pod because its restartPolicy is set to " +
                policy + " and it should be able to restart automatically.";
    }
    return false;
  }
  if (reason != nullptr) {
    *reason = "KubeRay does not need to delete the " + node_type + " Pod " + api::Name(pod) +
              ". The Pod status is " + phase + ", and the Ray container terminated status is " +
              Describe(terminated) + ".";
  }
  return false;
}

RayClusterReconciler::RayClusterReconciler(client::Client& client, client::Client& events,
                                           sim::Prng& prng, OperatorConfig config)
    : client_(client),
      recorder_(events, "raycluster-controller"),
      prng_(prng),
      config_(std::move(config)) {}

void RayClusterReconciler::Event(const Json& cluster, const std::string& type,
                                 const std::string& reason, const std::string& message,
                                 base::SimTime now) {
  recorder_.Eventf(cluster, type, reason, message, now);
}

base::StatusOr<std::vector<ObjectPtr>> RayClusterReconciler::ListPods(const std::string& ns,
                                                                      const std::string& selector) {
  client::ListOptions opts;
  opts.label_selector = selector;
  return client_.List("Pod", ns, opts);
}

// mirrors raycluster_controller.go Reconcile + rayClusterReconcile
Outcome RayClusterReconciler::Reconcile(reconcile::ReconcileContext& ctx,
                                        const reconcile::Request& req) {
  base::StatusOr<ObjectPtr> got = client_.Get(kRayClusterKind, req.namespace_, req.name);
  if (!got.ok()) {
    if (base::IsNotFound(got.status())) {
      expectations_.Delete(req.name, req.namespace_);
      return Outcome::Ok();
    }
    ctx.Error("Read request instance error!", {{"error", got.status().message()}});
    return Outcome::Error(got.status());
  }
  const ObjectPtr original_object = *got;  // keeps the cached object alive; nothing is copied
  const Json& original = *original_object;
  const std::string managed_by = StringAt(original, "/spec/managedBy");
  if (!managed_by.empty() && managed_by != kKubeRayController) {
    ctx.Info("Skipping RayCluster managed by a custom controller", {{"managed-by", managed_by}});
    return Outcome::Ok();
  }
  // setDefaults: nil rayStartParams become empty maps (in memory only). The copy is made only
  // when a default is missing; otherwise the cached object is read as it is.
  std::optional<Json> defaulted;
  if (NeedsDefaults(original)) {
    defaulted = original;
    Json& copy = *defaulted;
    if (!copy.contains("spec") || !copy["spec"].is_object()) copy["spec"] = Json::object();
    Json& spec = copy["spec"];
    if (spec.contains("headGroupSpec") && spec["headGroupSpec"].is_object() &&
        !spec["headGroupSpec"].value("rayStartParams", Json()).is_object()) {
      spec["headGroupSpec"]["rayStartParams"] = Json::object();
    }
    if (spec.contains("workerGroupSpecs") && spec["workerGroupSpecs"].is_array()) {
      for (Json& g : spec["workerGroupSpecs"]) {
        if (g.is_object() && !g.value("rayStartParams", Json()).is_object()) g["rayStartParams"] = Json::object();
      }
    }
  }
  const Json& cluster = defaulted.has_value() ? *defaulted : original;
  const std::string key = api::ObjectKey(cluster);
  if (base::Status s = ValidateRayClusterMetadata(cluster); !s.ok()) {
    ctx.Error("The RayCluster metadata is invalid", {{"error", s.message()}});
    Event(cluster, kEventTypeWarning, kInvalidRayClusterMetadata,
          "The RayCluster metadata is invalid " + key + ": " + s.message(), ctx.now);
    return Outcome::Ok();
  }
  if (base::Status s = ValidateRayClusterSpec(cluster, config_.features); !s.ok()) {
    ctx.Error("The RayCluster spec is invalid", {{"error", s.message()}});
    Event(cluster, kEventTypeWarning, kInvalidRayClusterSpec,
          "The RayCluster spec is invalid " + key + ": " + s.message(), ctx.now);
    return Outcome::Ok();
  }
  if (IsAutoscalingEnabled(cluster["spec"]) && IsAutoscalingV1Enabled(cluster["spec"])) {
    // Autoscaler v1 (explicitly) with a worker restartPolicy other than Never: a warning event,
    // no stop.
    std::string names;
    for (const Json& g : MemberOrNull(cluster["spec"], "workerGroupSpecs")) {
      const std::string p = StringAt(g, "/template/spec/restartPolicy");
      if (!p.empty() && p != "Never") names += (names.empty() ? "" : ", ") + g.value("groupName", std::string());
    }
    if (!names.empty()) {
      Event(cluster, kEventTypeWarning, kInvalidRayClusterSpec,
            "RayCluster spec warning " + key + ": restartPolicy for worker groups [" + names +
                "] should be Never or unset when using autoscaler V1",
            ctx.now);
    }
  }
  if (base::Status s = ValidateRayClusterUpgradeOptions(cluster); !s.ok()) {
    ctx.Error("The RayCluster UpgradeStrategy is invalid", {{"error", s.message()}});
    Event(cluster, kEventTypeWarning, kInvalidRayClusterSpec,
          "The RayCluster UpgradeStrategy is invalid " + key + ": " + s.message(), ctx.now);
    return Outcome::Ok();
  }
  if (base::Status s = ValidateRayClusterStatus(cluster); !s.ok()) {
    ctx.Error("The RayCluster status is invalid", {{"error", s.message()}});
    Event(cluster, kEventTypeWarning, kInvalidRayClusterStatus,
          "The RayCluster status is invalid " + key + ", " + s.message(), ctx.now);
    return Outcome::Error(s);  // RequeueAfter 2s with an error: the error wins (backoff)
  }
  if (api::IsBeingDeleted(cluster)) {
    ctx.Info("RayCluster is being deleted, just ignore", {{"cluster name", req.name}});
    return Outcome::Ok();
  }

  using Fn = ReconcileError (RayClusterReconciler::*)(reconcile::ReconcileContext&, const Json&);
  static const std::pair<const char*, Fn> kFuncs[] = {
      {"reconcileAutoscalerServiceAccount", &RayClusterReconciler::ReconcileAutoscalerServiceAccount},
      {"reconcileAutoscalerRole", &RayClusterReconciler::ReconcileAutoscalerRole},
      {"reconcileAutoscalerRoleBinding", &RayClusterReconciler::ReconcileAutoscalerRoleBinding},
      {"reconcileHeadService", &RayClusterReconciler::ReconcileHeadService},
      {"reconcileHeadlessService", &RayClusterReconciler::ReconcileHeadlessService},
      {"reconcileServeService", &RayClusterReconciler::ReconcileServeService},
      {"reconcilePods", &RayClusterReconciler::ReconcilePods},
  };
  ReconcileError reconcile_err = Ok();
  for (const auto& [name, fn] : kFuncs) {
    reconcile_err = (this->*fn)(ctx, cluster);
    if (!reconcile_err.ok()) {
      ctx.Error("Error reconcile resources",
                {{"function name", name}, {"error", reconcile_err.Message()}});
      break;
    }
  }

  // calculateStatus always runs, even after an error.
  StatusInputs inputs;
  base::Status calculate_err;
  auto pods = ListPods(req.namespace_, Selector({{kRayClusterLabelKey, req.name}}));
  client::ListOptions svc_opts;
  svc_opts.label_selector = Selector({{kRayClusterLabelKey, req.name}, {kRayNodeTypeLabelKey, kHeadNode}});
  auto services = client_.List("Service", req.namespace_, svc_opts);
  bool inconsistent = false;
  base::Status update_err;
  if (!pods.ok()) {
    calculate_err = pods.status();
  } else if (!services.ok()) {
    calculate_err = services.status();
  } else {
    inputs.pods = *pods;
    inputs.head_services = *services;
    inputs.desired_resources = DesiredResources(cluster);
    base::StatusOr<Json> updated = CalculateStatus(cluster, reconcile_err, inputs, config_.features, ctx.now);
    if (!updated.ok()) {
      calculate_err = updated.status();
      ctx.Info("Got error when calculating new status", {{"error", calculate_err.message()}});
    } else {
      inconsistent = InconsistentRayClusterStatus(MemberOrNull(original, "status"),
                                                  MemberOrNull(*updated, "status"));
      if (inconsistent) {
        Json write = original;
        write["status"] = std::move((*updated)["status"]);  // updated is not read again
        auto written = client_.UpdateStatus(std::move(write));
        if (!written.ok()) update_err = written.status();
      }
    }
  }
  base::Status err = !reconcile_err.ok() ? base::Status(reconcile_err.status.code(), reconcile_err.Message())
                     : !calculate_err.ok() ? calculate_err
                                           : update_err;
  if (!err.ok()) return Outcome::Error(err);  // RequeueAfter 2s is ignored next to an error
  reconcile::Result result;
  if (inconsistent) {
    result.requeue_after = kDefaultRequeueDuration;
    return Outcome::Ok(result);
  }
  int64_t seconds = kRayClusterDefaultRequeueSeconds;
  const std::string env = config_.Env(kRayClusterDefaultRequeueSecondsEnv);
  char* end = nullptr;
  const long parsed = env.empty() ? 0 : std::strtol(env.c_str(), &end, 10);
  if (!env.empty() && end != nullptr && *end == '\0') {
    seconds = parsed;
  } else {
    ctx.Info("Environment variable is not set, using default value of seconds",
             {{"environmentVariable", kRayClusterDefaultRequeueSecondsEnv},
              {"defaultValue", std::to_string(kRayClusterDefaultRequeueSeconds)}});
  }
  ctx.Info("Unconditional requeue after", {{"seconds", std::to_string(seconds)}});
  result.requeue_after = seconds * base::kSecond;
  return Outcome::Ok(result);
}

ReconcileError RayClusterReconciler::CreateIfAbsent(reconcile::ReconcileContext& ctx,
                                                    const Json& cluster, Json obj,
                                                    const std::string& created_reason,
                                                    const std::string& noun) {
  const std::string kind = api::Kind(obj);
  auto got = client_.Get(kind, api::Namespace(obj), api::Name(obj));
  if (got.ok()) return Ok();
  if (!base::IsNotFound(got.status())) return Err(got.status());
  if (base::Status s = controllerutil::SetControllerReference(cluster, obj); !s.ok()) return Err(s);
  auto created = client_.Create(obj);
  if (!created.ok()) {
    if (created.status().code() == base::StatusCode::kAlreadyExists) return Ok();
    Event(cluster, kEventTypeWarning, "FailedToCreate" + kind,
          "Failed creating " + noun + " " + api::ObjectKey(obj) + ", " + created.status().message(), ctx.now);
    return Err(created.status());
  }
  ctx.Info("Created " + noun + " for Ray Autoscaler", {{"name", api::Name(obj)}});
  Event(cluster, kEventTypeNormal, created_reason, "Created " + noun + " " + api::ObjectKey(obj), ctx.now);
  return Ok();
}

// mirrors raycluster_controller.go reconcileAutoscalerServiceAccount
ReconcileError RayClusterReconciler::ReconcileAutoscalerServiceAccount(reconcile::ReconcileContext& ctx,
                                                                       const Json& cluster) {
  if (!IsAutoscalingEnabled(cluster["spec"])) return Ok();
  const std::string name = HeadGroupServiceAccountName(cluster);
  auto got = client_.Get("ServiceAccount", api::Namespace(cluster), name);
  if (got.ok()) return Ok();
  if (!base::IsNotFound(got.status())) return Err(got.status());
  if (StringAt(cluster, "/spec/headGroupSpec/template/spec/serviceAccountName") == name) {
    const std::string message =
        "If users specify ServiceAccountName for the head Pod, they need to create a "
        "ServiceAccount themselves. However, ServiceAccount " + name + " is not found. Please create one.";
    ctx.Error(message);
    Event(cluster, kEventTypeWarning, kAutoscalerServiceAccountNotFound,
          "Failed to reconcile RayCluster " + api::ObjectKey(cluster) + ". " + message, ctx.now);
    return Err(got.status());
  }
  Json sa = {{"apiVersion", "v1"},
             {"kind", "ServiceAccount"},
             {"metadata", {{"name", CheckName(name)}, {"namespace", api::Namespace(cluster)}, {"labels", OwnerLabels(cluster)}}}};
  return CreateIfAbsent(ctx, cluster, sa, kCreatedServiceAccount, "service account");
}

// mirrors raycluster_controller.go reconcileAutoscalerRole + common/rbac.go BuildRole
ReconcileError RayClusterReconciler::ReconcileAutoscalerRole(reconcile::ReconcileContext& ctx,
                                                             const Json& cluster) {
  if (!IsAutoscalingEnabled(cluster["spec"])) return Ok();
  Json role = {{"apiVersion", "rbac.authorization.k8s.io/v1"},
               {"kind", "Role"},
               {"metadata", {{"name", CheckName(api::Name(cluster))}, {"namespace", api::Namespace(cluster)}, {"labels", OwnerLabels(cluster)}}},
               {"rules",
                Json::array({Json{{"apiGroups", {""}}, {"resources", {"pods"}}, {"verbs", {"get", "list", "watch", "patch"}}},
                             Json{{"apiGroups", {""}}, {"resources", {"pods/resize"}}, {"verbs", {"patch"}}},
                             Json{{"apiGroups", {"ray.io"}}, {"resources", {"rayclusters"}}, {"verbs", {"get", "patch"}}}})}};
  return CreateIfAbsent(ctx, cluster, role, kCreatedRole, "role");
}

// mirrors raycluster_controller.go reconcileAutoscalerRoleBinding + common/rbac.go BuildRoleBinding
ReconcileError RayClusterReconciler::ReconcileAutoscalerRoleBinding(reconcile::ReconcileContext& ctx,
                                                                    const Json& cluster) {
  if (!IsAutoscalingEnabled(cluster["spec"])) return Ok();
  Json binding = {{"apiVersion", "rbac.authorization.k8s.io/v1"},
                  {"kind", "RoleBinding"},
                  {"metadata", {{"name", CheckName(api::Name(cluster))}, {"namespace", api::Namespace(cluster)}, {"labels", OwnerLabels(cluster)}}},
                  {"subjects", Json::array({Json{{"kind", "ServiceAccount"},
                                                 {"name", CheckName(HeadGroupServiceAccountName(cluster))},
                                                 {"namespace", api::Namespace(cluster)}}})},
                  {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "Role"}, {"name", CheckName(api::Name(cluster))}}}};
  return CreateIfAbsent(ctx, cluster, binding, kCreatedRoleBinding, "role binding");
}

base::Status RayClusterReconciler::CreateService(reconcile::ReconcileContext& ctx,
                                                 const Json& cluster, Json svc) {
  if (base::Status s = controllerutil::SetControllerReference(cluster, svc); !s.ok()) return s;
  auto created = client_.Create(svc);
  if (!created.ok()) {
    Event(cluster, kEventTypeWarning, kFailedToCreateService,
          "Failed creating service " + api::ObjectKey(svc) + ", " + created.status().message(), ctx.now);
    return created.status();
  }
  ctx.Info("Created service for RayCluster", {{"name", api::Name(svc)}});
  Event(cluster, kEventTypeNormal, kCreatedService, "Created service " + api::ObjectKey(svc), ctx.now);
  return base::Status::OK();
}

// mirrors raycluster_controller.go reconcileHeadService
ReconcileError RayClusterReconciler::ReconcileHeadService(reconcile::ReconcileContext& ctx,
                                                          const Json& cluster) {
  client::ListOptions opts;
  opts.label_selector = Selector({{kRayClusterLabelKey, api::Name(cluster)}, {kRayNodeTypeLabelKey, kHeadNode}});
  auto services = client_.List("Service", api::Namespace(cluster), opts);
  if (!services.ok()) return Err(services.status());
  if (services->size() == 1) return Ok();
  if (services->size() > 1) {
    return Err(base::Status(base::StatusCode::kInternal,
                            std::to_string(services->size()) + " head service found"));
  }
  return Err(CreateService(ctx, cluster, BuildHeadService(cluster, config_)));
}

// mirrors raycluster_controller.go reconcileHeadlessService: only for multi-host groups.
ReconcileError RayClusterReconciler::ReconcileHeadlessService(reconcile::ReconcileContext& ctx,
                                                              const Json& cluster) {
  bool multi_host = false;
  for (const Json& g : MemberOrNull(cluster["spec"], "workerGroupSpecs")) {
    multi_host = multi_host || NumOfHosts(g) > 1;
  }
  if (!multi_host) return Ok();
  const std::string name = api::Name(cluster) + "-headless";
  auto got = client_.Get("Service", api::Namespace(cluster), name);
  if (got.ok()) return Ok();
  if (!base::IsNotFound(got.status())) return Err(got.status());
  return Err(CreateService(ctx, cluster, BuildHeadlessService(cluster)));
}

// mirrors raycluster_controller.go reconcileServeService: only with ray.io/enable-serve-service.
ReconcileError RayClusterReconciler::ReconcileServeService(reconcile::ReconcileContext& ctx,
                                                           const Json& cluster) {
  const auto annotations = api::Annotations(cluster);
  auto it = annotations.find(kEnableServeServiceKey);
  if (it == annotations.end() || it->second != "true") return Ok();
  const std::string name = api::Name(cluster) + "-serve-svc";
  auto got = client_.Get("Service", api::Namespace(cluster), name);
  if (got.ok()) return Ok();
  if (!base::IsNotFound(got.status())) return Err(got.status());
  return Err(CreateService(ctx, cluster, BuildServeService(cluster)));
}

base::Status RayClusterReconciler::DeleteAllPods(const std::string& ns, const std::string& selector) {
  auto pods = ListPods(ns, selector);
  if (!pods.ok()) return pods.status();
  for (const ObjectPtr& p : *pods) {
    if (api::IsBeingDeleted(*p)) continue;
    auto deleted = client_.Delete("Pod", ns, api::Name(*p));
    if (!deleted.ok() && !base::IsNotFound(deleted.status())) return deleted.status();
  }
  return base::Status::OK();
}

// mirrors raycluster_controller.go shouldRecreatePodsForUpgrade
bool RayClusterReconciler::ShouldRecreatePodsForUpgrade(reconcile::ReconcileContext& ctx,
                                                        const Json& cluster, const std::string& hash) {
  if (StringAt(cluster, "/spec/upgradeStrategy/type") != "Recreate") return false;
  auto heads = ListPods(api::Namespace(cluster),
                        Selector({{kRayClusterLabelKey, api::Name(cluster)}, {kRayNodeTypeLabelKey, kHeadNode}}));
  if (!heads.ok() || heads->empty()) return false;
  Json head = *(*heads)[0];
  const auto annotations = api::Annotations(head);
  auto version = annotations.find(kKubeRayVersionAnnotationKey);
  if (version != annotations.end() && !version->second.empty() && version->second != kKubeRayVersion) {
    ctx.Info("KubeRay version has changed, skipping pod recreation", {{"rayCluster", api::Name(cluster)}});
    api::SetAnnotation(head, kUpgradeStrategyRecreateHashKey, hash);
    api::SetAnnotation(head, kKubeRayVersionAnnotationKey, kKubeRayVersion);
    auto updated = client_.Update(head);
    if (!updated.ok()) ctx.Error("Failed to update head pod annotations after KUBERAY_VERSION change");
    return false;
  }
  auto actual = annotations.find(kUpgradeStrategyRecreateHashKey);
  if (actual != annotations.end() && !actual->second.empty() && actual->second != hash) {
    ctx.Info("RayCluster spec has changed, will recreate all pods", {{"rayCluster", api::Name(cluster)}});
    return true;
  }
  return false;
}

base::Status RayClusterReconciler::CreateHeadPod(reconcile::ReconcileContext& ctx,
                                                 const Json& cluster, const std::string& hash) {
  Json pod = BuildHeadPod(cluster, config_, hash);
  const std::string pod_key = api::Namespace(pod) + "/" + api::Name(pod);  // for the failure event
  auto created = client_.Create(std::move(pod));
  if (!created.ok()) {
    Event(cluster, kEventTypeWarning, kFailedToCreateHeadPod,
          "Failed to create head Pod " + pod_key + ", " +
              created.status().message(),
          ctx.now);
    return created.status();
  }
  const std::string name = api::Name(**created);
  expectations_.ExpectScalePod(api::Namespace(cluster), api::Name(cluster), kHeadGroup, name,
                               ScaleExpectations::Action::kCreate, ctx.now);
  ctx.Info("Created head Pod for RayCluster", {{"name", name}});
  Event(cluster, kEventTypeNormal, kCreatedHeadPod, "Created head Pod " + api::Namespace(cluster) + "/" + name, ctx.now);
  return base::Status::OK();
}

base::Status RayClusterReconciler::CreateWorkerPod(reconcile::ReconcileContext& ctx,
                                                   const Json& cluster, const Json& group,
                                                   const Json& worker_template, int replica_index,
                                                   const std::string& replica_name,
                                                   int host_index) {
  // The Pod views the template's members instead of copying them (api::ShareEachMember): the
  // API server then gives every Pod of this reconcile the first one's defaulted spec
  // (apiserver/internal/sibling_specs.h). Nothing writes into the template afterwards.
  auto created =
      client_.Create(StampWorkerReplica(api::ShareEachMember(worker_template, 0), group, config_,
                                        replica_index, replica_name, host_index));
  if (!created.ok()) {
    Event(cluster, kEventTypeWarning, kFailedToCreateWorkerPod,
          "Failed to create worker Pod for the cluster " + api::ObjectKey(cluster) + ", " +
              created.status().message(),
          ctx.now);
    return created.status();
  }
  const std::string name = api::Name(**created);
  expectations_.ExpectScalePod(api::Namespace(cluster), api::Name(cluster),
                               group.value("groupName", std::string()), name,
                               ScaleExpectations::Action::kCreate, ctx.now);
  ctx.Info("Created worker Pod for RayCluster", {{"name", name}});
  Event(cluster, kEventTypeNormal, kCreatedWorkerPod, "Created worker Pod " + api::Namespace(cluster) + "/" + name, ctx.now);
  return base::Status::OK();
}

RayClusterReconciler::RememberedSpec* RayClusterReconciler::SpecMemo(const Json& cluster) {
  constexpr size_t kRemembered = 4096;  // clusters come and go: forget all past this many
  const std::string& uid = api::ObjectMeta(cluster).Uid();
  const int64_t generation = api::Generation(cluster);
  if (uid.empty() || generation <= 0) return nullptr;  // not from the API server
  auto it = cluster_specs_.find(uid);
  if (it == cluster_specs_.end()) {
    if (cluster_specs_.size() >= kRemembered) cluster_specs_.clear();
    it = cluster_specs_.emplace(uid, RememberedSpec{}).first;
  }
  if (it->second.generation != generation) it->second = RememberedSpec{generation, {}, {}};
  return &it->second;
}

std::string RayClusterReconciler::ClusterHash(const Json& cluster) {
  RememberedSpec* memo = SpecMemo(cluster);
  if (memo == nullptr) return GenerateHashWithoutReplicasAndWorkersToDelete(cluster["spec"]);
  if (!memo->hash) memo->hash = GenerateHashWithoutReplicasAndWorkersToDelete(cluster["spec"]);
  return *memo->hash;
}

const ResourceList* RayClusterReconciler::DesiredResources(const Json& cluster) {
  RememberedSpec* memo = SpecMemo(cluster);
  if (memo == nullptr) return nullptr;
  if (!memo->desired_resources) memo->desired_resources = CalculateDesiredResources(cluster);
  return &*memo->desired_resources;
}

// mirrors raycluster_controller.go reconcilePods
ReconcileError RayClusterReconciler::ReconcilePods(reconcile::ReconcileContext& ctx, const Json& cluster) {
  const std::string ns = api::Namespace(cluster);
  const std::string name = api::Name(cluster);
  const std::string key = ns + "/" + name;
  const std::string hash = ClusterHash(cluster);
  const std::string all_pods = Selector({{kRayClusterLabelKey, name}});

  // Suspend (gate RayClusterStatusConditions): Suspending deletes every Pod.
  const std::string suspend = FindRayClusterSuspendStatus(cluster);
  const bool gate = config_.features.Enabled(kRayClusterStatusConditions);
  const bool spec_suspend = BoolAt(cluster, "/spec/suspend", false);
  if (suspend == kRayClusterSuspending || (!gate && spec_suspend)) {
    if (base::Status s = DeleteAllPods(ns, all_pods); !s.ok()) {
      Event(cluster, kEventTypeWarning, "FailedToDeletePodCollection",
            "Failed deleting Pods due to suspension for RayCluster " + key + ", " + s.message(), ctx.now);
      return Err(s, kFailedDeleteAllPods);
    }
    Event(cluster, kEventTypeNormal, "DeletedPod", "Deleted Pods for RayCluster " + key + " due to suspension", ctx.now);
    return Ok();
  }
  if (gate && (suspend == kRayClusterSuspended || spec_suspend)) return Ok();

  if (ShouldRecreatePodsForUpgrade(ctx, cluster, hash)) {
    if (base::Status s = DeleteAllPods(ns, all_pods); !s.ok()) {
      Event(cluster, kEventTypeWarning, "FailedToDeletePodCollection",
            "Failed deleting Pods due to spec change with Recreate upgradeStrategy for RayCluster " +
                key + ", " + s.message(),
            ctx.now);
      return Err(s, kFailedDeleteAllPods);
    }
    expectations_.Delete(name, ns);
    Event(cluster, kEventTypeNormal, "DeletedPod",
          "Deleted all Pods for RayCluster " + key + " due to spec change with Recreate upgradeStrategy", ctx.now);
    return Ok();
  }

  auto heads = ListPods(ns, Selector({{kRayClusterLabelKey, name}, {kRayNodeTypeLabelKey, kHeadNode}}));
  if (!heads.ok()) return Err(heads.status());
  if (!expectations_.IsSatisfied(client_, ns, name, kHeadGroup, ctx.now)) {
    ctx.Info("reconcilePods", {{"Expectation", "NotSatisfiedHeadExpectations, reconcile head later"}});
  } else if (heads->size() == 1) {
    const Json& head = *(*heads)[0];
    std::string reason;
    if (ShouldDeletePod(head, kHeadNode, &reason)) {
      auto deleted = client_.Delete("Pod", ns, api::Name(head));
      if (!deleted.ok()) {
        Event(cluster, kEventTypeWarning, kFailedToDeleteHeadPod,
              "Failed deleting head Pod " + ns + "/" + api::Name(head) + "; " + deleted.status().message(), ctx.now);
        return Err(deleted.status(), kFailedDeleteHeadPod);
      }
      expectations_.ExpectScalePod(ns, name, kHeadGroup, api::Name(head), ScaleExpectations::Action::kDelete, ctx.now);
      Event(cluster, kEventTypeNormal, kDeletedHeadPod,
            "Deleted head Pod " + ns + "/" + api::Name(head) + "; Pod status: " +
                StringAt(head, "/status/phase") + "; Pod restart policy: " +
                StringAt(head, "/spec/restartPolicy") + "; Ray container terminated status: " +
                Describe(RayContainerTerminated(head)),
            ctx.now);
      return Err(base::Status(base::StatusCode::kInternal, reason));
    }
  } else if (heads->empty()) {
    const auto annotations = api::Annotations(cluster);
    auto skip = annotations.find(kDisableProvisionedHeadRestartAnnotationKey);
    if (IsConditionTrue(cluster, kRayClusterProvisioned) && skip != annotations.end() && skip->second == "true") {
      ctx.Info("reconcilePods: Found 0 head Pods for the RayCluster; Skipped head recreation due to ray.io/disable-provisioned-head-restart");
      return Ok();
    }
    ctx.Info("reconcilePods: Found 0 head Pods; creating a head Pod for the RayCluster.");
    if (base::Status s = CreateHeadPod(ctx, cluster, hash); !s.ok()) return Err(s, kFailedCreateHeadPod);
  } else {
    std::string names;
    for (const ObjectPtr& p : *heads) names += (names.empty() ? "" : " ") + api::Name(*p);
    return Err(base::Status(base::StatusCode::kInternal,
                            std::to_string(heads->size()) + " head pods found [" + names +
                                "]. Please delete extra head pods"));
  }

  const Json& groups = MemberOrNull(cluster["spec"], "workerGroupSpecs");
  for (const Json& group : groups.is_array() ? groups : EmptyArray()) {
    if (!group.is_object()) continue;
    const std::string group_name = group.value("groupName", std::string());
    if (!expectations_.IsSatisfied(client_, ns, name, group_name, ctx.now)) {
      ctx.Info("reconcilePods", {{"worker group", group_name},
                                 {"Expectation", "NotSatisfiedGroupExpectations, reconcile the group later"}});
      continue;
    }
    const int64_t desired = GetWorkerGroupDesiredReplicas(group);
    const std::string group_selector =
        Selector({{kRayClusterLabelKey, name}, {kRayNodeGroupLabelKey, group_name}, {kRayNodeTypeLabelKey, kWorkerNode}});
    auto workers = ListPods(ns, group_selector);
    if (!workers.ok()) return Err(workers.status());
    if (BoolAt(group, "/suspend", false)) {
      if (base::Status s = DeleteAllPods(ns, group_selector); !s.ok()) {
        Event(cluster, kEventTypeWarning, "FailedToDeleteWorkerPodCollection",
              "Failed deleting worker Pods for suspended group " + group_name + " in RayCluster " + key + ", " + s.message(),
              ctx.now);
        return Err(s, kFailedDeleteWorkerPod);
      }
      Event(cluster, kEventTypeNormal, kDeletedWorkerPod,
            "Deleted all pods for suspended worker group " + group_name + " in RayCluster " + key, ctx.now);
      continue;
    }
    if (NumOfHosts(group) > 1 && config_.features.Enabled(kRayMultiHostIndexing)) {
      ReconcileError err = ReconcileMultiHostWorkerGroup(ctx, cluster, group, *workers);
      if (!err.ok()) return err;
      continue;
    }
    std::set<std::string> deleted_workers;
    int unhealthy = 0;
    for (const ObjectPtr& p : *workers) {
      if (!ShouldDeletePod(*p, kWorkerNode, /*reason=*/nullptr)) continue;
      ++unhealthy;
      deleted_workers.insert(api::Name(*p));
      auto deleted = client_.Delete("Pod", ns, api::Name(*p));
      if (!deleted.ok()) {
        Event(cluster, kEventTypeWarning, kFailedToDeleteWorkerPod,
              "Failed deleting worker Pod " + ns + "/" + api::Name(*p) + "; " + deleted.status().message(), ctx.now);
        return Err(deleted.status(), kFailedDeleteWorkerPod);
      }
      expectations_.ExpectScalePod(ns, name, group_name, api::Name(*p), ScaleExpectations::Action::kDelete, ctx.now);
      Event(cluster, kEventTypeNormal, kDeletedWorkerPod,
            "Deleted worker Pod " + ns + "/" + api::Name(*p) + "; Pod status: " + StringAt(*p, "/status/phase") +
                "; Pod restart policy: " + StringAt(*p, "/spec/restartPolicy") +
                "; Ray container terminated status: " + Describe(RayContainerTerminated(*p)),
            ctx.now);
    }
    if (unhealthy > 0) {
      return Err(base::Status(base::StatusCode::kInternal,
                              "delete " + std::to_string(unhealthy) + " unhealthy worker Pods"));
    }
    // workersToDelete: deleted whatever replicas says; the list is never written back.
    const Json* to_delete = At(group, "/scaleStrategy/workersToDelete");
    for (const Json& w : to_delete != nullptr && to_delete->is_array() ? *to_delete : Json::array()) {
      if (!w.is_string()) continue;
      const std::string pod = w.get<std::string>();
      auto deleted = client_.Delete("Pod", ns, pod);
      if (!deleted.ok()) {
        if (!base::IsNotFound(deleted.status())) {
          Event(cluster, kEventTypeWarning, kFailedToDeleteWorkerPod,
                "Failed deleting pod " + ns + "/" + pod + ", " + deleted.status().message(), ctx.now);
          return Err(deleted.status(), kFailedDeleteWorkerPod);
        }
        ctx.Info("reconcilePods", {{"The worker Pod has already been deleted", pod}});
      } else {
        expectations_.ExpectScalePod(ns, name, group_name, pod, ScaleExpectations::Action::kDelete, ctx.now);
        deleted_workers.insert(pod);
        Event(cluster, kEventTypeNormal, kDeletedWorkerPod, "Deleted pod " + ns + "/" + pod, ctx.now);
      }
    }
    std::vector<ObjectPtr> running;
    for (const ObjectPtr& p : *workers) {
      if (deleted_workers.count(api::Name(*p)) == 0) running.push_back(p);
    }
    const int64_t diff = desired - static_cast<int64_t>(running.size());
    ctx.Info("reconcilePods", {{"workerReplicas", std::to_string(desired)},
                               {"runningPods", std::to_string(running.size())},
                               {"diff", std::to_string(diff)}});
    std::set<int> used_indices;
    if (config_.features.Enabled(kRayMultiHostIndexing)) {
      for (const ObjectPtr& p : running) {
        const Json* labels = api::ObjectMeta(*p).Labels();
        const Json* label =
            labels != nullptr ? api::Member(*labels, kRayWorkerReplicaIndexKey) : nullptr;
        if (label == nullptr || !label->is_string()) continue;  // api::Labels skips non-strings
        const std::string& text = label->get_ref<const std::string&>();
        char* end = nullptr;
        if (text.empty()) continue;
        const long index = std::strtol(text.c_str(), &end, 10);
        if (*end == '\0') used_indices.insert(static_cast<int>(index));
      }
    }
    if (diff > 0) {
      // A numOfHosts > 1 group reaches this path only with RayMultiHostIndexing off, where every
      // Pod is created alone (no replica name, no host index).
      const Json worker_template = BuildWorkerPodTemplate(cluster, group, config_);
      int next_index = 0;
      for (int64_t i = 0; i < diff; ++i) {
        while (used_indices.count(next_index) != 0) ++next_index;
        used_indices.insert(next_index);
        if (base::Status s = CreateWorkerPod(ctx, cluster, group, worker_template, next_index,
                                            /*replica_name=*/"", /*host_index=*/0);
            !s.ok()) {
          return Err(s, kFailedCreateWorkerPod);
        }
      }
    } else if (diff < 0) {
      const bool autoscaling = IsAutoscalingEnabled(cluster["spec"]);
      const bool random_delete = autoscaling && config_.EnvIs(kEnableRandomPodDelete, "true");
      if (!autoscaling || random_delete) {
        // "Randomly" is upstream's word for the first Pods of the List (see the header).
        const int64_t remove = -diff;
        for (int64_t i = 0; i < remove; ++i) {
          const std::string pod = api::Name(*running[static_cast<size_t>(i)]);
          ctx.Info("Randomly deleting Pod", {{"progress", std::to_string(i + 1) + " / " + std::to_string(remove)},
                                             {"with name", pod}});
          auto deleted = client_.Delete("Pod", ns, pod);
          if (!deleted.ok() && !base::IsNotFound(deleted.status())) {
            Event(cluster, kEventTypeWarning, kFailedToDeleteWorkerPod,
                  "Failed deleting Pod " + ns + "/" + pod + ", " + deleted.status().message(), ctx.now);
            return Err(deleted.status(), kFailedDeleteWorkerPod);
          }
          if (!deleted.ok()) ctx.Info("reconcilePods", {{"The worker Pod has already been deleted", pod}});
          expectations_.ExpectScalePod(ns, name, group_name, pod, ScaleExpectations::Action::kDelete, ctx.now);
          Event(cluster, kEventTypeNormal, kDeletedWorkerPod, "Deleted Pod " + ns + "/" + pod, ctx.now);
        }
      } else {
        ctx.Info("Random Pod deletion is disabled for the cluster. The only decision-maker for Pod deletions is Autoscaler.");
      }
    }
  }
  return Ok();
}

}  // namespace kuberay
