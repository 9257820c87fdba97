#include "core/operators/kuberay/common/hash.h"

#include <cstdint>

namespace kuberay {
namespace {

void BlankTemplate(api::Json& owner) {
  if (!owner.is_object()) return;
  auto tmpl = owner.find("template");
  if (tmpl == owner.end() || !tmpl->is_object()) return;
  auto spec = tmpl->find("spec");
  if (spec == tmpl->end() || !spec->is_object()) return;
  spec->erase("tolerations");
  spec->erase("schedulingGates");
}

}  // namespace

std::string GenerateHashWithoutReplicasAndWorkersToDelete(const api::Json& spec) {
  api::Json copy = spec;
  if (copy.is_object()) {
    copy.erase("upgradeStrategy");
    if (copy.contains("headGroupSpec")) BlankTemplate(copy["headGroupSpec"]);
    if (copy.contains("workerGroupSpecs") && copy["workerGroupSpecs"].is_array()) {
      for (api::Json& g : copy["workerGroupSpecs"]) {
        if (!g.is_object()) continue;
        g.erase("replicas");
        g.erase("minReplicas");
        g.erase("maxReplicas");
        if (g.contains("scaleStrategy") && g["scaleStrategy"].is_object()) {
          g["scaleStrategy"].erase("workersToDelete");
          // Go's struct always encodes scaleStrategy, so absent and empty hash alike.
          if (g["scaleStrategy"].empty()) g.erase("scaleStrategy");
        }
        BlankTemplate(g);
      }
    }
  }
  const std::string text = copy.dump();  // nlohmann sorts object keys: canonical
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  static const char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";  // base32hex
  std::string out;
  for (int i = 0; i < 13; ++i) {
    out.push_back(kAlphabet[h & 31]);
    h >>= 5;
  }
  return out;
}

}  // namespace kuberay
