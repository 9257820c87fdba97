#include "core/operators/inference/reconciler.h"

#include <utility>

#include "core/client/patch.h"
#include "core/controller/controllerutil/controllerutil.h"

namespace inference {
namespace {

using api::Json;
using base::Status;
using reconcile::Outcome;

// kDnsZone completes a service's DNS record name: "<name>.<namespace>" + kDnsZone.
constexpr const char* kDnsZone = ".svc.example.com";

const Json* At(const Json& obj, const char* pointer) {
  const Json::json_pointer ptr(pointer);
  return obj.is_object() && obj.contains(ptr) ? &obj.at(ptr) : nullptr;
}

int64_t IntAt(const Json& obj, const char* pointer, int64_t fallback) {
  const Json* v = At(obj, pointer);
  return v != nullptr && v->is_number_integer() ? v->get<int64_t>() : fallback;
}

std::string StringAt(const Json& obj, const char* pointer) {
  const Json* v = At(obj, pointer);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}

// SpecReplicas is spec.replicas (the CRD defaults it to 1).
int64_t SpecReplicas(const Json& isvc) { return IntAt(isvc, "/spec/replicas", 1); }
std::string SpecImage(const Json& isvc) { return StringAt(isvc, "/spec/image"); }

// ServerContainer returns the container named kContainerName, else the first one, else null.
Json* ServerContainer(Json& deploy) {
  Json::json_pointer ptr("/spec/template/spec/containers");
  if (!deploy.contains(ptr) || !deploy.at(ptr).is_array() || deploy.at(ptr).empty()) {
    return nullptr;
  }
  Json& containers = deploy.at(ptr);
  for (Json& c : containers) {
    if (c.is_object() && c.value("name", Json()) == kContainerName) return &c;
  }
  return containers[0].is_object() ? &containers[0] : nullptr;
}

std::string ContainerImage(const Json& deploy) {
  Json copy = deploy;
  Json* c = ServerContainer(copy);
  return c != nullptr ? StringAt(*c, "/image") : std::string();
}

// SetContainerImage is the note's setContainerImage: the server container gets image.
void SetContainerImage(Json& deploy, const std::string& image) {
  if (Json* c = ServerContainer(deploy)) {
    (*c)["image"] = image;
    return;
  }
  deploy["spec"]["template"]["spec"]["containers"] =
      Json::array({Json{{"name", kContainerName}, {"image", image}}});
}

// CountReady is the note's countReady: Pods whose Ready condition is True.
int64_t CountReady(const std::vector<api::ObjectPtr>& pods) {
  int64_t ready = 0;
  for (const api::ObjectPtr& pod : pods) {
    const Json* conditions = At(*pod, "/status/conditions");
    if (conditions == nullptr || !conditions->is_array()) continue;
    for (const Json& c : *conditions) {
      if (c.is_object() && c.value("type", Json()) == "Ready" &&
          c.value("status", Json()) == "True") {
        ++ready;
        break;
      }
    }
  }
  return ready;
}

Json SelectorLabels(const std::string& name) {
  return Json{{kInstanceLabel, name}, {kNameLabel, kNameLabelValue}};
}

Outcome Fail(const Status& status) { return Outcome::Error(status); }

}  // namespace

const std::vector<std::string>& BugIds() {
  static const std::vector<std::string> ids = {"non-idempotent-create", "forget-finalizer-removal",
                                               "blocking-reconcile", "missing-generation-predicate",
                                               "error-before-status",
                                               "terminal-error", "requeue-after-with-error",
                                               "stale-cache-create", "unscoped-pod-cache",
                                               "requeue-instead-of-requeue-after",
                                               "nil-dereference"};
  return ids;
}

Status SetBug(Bugs& bugs, const std::string& id, bool on) {
  bool* flag = nullptr;
  if (id == "non-idempotent-create") flag = &bugs.non_idempotent_create;
  if (id == "forget-finalizer-removal") flag = &bugs.forget_finalizer_removal;
  if (id == "blocking-reconcile") flag = &bugs.blocking_reconcile;
  if (id == "missing-generation-predicate") flag = &bugs.missing_generation_predicate;
  if (id == "error-before-status") flag = &bugs.error_before_status;
  if (id == "terminal-error") flag = &bugs.terminal_error;
  if (id == "requeue-after-with-error") flag = &bugs.requeue_after_with_error;
  if (id == "stale-cache-create") flag = &bugs.stale_cache_create;
  if (id == "unscoped-pod-cache") flag = &bugs.unscoped_pod_cache;
  if (id == "requeue-instead-of-requeue-after") flag = &bugs.requeue_instead_of_requeue_after;
  if (id == "nil-dereference") flag = &bugs.nil_dereference;
  if (flag == nullptr) {
    std::string known;
    for (const std::string& b : BugIds()) known += (known.empty() ? "" : ", ") + b;
    return Status(base::StatusCode::kInvalid, "unknown bug \"" + id + "\" (known: " + known + ")");
  }
  *flag = on;
  return Status::OK();
}

base::StatusOr<Json> BuildDeployment(const Json& isvc) {
  const std::string name = api::Name(isvc);
  Json deploy = {
      {"apiVersion", "apps/v1"},
      {"kind", "Deployment"},
      {"metadata",
       {{"name", name}, {"namespace", api::Namespace(isvc)}, {"labels", SelectorLabels(name)}}},
      {"spec",
       {{"replicas", SpecReplicas(isvc)},
        {"selector", {{"matchLabels", SelectorLabels(name)}}},
        {"template",
         {{"metadata", {{"labels", SelectorLabels(name)}}},
          {"spec",
           {{"containers",
             Json::array({Json{{"name", kContainerName}, {"image", SpecImage(isvc)}}})}}}}}}}};
  for (const auto& [key, value] : api::Annotations(isvc)) {
    if (key.rfind(kSandboxAnnotationPrefix, 0) == 0) {
      deploy["spec"]["template"]["metadata"]["annotations"][key] = value;
    }
  }
  // ctrl.SetControllerReference: garbage collection and Owns() both follow this reference.
  Status owned = controllerutil::SetControllerReference(isvc, deploy);
  if (!owned.ok()) return owned;
  return deploy;
}

Json ComputeStatus(const Json& isvc, int64_t ready_replicas, base::SimTime now) {
  const int64_t generation = api::Generation(isvc);
  const int64_t replicas = SpecReplicas(isvc);
  const bool all_ready = ready_replicas == replicas;
  const std::string condition_status = all_ready ? "True" : "False";
  std::string last_transition = base::FormatRfc3339(now);
  if (const Json* conditions = At(isvc, "/status/conditions");
      conditions != nullptr && conditions->is_array()) {
    for (const Json& c : *conditions) {
      if (c.is_object() && c.value("type", Json()) == "Ready") {
        // A condition's lastTransitionTime moves only when its status flips.
        if (c.value("status", Json()) == condition_status &&
            c.value("lastTransitionTime", Json()).is_string()) {
          last_transition = c.value("lastTransitionTime", Json()).get<std::string>();
        }
        break;
      }
    }
  }
  Json condition = {{"type", "Ready"},
                    {"status", condition_status},
                    {"reason", all_ready ? "AllReplicasReady" : "ReplicasNotReady"},
                    {"message", std::to_string(ready_replicas) + "/" + std::to_string(replicas) +
                                    " replicas ready"},
                    {"lastTransitionTime", last_transition},
                    {"observedGeneration", generation}};
  return Json{{"observedGeneration", generation},
              {"readyReplicas", ready_replicas},
              {"ready", all_ready},
              {"conditions", Json::array({condition})}};
}

InferenceServiceReconciler::InferenceServiceReconciler(client::Client& client,
                                                       ExternalSystems& external, Options options)
    : client_(client), external_(external), options_(std::move(options)) {}

void InferenceServiceReconciler::Block(base::Duration d) const {
  if (d > 0 && options_.on_blocking) options_.on_blocking(d);
}

Outcome InferenceServiceReconciler::Reconcile(reconcile::ReconcileContext& ctx,
                                              const reconcile::Request& req) {
  // 1. Read the custom resource from the cache (4.3). Gone: nothing to reconcile.
  base::StatusOr<api::ObjectPtr> got = client_.Get(kKind, req.namespace_, req.name);
  if (!got.ok()) {
    const Status s = base::IgnoreNotFound(got.status());
    // A late event for an object already deleted (its Deployment's deletion, say): nothing to
    // do, and no error, or the key would be retried forever.
    if (!s.ok()) return Fail(s);
    ctx.Info("InferenceService not found, nothing to reconcile", {{"InferenceService", req.Key()}});
    return Outcome::Ok();
  }
  Json isvc = **got;
  ctx.Info("Reconciling InferenceService",
           {{"InferenceService", req.Key()},
            {"generation", std::to_string(api::Generation(isvc))},
            {"observedGeneration", std::to_string(IntAt(isvc, "/status/observedGeneration", 0))}});
  if (options_.bugs.nil_dereference) {
    // The mistake: `isvc.Spec.Autoscaling.MinReplicas` with Autoscaling a nil *struct. Go panics;
    // controller-runtime's RecoverPanic decides whether that is an error or a dead process.
    return Outcome::Panic("runtime error: invalid memory address or nil pointer dereference");
  }
  if (options_.bugs.blocking_reconcile) {
    // The failure of 4.10 "Controller 卡死": waiting inside Reconcile instead of RequeueAfter.
    ctx.Info("waiting for the model to load (blocking the worker)",
             {{"duration", base::FormatDuration(options_.blocking_duration)}});
    Block(options_.blocking_duration);
  }

  // Deletion (4.9): the finalizer holds the object until the external cleanup succeeded.
  if (api::IsBeingDeleted(isvc)) {
    if (!controllerutil::ContainsFinalizer(isvc, kFinalizer)) return Outcome::Ok();
    return Finalize(ctx, isvc);
  }
  if (!controllerutil::ContainsFinalizer(isvc, kFinalizer)) {
    Json with_finalizer = isvc;
    controllerutil::AddFinalizer(with_finalizer, kFinalizer);
    base::StatusOr<api::ObjectPtr> updated = client_.Update(std::move(with_finalizer));
    if (!updated.ok()) return Fail(updated.status());
    ctx.Info("added finalizer", {{"finalizer", kFinalizer}});
    isvc = **updated;  // continue with the stored version (see the header's Teaching note)
  }
  const std::string ns = api::Namespace(isvc);
  const std::string name = api::Name(isvc);
  const int64_t replicas = SpecReplicas(isvc);
  const std::string image = SpecImage(isvc);

  // 2. Read what the resource owns (4.4): its Deployment and the Pods with its instance label.
  api::ObjectPtr deploy;
  if (options_.bugs.stale_cache_create) {
    // The race explorer's teaching bug: "is there one already?" asked of the cache, not by name.
    client::ListOptions owned;
    owned.label_selector = kInstanceLabel + "=" + name;
    base::StatusOr<std::vector<api::ObjectPtr>> listed = client_.List("Deployment", ns, owned);
    if (!listed.ok()) return Fail(listed.status());
    if (!listed->empty()) deploy = listed->front();
  } else if (!options_.bugs.non_idempotent_create) {
    base::StatusOr<api::ObjectPtr> d = client_.Get("Deployment", ns, name);
    if (d.ok()) {
      deploy = *d;
    } else if (!base::IsNotFound(d.status())) {
      return Fail(d.status());
    }
  }
  client::ListOptions selector;
  selector.label_selector = kInstanceLabel + "=" + name;
  base::StatusOr<std::vector<api::ObjectPtr>> pods = client_.List("Pod", ns, selector);
  if (!pods.ok()) return Fail(pods.status());
  const int64_t ready_replicas = CountReady(*pods);

  // 3. Act (4.5): create when absent, otherwise merge-patch only what differs.
  if (deploy == nullptr) {
    base::StatusOr<Json> built = BuildDeployment(isvc);
    if (!built.ok()) return Fail(built.status());
    Json desired = std::move(*built);
    if (options_.bugs.non_idempotent_create || options_.bugs.stale_cache_create) {
      // No Get by name before Create (non-idempotent-create: every reconcile makes one more), or
      // "none yet" read from a possibly stale cache (stale-cache-create): a generated name never
      // collides, so the API server cannot refuse the duplicate with AlreadyExists.
      api::Metadata(desired).erase("name");
      api::Metadata(desired)["generateName"] = name + "-";
    }
    base::StatusOr<api::ObjectPtr> created = client_.Create(std::move(desired));
    if (!created.ok()) return ActFailed(created.status());
    ctx.Info("created Deployment", {{"Deployment", api::ObjectKey(**created)}});
  } else if (IntAt(*deploy, "/spec/replicas", 1) != replicas || ContainerImage(*deploy) != image) {
    // client.MergeFrom(deploy.DeepCopy()): the patch is the difference, with the containers
    // list sent whole (a merge patch replaces lists).
    Json modified = *deploy;
    modified["spec"]["replicas"] = replicas;
    SetContainerImage(modified, image);
    base::StatusOr<api::ObjectPtr> patched =
        client::PatchObject(client_, modified, *client::MergeFrom(*deploy));
    if (!patched.ok()) return ActFailed(patched.status());
    ctx.Info("patched Deployment", {{"Deployment", api::ObjectKey(ns, api::Name(*deploy))},
                                    {"replicas", std::to_string(replicas)},
                                    {"image", image}});
  }
  if (options_.bugs.error_before_status) {
    // The failure of 4.10 "status 不更新": an error between the act and the status write.
    return Fail(Status(
        base::StatusCode::kInternal,
        "failed to record rollout for " + api::ObjectKey(ns, name) + " (bug error-before-status)"));
  }

  // 4. Write status (4.6), only when it changed.
  Json status = ComputeStatus(isvc, ready_replicas, ctx.now);
  const Json* current = At(isvc, "/status");
  if (current == nullptr || *current != status) {
    Json with_status = isvc;
    with_status["status"] = std::move(status);
    base::StatusOr<api::ObjectPtr> written = client_.UpdateStatus(std::move(with_status));
    if (!written.ok()) return Fail(written.status());  // 409 Conflict: retried with backoff
  }

  // 5. Requeue while not converged (4.7); never wait inside Reconcile.
  if (ready_replicas < replicas) {
    reconcile::Result result;
    if (options_.bugs.requeue_instead_of_requeue_after) {
      // The note's `Result{Requeue: true}` (「立即重排（少用）」): not immediate but rate
      // limited, and never forgotten while it lasts, so the delay doubles from 5 ms.
      result.requeue = true;
    } else {
      result.requeue_after = options_.requeue_after;
    }
    return Outcome::Ok(result);
  }
  ctx.Info("reconciled, all ready", {{"InferenceService", req.Key()}});
  return Outcome::Ok();
}

Outcome InferenceServiceReconciler::ActFailed(const Status& error) const {
  if (options_.bugs.terminal_error) {
    // The mistake: `return ctrl.Result{}, reconcile.TerminalError(err)` for a failure a retry
    // would fix. controller-runtime counts it and never requeues the key: the object waits for
    // its next event.
    return Outcome::Error(reconcile::TerminalError(error));
  }
  Outcome failed = Fail(error);
  if (options_.bugs.requeue_after_with_error) {
    // The mistake: `return ctrl.Result{RequeueAfter: 30 * time.Second}, err` meaning "retry in
    // 30 s". With a non-nil error controller-runtime ignores the Result and uses the rate limiter.
    failed.result.requeue_after = options_.requeue_after;
  }
  return failed;
}

Outcome InferenceServiceReconciler::Finalize(reconcile::ReconcileContext& ctx, const Json& isvc) {
  const std::string ns = api::Namespace(isvc);
  const std::string name = api::Name(isvc);
  ctx.Info("running finalizer cleanup", {{"InferenceService", api::ObjectKey(ns, name)}});
  const std::string checkpoint = ns + "/" + name;
  const std::string record = name + "." + ns + kDnsZone;
  Status cleanup = external_.ArchiveCheckpoint(checkpoint);
  if (!cleanup.ok()) {
    cleanup = Status(cleanup.code(),
                     "failed to archive checkpoint " + checkpoint + ": " + cleanup.message());
  }
  if (cleanup.ok()) {
    cleanup = external_.DeregisterBackend(name);
    if (!cleanup.ok()) {
      cleanup =
          Status(cleanup.code(), "failed to deregister backend " + name + ": " + cleanup.message());
    }
  }
  if (cleanup.ok()) {
    cleanup = external_.DeleteDnsRecord(record);
    if (!cleanup.ok()) {
      cleanup = Status(cleanup.code(),
                       "failed to delete DNS record " + record + ": " + cleanup.message());
    }
  }
  Block(external_.TakeLatency());
  if (!cleanup.ok()) return Fail(cleanup);  // stays Terminating; retried with backoff

  if (options_.bugs.forget_finalizer_removal) {
    // The bug of 4.9 "忘了移除 finalizer": cleanup succeeded, the object can never go.
    ctx.Info("cleanup finished", {{"InferenceService", api::ObjectKey(ns, name)}});
    return Outcome::Ok();
  }
  Json without = isvc;
  controllerutil::RemoveFinalizer(without, kFinalizer);
  base::StatusOr<api::ObjectPtr> updated = client_.Update(std::move(without));
  if (!updated.ok()) return Fail(updated.status());
  ctx.Info("removed finalizer", {{"finalizer", kFinalizer}});
  return Outcome::Ok();
}

}  // namespace inference
