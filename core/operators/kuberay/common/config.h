#pragma once
// OperatorConfig: what one KubeRay operator process was started with that its reconcilers read —
// the feature gates and the environment switches (`ENABLE_*`, requeue seconds, …).
// Mirrors: ray-operator/apis/config/v1alpha1 Configuration (the parts the controllers use) plus
// the os.Getenv reads scattered through controllers/ray/utils and common.
// Single-threaded; a value copied into each reconciler when the process starts.

#include <map>
#include <string>

#include "core/operators/kuberay/common/features.h"

namespace kuberay {

struct OperatorConfig {
  FeatureGates features;
  // env is the operator container's environment ("ENABLE_RANDOM_POD_DELETE" → "true").
  std::map<std::string, std::string> env;

  // Env returns the variable or "" when unset.
  std::string Env(const std::string& name) const {
    auto it = env.find(name);
    return it == env.end() ? std::string() : it->second;
  }
  // EnvIs compares case-insensitively, as the operator's strings.ToLower(os.Getenv(...)) checks.
  bool EnvIs(const std::string& name, const std::string& lower_value) const {
    std::string v = Env(name);
    for (char& c : v) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return v == lower_value;
  }
};

}  // namespace kuberay
