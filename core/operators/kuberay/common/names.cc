#include "core/operators/kuberay/common/names.h"

#include "core/operators/kuberay/common/constants.h"
#include "core/operators/kuberay/common/utils.h"

namespace kuberay {

using api::Json;

std::string RandomSuffix(sim::Prng& prng, int n) {
  static const std::string kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string out;
  for (int i = 0; i < n; ++i) out += kAlphabet[static_cast<size_t>(prng.Below(kAlphabet.size()))];
  return out;
}

// mirrors utils/util.go GenerateRayClusterName
std::string GenerateRayClusterName(const std::string& name, sim::Prng& prng) {
  return CheckName(name) + "-" + RandomSuffix(prng);
}

// mirrors utils/util.go GenerateRayJobId
std::string GenerateRayJobId(const std::string& rayjob, sim::Prng& prng) {
  return rayjob + "-" + RandomSuffix(prng);
}

// mirrors utils/util.go GenerateHeadServiceName (RayServiceCRD)
std::string GenerateHeadServiceName(const std::string& name) {
  return CheckName(name + "-head-svc");
}

// mirrors utils/util.go GenerateServeServiceName
std::string GenerateServeServiceName(const std::string& name) {
  return CheckName(name + "-serve-svc");
}

int64_t DashboardPort(const Json& ray_cluster) {
  const Json* containers = At(ray_cluster, "/spec/headGroupSpec/template/spec/containers");
  if (containers != nullptr && containers->is_array() && !containers->empty()) {
    const Json& ray = (*containers)[0];
    if (ray.is_object() && ray.contains("ports") && ray["ports"].is_array()) {
      for (const Json& p : ray["ports"]) {
        if (p.is_object() && p.value("name", Json()) == kDashboardPortName &&
            p.value("containerPort", Json()).is_number_integer()) {
          return p["containerPort"].get<int64_t>();
        }
      }
    }
  }
  return kDefaultDashboardPort;
}

// mirrors utils/util.go FetchHeadServiceURL
std::string FetchHeadServiceURL(const Json& ray_cluster) {
  return HeadServiceName(ray_cluster) + "." + api::Namespace(ray_cluster) + ".svc." +
         kDefaultDomainName + ":" + std::to_string(DashboardPort(ray_cluster));
}

}  // namespace kuberay
