#include "core/world/workloads/deployment_controller.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <utility>

#include "core/api/pointer.h"
#include "core/sim/cause_scope.h"
#include "core/world/workloads/deployment_util.h"
#include "core/world/workloads/pod_util.h"
#include "core/world/workloads/replicaset_controller.h"

namespace world {
namespace {

using api::Json;

const char kController[] = "deployment-controller";

int64_t SpecReplicas(const Json& obj) { return IntAt(obj, "/spec/replicas", 1); }
int64_t StatusCount(const Json& obj, const char* field) {
  return IntAt(obj, std::string("/status/") + field, 0);
}
Json OrNull(int64_t v) { return v == 0 ? Json(nullptr) : Json(v); }

int64_t Revision(const Json& obj) {
  const auto annotations = api::Annotations(obj);
  auto it = annotations.find(kRevisionAnnotation);
  if (it == annotations.end()) return 0;
  char* end = nullptr;
  const long long v = std::strtoll(it->second.c_str(), &end, 10);
  return end != nullptr && *end == '\0' && v > 0 ? v : 0;
}

bool IsRecreate(const Json& d) {
  return api::GetString(d, "/spec/strategy/type") == "Recreate";
}

Fenceposts FencepostsOf(const Json& d) {
  const Json& surge = JsonAt(d, "/spec/strategy/rollingUpdate/maxSurge");
  const Json& unavailable = JsonAt(d, "/spec/strategy/rollingUpdate/maxUnavailable");
  return ResolveFenceposts(surge.is_null() ? Json("25%") : surge,
                           unavailable.is_null() ? Json("25%") : unavailable, SpecReplicas(d));
}

// MaxUnavailable mirrors deployment_util.go MaxUnavailable (0 for Recreate, at most replicas).
int64_t MaxUnavailable(const Json& d) {
  if (IsRecreate(d)) return 0;
  return std::min(FencepostsOf(d).max_unavailable, SpecReplicas(d));
}

std::string RsObject(const Json& rs) { return "ReplicaSet/" + api::ObjectKey(rs); }

}  // namespace

DeploymentController::DeploymentController(client::Client& client, sim::Scheduler& scheduler,
                                           Options options)
    : DeploymentController(client, scheduler, std::move(options), nullptr) {}

DeploymentController::DeploymentController(client::Client& client, SharedInformerFactory& informers,
                                           sim::Scheduler& scheduler, Options options)
    : DeploymentController(client, scheduler, std::move(options), &informers) {}

DeploymentController::DeploymentController(client::Client& client, sim::Scheduler& scheduler,
                                           Options options, SharedInformerFactory* shared)
    : client_(client),
      scheduler_(scheduler),
      options_(std::move(options)),
      own_informers_(shared != nullptr
                         ? nullptr
                         : std::make_unique<SharedInformerFactory>(
                               client, scheduler, options_.watcher, options_.traced_watches)),
      informers_(shared != nullptr ? *shared : *own_informers_),
      deployments_(informers_.InformerFor("Deployment")),
      replicasets_(informers_.InformerFor("ReplicaSet")),
      pods_(informers_.InformerFor("Pod")),
      queue_(scheduler, WorkerQueue::Options{kController, options_.sync_delay},
             [this](const std::string& key) { return Sync(key); }) {
  deployments_.AddEventHandler(OnChange([this](const api::ObjectPtr& o, const api::ObjectPtr& n) {
    queue_.Add(api::ObjectKey(n != nullptr ? *n : *o));
  }));
  replicasets_.AddEventHandler(
      OnChange([this](const api::ObjectPtr& o, const api::ObjectPtr& n) { OnReplicaSet(o, n); }));
  pods_.AddEventHandler(
      OnChange([this](const api::ObjectPtr& o, const api::ObjectPtr& n) { OnPod(o, n); }));
}

void DeploymentController::Start() {
  deployments_.Start();
  replicasets_.Start();
  pods_.Start();
}

void DeploymentController::OnReplicaSet(const api::ObjectPtr& old_obj,
                                        const api::ObjectPtr& new_obj) {
  EnqueueControllerOf(new_obj != nullptr ? new_obj : old_obj, "Deployment", queue_);
}

// mirrors deployment_controller.go deletePod: only a Recreate rollout waits on Pods going away.
void DeploymentController::OnPod(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
  if (new_obj != nullptr || old_obj == nullptr) return;
  auto ref = api::GetControllerOf(*old_obj);
  if (!ref.has_value() || ref->kind != "ReplicaSet") return;
  api::ObjectPtr rs =
      replicasets_.GetStore().GetByKey(api::ObjectKey(api::Namespace(*old_obj), ref->name));
  if (rs == nullptr) return;
  auto owner = api::GetControllerOf(*rs);
  if (!owner.has_value() || owner->kind != "Deployment") return;
  api::ObjectPtr d =
      deployments_.GetStore().GetByKey(api::ObjectKey(api::Namespace(*rs), owner->name));
  if (d != nullptr && IsRecreate(*d)) queue_.Add(api::ObjectKey(*d));
}

DeploymentController::Rollout DeploymentController::Classify(
    const api::ObjectPtr& deployment) const {
  Rollout r;
  r.deployment = deployment;
  std::vector<api::ObjectPtr> owned;
  for (const api::ObjectPtr& rs : ControlledBy(replicasets_, api::Uid(*deployment))) {
    if (api::Namespace(*rs) == api::Namespace(*deployment)) owned.push_back(rs);
  }
  // ReplicaSetsByCreationTimestamp (then name, for a total order)
  std::sort(owned.begin(), owned.end(), [](const api::ObjectPtr& a, const api::ObjectPtr& b) {
    if (api::CreationTimestamp(*a) != api::CreationTimestamp(*b)) {
      return api::CreationTimestamp(*a) < api::CreationTimestamp(*b);
    }
    return api::Name(*a) < api::Name(*b);
  });
  const Json& tmpl = JsonAt(*deployment, "/spec/template");
  for (const api::ObjectPtr& rs : owned) {
    if (r.new_rs == nullptr && EqualIgnoreHash(JsonAt(*rs, "/spec/template"), tmpl)) {
      r.new_rs = rs;
    } else {
      r.old_rss.push_back(rs);
    }
  }
  return r;
}

int64_t DeploymentController::MaxRevision(const std::vector<api::ObjectPtr>& rss) const {
  int64_t max = 0;
  for (const api::ObjectPtr& rs : rss) max = std::max(max, Revision(*rs));
  return max;
}

// mirrors sync.go getNewReplicaSet + SetNewReplicaSetAnnotations.
bool DeploymentController::EnsureNewReplicaSet(Rollout& r, int64_t replicas) {
  sim::Trace& trace = scheduler_.trace();
  const Json& d = *r.deployment;
  const std::string ns = api::Namespace(d);
  const int64_t revision = MaxRevision(r.old_rss) + 1;
  const Fenceposts f = FencepostsOf(d);
  if (r.new_rs == nullptr) {
    Json tmpl = JsonAt(d, "/spec/template");
    const Json& collisions = JsonAt(d, "/status/collisionCount");
    const std::string hash = ComputeHash(
        tmpl, collisions.is_number_integer() ? std::optional<int64_t>(collisions.get<int64_t>())
                                             : std::nullopt);
    api::SetLabel(tmpl, kPodTemplateHashLabel, hash);
    Json selector = JsonAt(d, "/spec/selector");
    if (!selector.is_object()) selector = Json::object();
    selector["matchLabels"][kPodTemplateHashLabel] = hash;
    Json annotations = Json::object();
    for (const auto& [k, v] : api::Annotations(d)) {
      // mirrors deployment_util.go skipCopyAnnotation
      if (k == "kubectl.kubernetes.io/last-applied-configuration" || k == kRevisionAnnotation ||
          k == "deployment.kubernetes.io/revision-history" || k == kDesiredReplicasAnnotation ||
          k == kMaxReplicasAnnotation) {
        continue;
      }
      annotations[k] = v;
    }
    annotations[kRevisionAnnotation] = std::to_string(revision);
    annotations[kDesiredReplicasAnnotation] = std::to_string(SpecReplicas(d));
    annotations[kMaxReplicasAnnotation] = std::to_string(SpecReplicas(d) + f.max_surge);
    Json rs = {{"apiVersion", "apps/v1"},
               {"kind", "ReplicaSet"},
               {"metadata",
                {{"name", api::Name(d) + "-" + hash},
                 {"namespace", ns},
                 {"labels", JsonAt(tmpl, "/metadata/labels")},
                 {"annotations", annotations},
                 {"ownerReferences", Json::array({NewControllerRef(d)})}}},
               {"spec",
                {{"replicas", replicas},
                 {"minReadySeconds", IntAt(d, "/spec/minReadySeconds", 0)},
                 {"selector", selector},
                 {"template", tmpl}}}};
    const sim::CauseScope cause(
        trace,
        EmitAction(trace, kController, "Deployment/" + api::ObjectKey(d), "create-replicaset",
                   "Scaled up replica set " + api::Name(d) + "-" + hash + " from 0 to " +
                       std::to_string(replicas)),
        sim::CauseScope::kIfKnown);
    auto created = client_.Create(rs);
    if (!created.ok()) return false;  // AlreadyExists: the cache is behind; the next sync finds it
    r.new_rs = created.value();
    r.created_new = true;
  } else if (Revision(*r.new_rs) < revision) {
    // An old template came back (a rollback): it becomes the newest revision.
    auto patched = client_.Patch(
        "ReplicaSet", ns, api::Name(*r.new_rs), client::PatchType::kJsonMerge,
        Json{{"metadata", {{"annotations", {{kRevisionAnnotation, std::to_string(revision)}}}}}});
    if (!patched.ok()) return false;
    r.new_rs = patched.value();
  }
  const std::string want = std::to_string(Revision(*r.new_rs));
  const std::map<std::string, std::string> deployment_annotations = api::Annotations(d);
  auto current = deployment_annotations.find(kRevisionAnnotation);
  if (current == deployment_annotations.end() || current->second != want) {
    auto patched =
        client_.Patch("Deployment", ns, api::Name(d), client::PatchType::kJsonMerge,
                      Json{{"metadata", {{"annotations", {{kRevisionAnnotation, want}}}}}});
    if (!patched.ok()) return false;
    r.deployment = patched.value();
  }
  return true;
}

// mirrors sync.go scaleReplicaSet (spec.replicas plus the desired/max annotations).
bool DeploymentController::Scale(Rollout& r, api::ObjectPtr& rs, int64_t replicas) {
  const Json& d = *r.deployment;
  const int64_t from = SpecReplicas(*rs);
  const std::string desired = std::to_string(SpecReplicas(d));
  const std::string max = std::to_string(SpecReplicas(d) + FencepostsOf(d).max_surge);
  const auto annotations = api::Annotations(*rs);
  auto has = [&](const std::string& k, const std::string& v) {
    auto it = annotations.find(k);
    return it != annotations.end() && it->second == v;
  };
  if (from == replicas && has(kDesiredReplicasAnnotation, desired) &&
      has(kMaxReplicasAnnotation, max))
    return true;
  sim::Trace& trace = scheduler_.trace();
  std::string detail = "replica set " + api::Name(*rs) + " from " + std::to_string(from) + " to " +
                       std::to_string(replicas);
  detail = (replicas > from   ? "Scaled up "
            : replicas < from ? "Scaled down "
                              : "Annotated ") +
           detail;
  const sim::CauseScope cause(
      trace,
      EmitAction(trace, kController, "Deployment/" + api::ObjectKey(d), "scale-replicaset", detail),
      sim::CauseScope::kIfKnown);
  // The resourceVersion makes the write conditional, as upstream's Update of the lister's copy
  // is: a sync that read a ReplicaSet the cache has not caught up on gets a Conflict and retries.
  auto patched = client_.Patch(
      "ReplicaSet", api::Namespace(*rs), api::Name(*rs), client::PatchType::kJsonMerge,
      Json{{"metadata",
            {{"resourceVersion", api::ResourceVersion(*rs)},
             {"annotations",
              {{kDesiredReplicasAnnotation, desired}, {kMaxReplicasAnnotation, max}}}}},
           {"spec", {{"replicas", replicas}}}});
  if (!patched.ok()) return false;
  rs = patched.value();
  return true;
}

// mirrors rolling.go rolloutRolling.
bool DeploymentController::RolloutRolling(Rollout& r, bool* changed) {
  const int64_t replicas = SpecReplicas(*r.deployment);
  const Fenceposts f = FencepostsOf(*r.deployment);
  auto total_spec = [&] {
    int64_t sum = r.new_rs ? SpecReplicas(*r.new_rs) : 0;
    for (const api::ObjectPtr& rs : r.old_rss) sum += SpecReplicas(*rs);
    return sum;
  };
  // deployment_util.go NewRSNewReplicas (RollingUpdate)
  auto new_rs_replicas = [&] {
    const int64_t current_new = r.new_rs ? SpecReplicas(*r.new_rs) : 0;
    const int64_t max_total = replicas + f.max_surge;
    const int64_t current = total_spec();
    if (current >= max_total) return current_new;
    return current_new +
           std::max<int64_t>(0, std::min(max_total - current, replicas - current_new));
  };
  if (!EnsureNewReplicaSet(r, r.new_rs ? 0 : new_rs_replicas())) return false;

  // reconcileNewReplicaSet
  const int64_t current_new = SpecReplicas(*r.new_rs);
  if (current_new != replicas) {
    const int64_t target = current_new > replicas ? replicas : new_rs_replicas();
    if (target != current_new) {
      if (!Scale(r, r.new_rs, target)) return false;
      *changed = true;
      return SyncStatus(r);
    }
  }

  // reconcileOldReplicaSets
  int64_t old_spec = 0;
  for (const api::ObjectPtr& rs : r.old_rss) old_spec += SpecReplicas(*rs);
  if (old_spec > 0) {
    const int64_t min_available = replicas - MaxUnavailable(*r.deployment);
    const int64_t new_unavailable =
        SpecReplicas(*r.new_rs) - StatusCount(*r.new_rs, "availableReplicas");
    const int64_t max_scaled_down = total_spec() - min_available - new_unavailable;
    int64_t scaled = 0;
    if (max_scaled_down > 0) {
      // cleanupUnhealthyReplicas: old Pods that are not available go first.
      for (api::ObjectPtr& rs : r.old_rss) {
        if (scaled >= max_scaled_down) break;
        const int64_t spec = SpecReplicas(*rs);
        const int64_t unhealthy = spec - StatusCount(*rs, "availableReplicas");
        if (spec == 0 || unhealthy <= 0) continue;
        const int64_t down = std::min(max_scaled_down - scaled, unhealthy);
        if (!Scale(r, rs, spec - down)) return false;
        scaled += down;
      }
      // scaleDownOldReplicaSetsForRollingUpdate: then available ones, above minAvailable.
      int64_t available = r.new_rs ? StatusCount(*r.new_rs, "availableReplicas") : 0;
      for (const api::ObjectPtr& rs : r.old_rss) available += StatusCount(*rs, "availableReplicas");
      if (available > min_available) {
        const int64_t total_down = available - min_available;
        int64_t done = 0;
        for (api::ObjectPtr& rs : r.old_rss) {
          if (done >= total_down) break;
          const int64_t spec = SpecReplicas(*rs);
          if (spec == 0) continue;
          const int64_t down = std::min(spec, total_down - done);
          if (!Scale(r, rs, spec - down)) return false;
          done += down;
          scaled += down;
        }
      }
    }
    if (scaled > 0) {
      *changed = true;
      return SyncStatus(r);
    }
  }
  if (!Cleanup(r)) return false;
  return SyncStatus(r);
}

// mirrors recreate.go oldPodsRunning.
bool DeploymentController::OldPodsRunning(const Rollout& r) const {
  std::set<std::string> old_uids;
  for (const api::ObjectPtr& rs : r.old_rss) {
    if (StatusCount(*rs, "replicas") > 0) return true;
    old_uids.insert(api::Uid(*rs));
  }
  for (const std::string& uid : old_uids) {
    for (const api::ObjectPtr& pod : ControlledBy(pods_, uid)) {
      if (!IsPodTerminal(*pod)) return true;
    }
  }
  return false;
}

// mirrors recreate.go rolloutRecreate.
bool DeploymentController::RolloutRecreate(Rollout& r, bool* changed) {
  bool scaled_down = false;
  for (api::ObjectPtr& rs : r.old_rss) {
    if (SpecReplicas(*rs) == 0) continue;
    if (!Scale(r, rs, 0)) return false;
    scaled_down = true;
  }
  if (scaled_down) {
    *changed = true;
    return SyncStatus(r);
  }
  if (OldPodsRunning(r)) return SyncStatus(r);  // wait: the Pods' deletion re-queues us
  const int64_t replicas = SpecReplicas(*r.deployment);
  if (!EnsureNewReplicaSet(r, replicas)) return false;
  if (SpecReplicas(*r.new_rs) != replicas) {
    if (!Scale(r, r.new_rs, replicas)) return false;
    *changed = true;
  }
  if (!Cleanup(r)) return false;
  return SyncStatus(r);
}

// mirrors sync.go cleanupDeployment: keep at most revisionHistoryLimit idle old ReplicaSets.
bool DeploymentController::Cleanup(const Rollout& r) {
  const int64_t limit = IntAt(*r.deployment, "/spec/revisionHistoryLimit", 10);
  std::vector<api::ObjectPtr> idle;
  for (const api::ObjectPtr& rs : r.old_rss) {
    if (SpecReplicas(*rs) != 0 || StatusCount(*rs, "replicas") != 0 || api::IsBeingDeleted(*rs) ||
        StatusCount(*rs, "observedGeneration") < api::Generation(*rs)) {
      continue;
    }
    idle.push_back(rs);
  }
  if (static_cast<int64_t>(idle.size()) <= limit) return true;
  std::stable_sort(idle.begin(), idle.end(), [](const api::ObjectPtr& a, const api::ObjectPtr& b) {
    return Revision(*a) < Revision(*b);
  });
  sim::Trace& trace = scheduler_.trace();
  const size_t n = idle.size() - static_cast<size_t>(limit < 0 ? 0 : limit);
  for (size_t i = 0; i < n; ++i) {
    const sim::CauseScope cause(
        trace,
        EmitAction(
            trace, kController, "Deployment/" + api::ObjectKey(*r.deployment), "delete-replicaset",
            "revisionHistoryLimit " + std::to_string(limit) + ": deleting " + RsObject(*idle[i])),
        sim::CauseScope::kIfKnown);
    auto deleted = client_.Delete("ReplicaSet", api::Namespace(*idle[i]), api::Name(*idle[i]));
    if (!deleted.ok() && !base::IsNotFound(deleted.status())) return false;
  }
  return true;
}

// mirrors sync.go calculateStatus and progress.go syncRolloutStatus.
bool DeploymentController::SyncStatus(const Rollout& r) {
  const Json& d = *r.deployment;
  std::vector<api::ObjectPtr> all = r.old_rss;
  if (r.new_rs) all.push_back(r.new_rs);
  int64_t available = 0, spec_total = 0, actual = 0, ready = 0;
  for (const api::ObjectPtr& rs : all) {
    available += StatusCount(*rs, "availableReplicas");
    spec_total += SpecReplicas(*rs);
    actual += StatusCount(*rs, "replicas");
    ready += StatusCount(*rs, "readyReplicas");
  }
  const int64_t updated = r.new_rs ? StatusCount(*r.new_rs, "replicas") : 0;
  const int64_t replicas = SpecReplicas(d);
  const base::SimTime now = scheduler_.clock().Now();

  const bool min_available = available >= replicas - MaxUnavailable(d);
  Json available_cond = {
      {"type", "Available"},
      {"status", min_available ? "True" : "False"},
      {"reason", min_available ? "MinimumReplicasAvailable" : "MinimumReplicasUnavailable"},
      {"message", min_available ? "Deployment has minimum availability."
                                : "Deployment does not have minimum availability."}};
  const Json& existing = JsonAt(d, "/status/conditions");
  Json merged = UpsertCondition(existing, available_cond, now, /*update_time=*/true);

  const Json* progressing = FindCondition(d, "Progressing");
  const bool already_complete =
      progressing != nullptr && actual == updated &&
      progressing->value("reason", Json("")) == Json("NewReplicaSetAvailable");
  if (!already_complete) {
    const std::string rs_name = r.new_rs ? api::Name(*r.new_rs) : "";
    const bool complete = updated == replicas && actual == replicas && available == replicas;
    const int64_t old_updated = StatusCount(d, "updatedReplicas");
    const bool progressed =
        updated > old_updated || (actual - updated) < (StatusCount(d, "replicas") - old_updated) ||
        ready > StatusCount(d, "readyReplicas") || available > StatusCount(d, "availableReplicas");
    Json cond;
    if (complete) {
      cond = {{"reason", "NewReplicaSetAvailable"},
              {"message", "ReplicaSet \"" + rs_name + "\" has successfully progressed."}};
    } else if (r.created_new) {
      cond = {{"reason", "NewReplicaSetCreated"},
              {"message", "Created new replica set \"" + rs_name + "\""}};
    } else if (progressed || progressing == nullptr) {
      cond = {{"reason", "ReplicaSetUpdated"},
              {"message", "ReplicaSet \"" + rs_name + "\" is progressing."}};
    }
    if (!cond.is_null()) {
      cond["type"] = "Progressing";
      cond["status"] = "True";
      merged = UpsertCondition(std::move(merged), cond, now, /*update_time=*/true);
    }
  }
  // SetDeploymentCondition appends: others first, then Available, then Progressing.
  Json conditions = Json::array();
  for (const char* pass : {"", "Available", "Progressing"}) {
    for (const Json& c : merged) {
      const Json type = c.is_object() ? c.value("type", Json("")) : Json("");
      const bool known = type == Json("Available") || type == Json("Progressing");
      if ((std::string(pass).empty() && !known) || type == Json(pass)) conditions.push_back(c);
    }
  }
  Json status = {{"observedGeneration", api::Generation(d)},
                 {"replicas", OrNull(actual)},
                 {"updatedReplicas", OrNull(updated)},
                 {"readyReplicas", OrNull(ready)},
                 {"availableReplicas", OrNull(available)},
                 {"unavailableReplicas", OrNull(std::max<int64_t>(0, spec_total - available))},
                 {"conditions", conditions}};
  bool changed = false;
  for (const auto& [field, value] : status.items()) {
    if (JsonAt(d, "/status/" + field) != value) changed = true;
  }
  if (!changed) return true;
  auto written = client_.PatchStatus("Deployment", api::Namespace(d), api::Name(d),
                                     client::PatchType::kJsonMerge, Json{{"status", status}});
  return written.ok() || base::IsNotFound(written.status());
}

// mirrors deployment_controller.go syncDeployment.
bool DeploymentController::Sync(const std::string& key) {
  api::ObjectPtr d = deployments_.GetStore().GetByKey(key);
  if (d == nullptr || api::IsBeingDeleted(*d)) return true;
  Rollout r = Classify(d);
  bool changed = false;
  if (JsonAt(*d, "/spec/paused") == Json(true)) return SyncStatus(r);
  return IsRecreate(*d) ? RolloutRecreate(r, &changed) : RolloutRolling(r, &changed);
}

}  // namespace world
