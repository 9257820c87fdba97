#include "core/operators/kuberay/rayjob/deletion.h"

#include <optional>
#include <string>
#include <vector>

#include "core/operators/kuberay/common/civil_time.h"
#include "core/operators/kuberay/common/utils.h"

namespace kuberay::rayjob {
namespace {

using api::Json;
using base::Status;
using reconcile::Outcome;

Outcome RequeueAfter(base::Duration d) {
  reconcile::Result r;
  r.requeue_after = d;
  return Outcome::Ok(r);
}

base::SimTime EndTime(const DeletionContext& d) {
  return utils::ParseRfc3339(utils::StringAt(d.rayjob, "/status/endTime")).value_or(d.now);
}

client::DeleteOptions Background() {
  client::DeleteOptions o;
  o.propagation = apiserver::PropagationPolicy::kBackground;
  return o;
}

api::ObjectPtr Cluster(const DeletionContext& d) {
  const std::string name = utils::StringAt(d.rayjob, "/status/rayClusterName");
  if (name.empty()) return nullptr;
  base::StatusOr<api::ObjectPtr> rc = d.client.Get("RayCluster", api::Namespace(d.rayjob), name);
  return rc.ok() ? *rc : nullptr;
}

// Event records an event about the RayJob when the reconciler has a recorder.
void Event(const DeletionContext& d, const std::string& type, const std::string& reason,
           const std::string& message) {
  if (d.recorder != nullptr) d.recorder->Eventf(d.rayjob, type, reason, message, d.now);
}

// DeleteCluster mirrors deleteClusterResources: a RayCluster already being deleted is left alone.
Status DeleteCluster(const DeletionContext& d, const Json& rc) {
  if (api::IsBeingDeleted(rc)) return Status::OK();
  const std::string ns = api::Namespace(rc);
  base::StatusOr<api::ObjectPtr> r = d.client.Delete("RayCluster", ns, api::Name(rc), Background());
  if (!r.ok() && !base::IsNotFound(r.status())) {
    Event(d, kEventTypeWarning, "FailedToDeleteRayCluster",
          "Failed to delete cluster " + ns + "/" + api::Name(rc) + ": " + r.status().message());
    return r.status();
  }
  d.ctx.Info("The associated RayCluster for RayJob is deleted", {{"RayCluster", api::Name(rc)}});
  Event(d, kEventTypeNormal, "DeletedRayCluster", "Deleted cluster " + ns + "/" + api::Name(rc));
  return Status::OK();
}

int Impact(const std::string& policy) {
  if (policy == "DeleteSelf") return 3;
  if (policy == "DeleteCluster") return 2;
  if (policy == "DeleteWorkers") return 1;
  return 0;
}

bool AllWorkersSuspended(const Json& rc) {
  const Json* groups = utils::At(rc, "/spec/workerGroupSpecs");
  if (groups == nullptr || !groups->is_array()) return true;
  for (const Json& g : *groups) {
    if (!(g.is_object() && g.value("suspend", Json(false)) == Json(true))) return false;
  }
  return true;
}

// IsDone reports whether policy's effect is already in place.
bool IsDone(const DeletionContext& d, const std::string& policy) {
  if (policy == "DeleteNone") return true;
  if (policy == "DeleteSelf") return false;
  api::ObjectPtr rc = Cluster(d);
  if (rc == nullptr || api::IsBeingDeleted(*rc)) return true;
  return policy == "DeleteWorkers" && AllWorkersSuspended(*rc);
}

// ExecuteDeletionPolicy mirrors executeDeletionPolicy.
Status ExecuteDeletionPolicy(const DeletionContext& d, const std::string& policy) {
  const std::string ns = api::Namespace(d.rayjob);
  d.ctx.Info("Executing deletion policy", {{"policy", policy}});
  if (policy == "DeleteSelf") {
    base::StatusOr<api::ObjectPtr> r = d.client.Delete("RayJob", ns, api::Name(d.rayjob), Background());
    return r.ok() ? Status::OK() : base::IgnoreNotFound(r.status());
  }
  api::ObjectPtr rc = Cluster(d);
  if (rc == nullptr) return Status::OK();
  if (policy == "DeleteCluster") return DeleteCluster(d, *rc);
  if (policy == "DeleteWorkers") {
    Json updated = *rc;
    Json::json_pointer groups("/spec/workerGroupSpecs");
    if (!updated.contains(groups) || !updated.at(groups).is_array()) return Status::OK();
    for (Json& g : updated.at(groups)) {
      if (g.is_object()) g["suspend"] = true;
    }
    base::StatusOr<api::ObjectPtr> r = d.client.Update(updated);
    if (!r.ok()) {
      Event(d, kEventTypeWarning, "FailedToUpdateRayCluster",
            "Failed to suspend worker groups in cluster " + ns + "/" + api::Name(*rc) + ": " +
                r.status().message());
      return r.status();
    }
    Event(d, kEventTypeNormal, "UpdatedRayCluster",
          "Set the `suspend` field to true for all worker groups in cluster " + ns + "/" +
              api::Name(*rc));
    return Status::OK();
  }
  return Status::OK();
}

struct Rule {
  std::string policy;
  base::SimTime fire_at = 0;
};

Outcome RunRules(const DeletionContext& d, const std::vector<Rule>& rules) {
  const Rule* chosen = nullptr;
  std::optional<base::SimTime> next;
  for (const Rule& r : rules) {
    if (IsDone(d, r.policy)) continue;
    if (r.fire_at <= d.now) {
      if (chosen == nullptr || Impact(r.policy) > Impact(chosen->policy)) chosen = &r;
    } else if (!next.has_value() || r.fire_at < *next) {
      next = r.fire_at;
    }
  }
  if (chosen != nullptr) {
    Status s = ExecuteDeletionPolicy(d, chosen->policy);
    if (!s.ok()) return Outcome::Error(s);
  }
  if (next.has_value()) return RequeueAfter(*next - d.now);
  return Outcome::Ok();
}

}  // namespace

Outcome HandleShutdownAfterJobFinishes(const DeletionContext& d) {
  const int64_t ttl = utils::IntAt(d.rayjob, "/spec/ttlSecondsAfterFinished").value_or(0);
  const base::SimTime shutdown_at = EndTime(d) + ttl * base::kSecond;
  if (shutdown_at > d.now) {
    d.ctx.Info("RayJob is deployed and will be deleted after the TTL",
               {{"ttlSecondsAfterFinished", std::to_string(ttl)}});
    return RequeueAfter(shutdown_at - d.now + 2 * base::kSecond);
  }
  const std::string ns = api::Namespace(d.rayjob);
  if (d.delete_rayjob_cr_after_job_finishes) {
    base::StatusOr<api::ObjectPtr> r = d.client.Delete("RayJob", ns, api::Name(d.rayjob), Background());
    if (!r.ok() && !base::IsNotFound(r.status())) return Outcome::Error(r.status());
    d.ctx.Info("RayJob is deleted");
    return Outcome::Ok();
  }
  api::ObjectPtr rc = Cluster(d);
  if (rc != nullptr) {
    Status s = DeleteCluster(d, *rc);
    if (!s.ok()) return Outcome::Error(s);
  }
  return Outcome::Ok();
}

Outcome HandleDeletionStrategy(const DeletionContext& d) {
  const Json& strategy = d.rayjob["spec"]["deletionStrategy"];
  const std::string job_status = utils::StringAt(d.rayjob, "/status/jobStatus");
  const std::string deploy_status = utils::StringAt(d.rayjob, "/status/jobDeploymentStatus");
  const base::SimTime end = EndTime(d);
  std::vector<Rule> rules;
  if (strategy.contains("deletionRules") && strategy["deletionRules"].is_array()) {
    for (const Json& rule : strategy["deletionRules"]) {
      if (!rule.is_object() || !rule.contains("condition")) continue;
      const Json& cond = rule["condition"];
      const bool matches =
          (cond.contains("jobStatus") && cond["jobStatus"] == job_status) ||
          (cond.contains("jobDeploymentStatus") && cond["jobDeploymentStatus"] == deploy_status);
      if (!matches) continue;
      const int64_t ttl = cond.value("ttlSeconds", Json(0)).is_number_integer()
                              ? cond["ttlSeconds"].get<int64_t>()
                              : 0;
      rules.push_back(Rule{rule.value("policy", Json("DeleteNone")).is_string()
                               ? rule["policy"].get<std::string>()
                               : "DeleteNone",
                           end + ttl * base::kSecond});
    }
    return RunRules(d, rules);
  }
  // Legacy: onSuccess for SUCCEEDED, onFailure for a Failed deployment, after the RayJob's TTL.
  const int64_t ttl = utils::IntAt(d.rayjob, "/spec/ttlSecondsAfterFinished").value_or(0);
  const char* which = job_status == "SUCCEEDED" ? "/spec/deletionStrategy/onSuccess/policy"
                      : deploy_status == "Failed" ? "/spec/deletionStrategy/onFailure/policy"
                                                   : nullptr;
  if (which == nullptr) return Outcome::Ok();
  const std::string policy = utils::StringAt(d.rayjob, which);
  rules.push_back(Rule{policy.empty() ? "DeleteNone" : policy, end + ttl * base::kSecond});
  return RunRules(d, rules);
}

}  // namespace kuberay::rayjob
