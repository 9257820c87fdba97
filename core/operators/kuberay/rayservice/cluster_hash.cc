#include "core/operators/kuberay/rayservice/cluster_hash.h"

#include <cstdint>

namespace kuberay::rayservice {
namespace {

using api::Json;

void BlankTemplate(Json& tmpl) {
  if (!tmpl.is_object() || !tmpl.contains("spec") || !tmpl["spec"].is_object()) return;
  tmpl["spec"].erase("tolerations");
  tmpl["spec"].erase("schedulingGates");
}

std::string Base32Hex(uint64_t v) {
  static const char kDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
  std::string out;
  for (int i = 0; i < 13; ++i) {
    out += kDigits[(v >> 59) & 31];
    v <<= 5;
  }
  return out;
}

}  // namespace

std::string GenerateHashWithoutReplicasAndWorkersToDelete(const Json& ray_cluster_spec) {
  Json spec = ray_cluster_spec.is_object() ? ray_cluster_spec : Json::object();
  spec.erase("upgradeStrategy");
  spec.erase("suspend");
  if (spec.contains("headGroupSpec") && spec["headGroupSpec"].is_object() &&
      spec["headGroupSpec"].contains("template")) {
    BlankTemplate(spec["headGroupSpec"]["template"]);
  }
  if (spec.contains("workerGroupSpecs") && spec["workerGroupSpecs"].is_array()) {
    for (Json& g : spec["workerGroupSpecs"]) {
      if (!g.is_object()) continue;
      g.erase("replicas");
      g.erase("minReplicas");
      g.erase("maxReplicas");
      if (g.contains("scaleStrategy") && g["scaleStrategy"].is_object()) {
        g["scaleStrategy"].erase("workersToDelete");
        // Go's typed struct hashes an empty scaleStrategy like an absent one.
        if (g["scaleStrategy"].empty()) g.erase("scaleStrategy");
      }
      if (g.contains("template")) BlankTemplate(g["template"]);
    }
  }
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : spec.dump()) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return Base32Hex(h);
}

int64_t NumWorkerGroups(const Json& ray_cluster_spec) {
  if (!ray_cluster_spec.is_object() || !ray_cluster_spec.contains("workerGroupSpecs") ||
      !ray_cluster_spec["workerGroupSpecs"].is_array()) {
    return 0;
  }
  return static_cast<int64_t>(ray_cluster_spec["workerGroupSpecs"].size());
}

}  // namespace kuberay::rayservice
