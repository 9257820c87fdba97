#include "core/operators/kuberay/common/hash.h"

#include <array>
#include <cstdint>

#include "core/api/go_json.h"
#include "core/operators/kuberay/common/sha1.h"

namespace kuberay {
namespace {

void BlankPodTemplateScheduling(api::Json& owner) {
  if (!owner.is_object()) return;
  auto tmpl = owner.find("template");
  if (tmpl == owner.end() || !tmpl->is_object()) return;
  auto spec = tmpl->find("spec");
  if (spec == tmpl->end() || !spec->is_object()) return;
  spec->erase("tolerations");
  spec->erase("schedulingGates");
}

// Base32HexEncode is Go's base32.HexEncoding.EncodeToString (padding '=' where needed).
std::string Base32HexEncode(const uint8_t* data, size_t n) {
  static const char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
  std::string out;
  uint64_t buffer = 0;
  int bits = 0;
  for (size_t i = 0; i < n; ++i) {
    buffer = (buffer << 8) | data[i];
    bits += 8;
    while (bits >= 5) {
      out.push_back(kAlphabet[(buffer >> (bits - 5)) & 31]);
      bits -= 5;
    }
  }
  if (bits > 0) out.push_back(kAlphabet[(buffer << (5 - bits)) & 31]);
  while (out.size() % 8 != 0) out.push_back('=');
  return out;
}

}  // namespace

std::string GenerateJsonHash(const api::Json& obj) {
  const std::array<uint8_t, 20> digest = Sha1(api::GoJsonMarshal(obj));
  return Base32HexEncode(digest.data(), digest.size());
}

std::string GenerateHashWithoutReplicasAndWorkersToDelete(const api::Json& spec) {
  api::Json copy = spec;
  if (copy.is_object()) {
    copy.erase("upgradeStrategy");
    if (copy.contains("headGroupSpec")) BlankPodTemplateScheduling(copy["headGroupSpec"]);
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
        BlankPodTemplateScheduling(g);
      }
    }
  }
  return GenerateJsonHash(copy);
}

}  // namespace kuberay
