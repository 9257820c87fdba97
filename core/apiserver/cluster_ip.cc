#include "core/apiserver/cluster_ip.h"

#include <cstdio>

namespace apiserver {
namespace {

using api::Json;

constexpr uint32_t kBase = (10u << 24) | (96u << 16);  // 10.96.0.0
constexpr uint32_t kSize = 1u << 20;                   // a /12
constexpr uint32_t kKubernetesService = kBase + 1;     // 10.96.0.1
constexpr uint32_t kKubeDns = kBase + 10;              // 10.96.0.10

std::string Str(const Json& spec, const char* field) {
  return spec.is_object() && spec.contains(field) && spec[field].is_string()
             ? spec[field].get<std::string>()
             : std::string();
}

// Requested is the address the Service asks for: clusterIP, else clusterIPs[0]; "" for none.
std::string Requested(const Json& spec) {
  std::string ip = Str(spec, "clusterIP");
  if (ip.empty() && spec.is_object() && spec.contains("clusterIPs") && spec["clusterIPs"].is_array() &&
      !spec["clusterIPs"].empty() && spec["clusterIPs"][0].is_string()) {
    ip = spec["clusterIPs"][0].get<std::string>();
  }
  return ip;
}

// NeedsClusterIP mirrors needsClusterIP: every type but ExternalName.
bool NeedsClusterIP(const Json& spec) { return Str(spec, "type") != "ExternalName"; }

void SetIP(Json& spec, const std::string& ip) {
  spec["clusterIP"] = ip;
  spec["clusterIPs"] = Json::array({ip});
}

std::string ListValue(const std::string& ip) { return "[]string{\"" + ip + "\"}"; }

}  // namespace

std::string ClusterIPAllocator::Format(uint32_t ip) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%u.%u.%u.%u", (ip >> 24) & 255u, (ip >> 16) & 255u,
                (ip >> 8) & 255u, ip & 255u);
  return buf;
}

bool ClusterIPAllocator::Parse(const std::string& text, uint32_t* ip) {
  uint32_t value = 0;
  int parts = 0;
  size_t i = 0;
  while (parts < 4) {
    if (i >= text.size() || text[i] < '0' || text[i] > '9') return false;
    uint32_t octet = 0;
    size_t digits = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 4) {
      octet = octet * 10 + static_cast<uint32_t>(text[i] - '0');
      ++i;
      ++digits;
    }
    if (octet > 255 || digits > 3) return false;
    value = (value << 8) | octet;
    ++parts;
    if (parts < 4) {
      if (i >= text.size() || text[i] != '.') return false;
      ++i;
    }
  }
  if (i != text.size()) return false;
  *ip = value;
  return true;
}

std::string ClusterIPAllocator::AllocateFor(Json& service) {
  if (!service.contains("spec") || !service["spec"].is_object()) return "";
  Json& spec = service["spec"];
  if (!NeedsClusterIP(spec)) return "";
  const std::string requested = Requested(spec);
  if (requested == "None") {
    SetIP(spec, "None");  // headless: clusterIPs defaults from clusterIP
    return "";
  }
  if (!requested.empty()) {
    uint32_t ip = 0;
    if (!Parse(requested, &ip)) {
      return "spec.clusterIPs[0]: Invalid value: \"" + requested + "\": must be a valid IP address";
    }
    if (ip - kBase >= kSize || ip < kBase) {
      return "spec.clusterIPs: Invalid value: " + ListValue(requested) + ": failed to allocate IP " +
             requested + ": the provided IP (" + requested +
             ") is not in the valid range. The range of valid IPs is " + kRange;
    }
    if (used_.count(ip) > 0) {
      return "spec.clusterIPs: Invalid value: " + ListValue(requested) + ": failed to allocate IP " +
             requested + ": provided IP is already allocated";
    }
    used_.insert(ip);
    SetIP(spec, requested);
    return "";
  }
  // The first free address at or after the cursor; the network and broadcast addresses and the
  // two well-known Services are skipped.
  for (uint32_t tried = 0; tried < kSize; ++tried) {
    const uint32_t offset = (next_ + tried) % kSize;
    const uint32_t ip = kBase + offset;
    if (offset == 0 || offset == kSize - 1 || ip == kKubernetesService || ip == kKubeDns ||
        used_.count(ip) > 0) {
      continue;
    }
    used_.insert(ip);
    next_ = (offset + 1) % kSize;
    SetIP(spec, Format(ip));
    return "";
  }
  return std::string("spec.clusterIPs: Internal error: failed to allocate a serviceIP: range is full");
}

std::string ClusterIPAllocator::KeepOnUpdate(const Json& old_service, Json& next) {
  const Json old_spec = old_service.value("spec", Json::object());
  if (!next.contains("spec") || !next["spec"].is_object()) return "";
  Json& spec = next["spec"];
  const std::string old_ip = Requested(old_spec);
  const std::string new_ip = Requested(spec);
  if (!NeedsClusterIP(spec)) {
    // ExternalName has no cluster IP: the old one is given back.
    Release(old_service);
    spec.erase("clusterIP");
    spec.erase("clusterIPs");
    return "";
  }
  if (old_ip.empty() || !NeedsClusterIP(old_spec)) return AllocateFor(next);
  if (new_ip.empty()) {
    // mirrors patchAllocatedValues: an update that leaves the address out keeps it.
    SetIP(spec, old_ip);
    return "";
  }
  if (new_ip != old_ip) {
    return "spec.clusterIPs[0]: Invalid value: " + ListValue(new_ip) + ": may not change once set";
  }
  SetIP(spec, old_ip);
  return "";
}

void ClusterIPAllocator::Release(const Json& service) {
  uint32_t ip = 0;
  if (Parse(Requested(service.value("spec", Json::object())), &ip)) used_.erase(ip);
}

}  // namespace apiserver
