#include "core/operators/kuberay/raycluster/validation.h"

#include <cctype>
#include <string>

#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/utils.h"

namespace kuberay {
namespace {

using api::Json;

base::Status Invalid(const std::string& message) {
  return base::Status(base::StatusCode::kInvalid, message);
}

bool IsDns1035Label(const std::string& s) {
  if (s.empty() || s.size() > 63 || !std::islower(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-')) {
      return false;
    }
  }
  return s.back() != '-';
}

bool ContainersEmpty(const Json& group) {
  const Json* c = At(group, "/template/spec/containers");
  return c == nullptr || !c->is_array() || c->empty();
}

bool ConditionTrue(const Json& cluster, const std::string& type) {
  const Json* conditions = At(cluster, "/status/conditions");
  if (conditions == nullptr || !conditions->is_array()) return false;
  for (const Json& c : *conditions) {
    if (c.is_object() && c.value("type", Json()) == type) return c.value("status", Json()) == "True";
  }
  return false;
}

bool LabelValueOk(const std::string& v) {
  if (v.size() > 63) return false;
  if (v.empty()) return true;
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (!alnum(v.front()) || !alnum(v.back())) return false;
  for (char c : v) {
    if (!alnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

// mirrors validation.go validateRayGroupResources and validateRayGroupLabels
base::Status ValidateGroupParams(const std::string& group_name, const Json& group) {
  const Json* params = At(group, "/rayStartParams");
  auto has = [&](const char* key) {
    return params != nullptr && params->is_object() && params->contains(key) &&
           (*params)[key].is_string() && !(*params)[key].get<std::string>().empty();
  };
  const Json* resources = At(group, "/resources");
  if ((has("num-cpus") || has("num-gpus") || has("memory") || has("resources")) &&
      resources != nullptr && resources->is_object() && !resources->empty()) {
    return Invalid("resource fields should not be set in both rayStartParams and Resources for " +
                   group_name + " group; please use only one");
  }
  if (params != nullptr && params->is_object() && params->contains("labels")) {
    return Invalid("rayStartParams['labels'] is not supported for " + group_name +
                   " group; please use the top-level Labels field instead");
  }
  const Json* labels = At(group, "/labels");
  if (labels != nullptr && labels->is_object()) {
    for (auto it = labels->begin(); it != labels->end(); ++it) {
      const std::string val = it->is_string() ? it->get<std::string>() : std::string();
      const std::string key = it.key();
      const std::string name = key.substr(key.find('/') == std::string::npos ? 0 : key.find('/') + 1);
      if (name.empty() || !LabelValueOk(name)) {
        return Invalid("invalid label key for " + group_name + " group: '" + key + "'");
      }
      if (!LabelValueOk(val)) {
        return Invalid("invalid label value for key '" + key + "' in " + group_name + " group: '" + val + "'");
      }
    }
  }
  return base::Status::OK();
}

bool AutoscalerV2Env(const Json& spec, std::string* value) {
  const Json* env = At(spec, "/headGroupSpec/template/spec/containers/0/env");
  if (env == nullptr || !env->is_array()) return false;
  for (const Json& e : *env) {
    if (e.is_object() && e.value("name", Json()) == "RAY_enable_autoscaler_v2") {
      *value = e.value("value", std::string());
      return true;
    }
  }
  return false;
}

}  // namespace

// mirrors validation.go ValidateRayClusterMetadata
base::Status ValidateRayClusterMetadata(const Json& cluster) {
  const std::string name = api::Name(cluster);
  if (name.size() > kMaxRayClusterNameLength) {
    return Invalid("RayCluster name should be no more than 53 characters");
  }
  if (!IsDns1035Label(name)) {
    return Invalid(
        "RayCluster name should be a valid DNS1035 label: [a DNS-1035 label must consist of lower "
        "case alphanumeric characters or '-', start with an alphabetic character, and end with an "
        "alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
        "'[a-z]([-a-z0-9]*[a-z0-9])?')]");
  }
  return base::Status::OK();
}

// mirrors validation.go ValidateRayClusterSpec (the checks listed in the header)
base::Status ValidateRayClusterSpec(const Json& cluster, const FeatureGates& features) {
  const Json& spec = MemberOr(cluster, "spec", EmptyObject());
  const Json& head = MemberOr(spec, "headGroupSpec", EmptyObject());
  if (ContainersEmpty(head)) return Invalid("headGroupSpec should have at least one container");
  if (base::Status s = ValidateGroupParams("Head", head); !s.ok()) return s;
  const bool autoscaling = IsAutoscalingEnabled(spec);
  const Json& listed = MemberOr(spec, "workerGroupSpecs", EmptyArray());
  const Json& groups = listed.is_array() ? listed : EmptyArray();
  // Admission's schema normally guarantees these shapes; the checks below read them freely.
  for (const Json& g : groups) {
    if (!g.is_object() || (g.contains("groupName") && !g["groupName"].is_string())) {
      return Invalid("workerGroupSpecs must be objects with a string groupName");
    }
  }
  for (const Json& g : groups) {
    const std::string name = g.value("groupName", std::string());
    if (ContainersEmpty(g)) return Invalid("workerGroupSpec should have at least one container");
    const Json* min = At(g, "/minReplicas");
    const Json* max = At(g, "/maxReplicas");
    const bool has_min = min != nullptr && min->is_number_integer();
    const bool has_max = max != nullptr && max->is_number_integer();
    if (!autoscaling && (!has_min || !has_max)) {
      return Invalid("worker group " + name +
                     " must set both minReplicas and maxReplicas when autoscaling is disabled");
    }
    if (has_min && min->get<int64_t>() < 0) {
      return Invalid("worker group " + name + " has negative minReplicas " + min->dump());
    }
    if (has_max && max->get<int64_t>() < 0) {
      return Invalid("worker group " + name + " has negative maxReplicas " + max->dump());
    }
    if (has_min && has_max && min->get<int64_t>() > max->get<int64_t>()) {
      return Invalid("worker group " + name + " has minReplicas " + min->dump() +
                     " greater than maxReplicas " + max->dump());
    }
    if (base::Status s = ValidateGroupParams(name, g); !s.ok()) return s;
  }
  for (const Json& g : groups) {
    if (BoolAt(g, "/suspend", false) && !features.Enabled(kRayJobDeletionPolicy)) {
      return Invalid("worker group " + g.value("groupName", std::string()) +
                     " can be suspended only when the RayJobDeletionPolicy feature gate is enabled");
    }
  }
  std::string v2;
  const bool has_v2_env = AutoscalerV2Env(spec, &v2);
  if (!autoscaling && has_v2_env && (v2 == "true" || v2 == "1")) {
    return Invalid("environment variable RAY_enable_autoscaler_v2 cannot be set to '" + v2 +
                   "' when enableInTreeAutoscaling is false. Please set enableInTreeAutoscaling: "
                   "true to use autoscaler v2");
  }
  if (autoscaling) {
    for (const Json& g : groups) {
      if (BoolAt(g, "/suspend", false)) {
        return Invalid("worker group " + g.value("groupName", std::string()) +
                       " cannot be suspended with Autoscaler enabled");
      }
    }
    if (At(spec, "/autoscalerOptions/version") != nullptr && has_v2_env) {
      return Invalid("both .spec.autoscalerOptions.version and head Pod env var "
                     "RAY_enable_autoscaler_v2 are set, please only use the former");
    }
    if (IsAutoscalingV2Enabled(spec)) {
      const std::string policy = StringAt(head, "/template/spec/restartPolicy");
      if (!policy.empty() && policy != "Never") {
        return Invalid("restartPolicy for head Pod should be Never or unset when using autoscaler V2");
      }
      for (const Json& g : groups) {
        const std::string p = StringAt(g, "/template/spec/restartPolicy");
        if (!p.empty() && p != "Never") {
          return Invalid("restartPolicy for worker group " + g.value("groupName", std::string()) +
                         " should be Never or unset when using autoscaler V2");
        }
      }
    }
  }
  if (At(spec, "/networkPolicy") != nullptr && !features.Enabled(kRayClusterNetworkPolicy)) {
    // The API server defaults networkPolicy.mode only when the object is present.
    return Invalid("spec.networkPolicy requires the RayClusterNetworkPolicy feature gate to be enabled");
  }
  if (At(spec, "/tlsOptions") != nullptr && !features.Enabled(kRayClusterMTLS)) {
    return Invalid("spec.tlsOptions requires the RayClusterMTLS feature gate to be enabled");
  }
  return base::Status::OK();
}

// mirrors validation.go ValidateRayClusterUpgradeOptions
base::Status ValidateRayClusterUpgradeOptions(const Json& cluster) {
  const Json* type = At(cluster, "/spec/upgradeStrategy/type");
  if (type == nullptr || !type->is_string()) return base::Status::OK();
  const std::string t = type->get<std::string>();
  if (t != "Recreate" && t != "None") {
    return Invalid("The RayCluster spec is invalid: Spec.UpgradeStrategy.Type value " + t +
                   " is invalid, valid options are Recreate or None");
  }
  const auto labels = api::Labels(cluster);
  auto it = labels.find(kRayOriginatedFromCRDLabelKey);
  if (it != labels.end() && (it->second == "RayJob" || it->second == "RayService")) {
    return Invalid("upgradeStrategy cannot be set when RayCluster is created by " + it->second);
  }
  return base::Status::OK();
}

// mirrors validation.go ValidateRayClusterStatus
base::Status ValidateRayClusterStatus(const Json& cluster) {
  if (ConditionTrue(cluster, kRayClusterSuspending) && ConditionTrue(cluster, kRayClusterSuspended)) {
    return Invalid(
        "invalid RayCluster State: rayv1.RayClusterSuspending and rayv1.RayClusterSuspended "
        "conditions should not be both true");
  }
  return base::Status::OK();
}

}  // namespace kuberay
