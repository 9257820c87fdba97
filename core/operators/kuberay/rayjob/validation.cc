#include "core/operators/kuberay/rayjob/validation.h"

#include <cctype>
#include <set>
#include <string>
#include <utility>

#include "core/operators/kuberay/common/utils.h"
#include "core/operators/kuberay/rayjob/submitter.h"

namespace kuberay::rayjob {
namespace {

using api::Json;
using base::Status;

Status Invalid(const std::string& msg) { return Status(base::StatusCode::kInvalid, msg); }

// IsDNS1035Label: lower-case alphanumerics and '-', starting with a letter, ending alphanumeric.
bool IsDNS1035Label(const std::string& s) {
  if (s.empty() || s.size() > 63 || !std::islower(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
          c == '-'))
      return false;
  }
  return s.back() != '-';
}

std::string ValidationMode(const Json& rayjob) {
  const std::string m = utils::StringAt(rayjob, "/spec/submissionMode");
  return m.empty() ? "K8sJobMode" : m;
}

bool ValidationHasClusterSelector(const Json& rayjob) {
  const Json* s = utils::At(rayjob, "/spec/clusterSelector");
  return s != nullptr && s->is_object() && !s->empty();
}

Status ValidateDeletionStrategy(const Json& rayjob, bool gate) {
  const Json* ds = utils::At(rayjob, "/spec/deletionStrategy");
  if (ds == nullptr || ds->is_null()) return Status::OK();
  if (!gate) {
    return Invalid("RayJobDeletionPolicy feature gate must be enabled to use DeletionStrategy");
  }
  const bool legacy = ds->contains("onSuccess") || ds->contains("onFailure");
  const Json* rules = ds->contains("deletionRules") ? &(*ds)["deletionRules"] : nullptr;
  const bool has_rules = rules != nullptr && rules->is_array() && !rules->empty();
  if (legacy && has_rules) {
    return Invalid("legacy policies (onSuccess/onFailure) and deletionRules cannot be used together");
  }
  if (legacy) {
    if (!ds->contains("onSuccess") || !ds->contains("onFailure")) {
      return Invalid("both DeletionStrategy.OnSuccess and DeletionStrategy.OnFailure must be set when using the legacy deletion policy fields of DeletionStrategy");
    }
    return Status::OK();
  }
  if (!has_rules) {
    return Invalid("DeletionStrategy requires either BOTH onSuccess and onFailure, OR the deletionRules field (cannot be empty)");
  }
  if (utils::BoolAt(rayjob, "/spec/shutdownAfterJobFinishes")) {
    return Invalid("The RayJob spec is invalid: spec.shutdownAfterJobFinishes and spec.deletionStrategy.deletionRules are mutually exclusive");
  }
  std::set<std::pair<std::string, std::string>> seen;
  std::map<std::string, std::map<std::string, int64_t>> ttl_by_condition;
  for (const Json& rule : *rules) {
    if (!rule.is_object() || !rule.contains("condition") || !rule["condition"].is_object()) {
      return Invalid("deletionRules entries need a policy and a condition");
    }
    const std::string policy = rule.value("policy", Json("")).is_string()
                                   ? rule.value("policy", Json("")).get<std::string>()
                                   : "";
    const Json& cond = rule["condition"];
    const bool by_job = cond.contains("jobStatus");
    const bool by_deploy = cond.contains("jobDeploymentStatus");
    if (by_job == by_deploy) {
      return Invalid("deletion rule condition must set exactly one of jobStatus or jobDeploymentStatus");
    }
    const std::string key = by_job ? "jobStatus=" + cond["jobStatus"].dump()
                                   : "jobDeploymentStatus=" + cond["jobDeploymentStatus"].dump();
    if (!seen.insert({key, policy}).second) {
      return Invalid("duplicate deletion rule for condition " + key + " and policy " + policy);
    }
    const int64_t ttl = cond.value("ttlSeconds", Json(0)).is_number_integer()
                            ? cond.value("ttlSeconds", Json(0)).get<int64_t>()
                            : 0;
    if (ttl < 0) return Invalid("deletion rule ttlSeconds must be non-negative");
    if (ValidationHasClusterSelector(rayjob) && (policy == "DeleteCluster" || policy == "DeleteWorkers")) {
      return Invalid("The RayJob spec is invalid: DeletionPolicyType '" + policy +
                     "' is not supported when ClusterSelector is set");
    }
    if (policy == "DeleteWorkers" &&
        utils::BoolAt(rayjob, "/spec/rayClusterSpec/enableInTreeAutoscaling")) {
      return Invalid("DeletionPolicyType 'DeleteWorkers' is not supported when autoscaling is enabled");
    }
    ttl_by_condition[key][policy] = ttl;
  }
  // TTL order per condition: DeleteWorkers <= DeleteCluster <= DeleteSelf.
  for (const auto& [key, ttls] : ttl_by_condition) {
    const std::vector<std::string> order = {"DeleteWorkers", "DeleteCluster", "DeleteSelf"};
    int64_t last = -1;
    for (const std::string& p : order) {
      auto it = ttls.find(p);
      if (it == ttls.end()) continue;
      if (it->second < last) {
        return Invalid("deletion rules for " + key +
                       " must have TTLs in the order DeleteWorkers <= DeleteCluster <= DeleteSelf");
      }
      last = it->second;
    }
  }
  return Status::OK();
}

// ValidateMetadata mirrors ValidateRayJobMetadata.
Status ValidateMetadata(const Json& rayjob) {
  const std::string name = api::Name(rayjob);
  if (name.size() > 47) {
    return Invalid("RayJob name should be no more than 47 characters");
  }
  if (!IsDNS1035Label(name)) {
    return Invalid("RayJob name should be a valid DNS1035 label");
  }
  return Status::OK();
}

// ValidateSpec mirrors ValidateRayJobSpec.
Status ValidateSpec(const Json& rayjob, bool ray_job_deletion_policy) {
  const Json& spec = rayjob.contains("spec") ? rayjob["spec"] : Json::object();
  const bool shutdown = utils::BoolAt(rayjob, "/spec/shutdownAfterJobFinishes");
  const std::string mode = ValidationMode(rayjob);
  const bool selector = ValidationHasClusterSelector(rayjob);
  const int64_t backoff = utils::IntAt(rayjob, "/spec/backoffLimit").value_or(0);
  if (mode != "K8sJobMode" && mode != "HTTPMode" && mode != "InteractiveMode" &&
      mode != "SidecarMode") {
    return Invalid("The RayJob spec is invalid: unknown submissionMode " + mode);
  }
  if (utils::BoolAt(rayjob, "/spec/suspend") && !shutdown) {
    return Invalid("The RayJob spec is invalid: a RayJob with shutdownAfterJobFinishes set to false is not allowed to be suspended.");
  }
  const int64_t ttl = utils::IntAt(rayjob, "/spec/ttlSecondsAfterFinished").value_or(0);
  if (ttl < 0) return Invalid("The RayJob spec is invalid: TTLSecondsAfterFinished must be a non-negative integer");
  if (!shutdown && ttl > 0) {
    return Invalid("The RayJob spec is invalid: a RayJob with shutdownAfterJobFinishes set to false cannot have TTLSecondsAfterFinished");
  }
  const bool has_cluster_spec = spec.contains("rayClusterSpec") && spec["rayClusterSpec"].is_object();
  if (selector && has_cluster_spec) {
    return Invalid("The RayJob spec is invalid: only one of RayClusterSpec or ClusterSelector can be set");
  }
  if (!selector && !has_cluster_spec) {
    return Invalid("The RayJob spec is invalid: one of RayClusterSpec or ClusterSelector must be set");
  }
  if (selector) {
    if (utils::StringAt(rayjob, "/spec/clusterSelector/ray.io~1cluster").empty()) {
      return Invalid("The RayJob spec is invalid: ClusterSelector must contain the key ray.io/cluster");
    }
    if (utils::BoolAt(rayjob, "/spec/suspend")) {
      return Invalid("The RayJob spec is invalid: the ClusterSelector mode doesn't support the suspend operation");
    }
    if (mode == "SidecarMode") {
      return Invalid("The RayJob spec is invalid: ClusterSelector is not supported in SidecarMode");
    }
    if (backoff > 0) {
      return Invalid("The RayJob spec is invalid: BackoffLimit is incompatible with ClusterSelector");
    }
  }
  if (mode == "InteractiveMode" && backoff > 0) {
    return Invalid("The RayJob spec is invalid: BackoffLimit is incompatible with InteractiveMode");
  }
  if (mode == "SidecarMode") {
    if (spec.contains("submitterPodTemplate")) {
      return Invalid("The RayJob spec is invalid: SubmitterPodTemplate is not supported in SidecarMode");
    }
    if (spec.contains("submitterConfig")) {
      return Invalid("The RayJob spec is invalid: SubmitterConfig is not supported in SidecarMode");
    }
    const std::string rp =
        utils::StringAt(rayjob, "/spec/rayClusterSpec/headGroupSpec/template/spec/restartPolicy");
    if (!rp.empty() && rp != "Never") {
      return Invalid("The RayJob spec is invalid: the head Pod's restartPolicy must be Never or unset in SidecarMode");
    }
  }
  for (const char* field : {"/spec/activeDeadlineSeconds", "/spec/preRunningDeadlineSeconds"}) {
    std::optional<int64_t> v = utils::IntAt(rayjob, field);
    if (v.has_value() && *v <= 0) {
      return Invalid(std::string("The RayJob spec is invalid: ") + (field + 6) +
                     " must be a positive integer");
    }
  }
  if (backoff < 0) return Invalid("The RayJob spec is invalid: backoffLimit must be a positive integer");
  if (!utils::StringAt(rayjob, "/spec/runtimeEnvYAML").empty()) {
    base::StatusOr<std::string> env = GetRuntimeEnvJson(rayjob);
    if (!env.ok()) {
      return Invalid("The RayJob spec is invalid: failed to unmarshal RuntimeEnvYAML: " +
                     env.status().message());
    }
  }
  if (has_cluster_spec) {
    const Json* head = utils::At(rayjob, "/spec/rayClusterSpec/headGroupSpec/template/spec/containers");
    if (head == nullptr || !head->is_array() || head->empty()) {
      return Invalid("The RayJob spec is invalid: headGroupSpec should have at least one container");
    }
  }
  return ValidateDeletionStrategy(rayjob, ray_job_deletion_policy);
}

// ValidateStatus mirrors ValidateRayJobStatus.
Status ValidateStatus(const Json& rayjob) {
  const std::string mode = ValidationMode(rayjob);
  if (utils::StringAt(rayjob, "/status/jobDeploymentStatus") == "Waiting" &&
      mode != "InteractiveMode") {
    return Invalid("The RayJob status is invalid: JobDeploymentStatus cannot be `Waiting` when SubmissionMode is not InteractiveMode");
  }
  return Status::OK();
}

}  // namespace

// mirrors utils/validation.go ValidateRayJobSpec (RayCronJob checks its jobTemplate with it)
Status ValidateRayJobSpec(const Json& rayjob, bool ray_job_deletion_policy) {
  return ValidateSpec(rayjob, ray_job_deletion_policy);
}

// mirrors ray-operator/controllers/ray/rayjob_controller.go validateRayJob: the rules run in
// order and the first failure names the event reason.
Status ValidateRayJob(const Json& rayjob, bool ray_job_deletion_policy, std::string* event_reason) {
  const std::pair<Status, const char*> rules[] = {
      {ValidateMetadata(rayjob), "InvalidRayJobMetadata"},
      {ValidateSpec(rayjob, ray_job_deletion_policy), "InvalidRayJobSpec"},
      {ValidateStatus(rayjob), "InvalidRayJobStatus"},
  };
  for (const auto& [status, reason] : rules) {
    if (status.ok()) continue;
    if (event_reason != nullptr) *event_reason = reason;
    return status;
  }
  return Status::OK();
}

}  // namespace kuberay::rayjob
