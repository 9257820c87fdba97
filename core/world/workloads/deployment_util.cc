#include "core/world/workloads/deployment_util.h"

#include <cstdlib>

namespace world {
namespace {

const char kAlphanums[] = "bcdfghjklmnpqrstvwxz2456789";

api::Json WithoutHash(const api::Json& tmpl) {
  api::Json copy = tmpl;
  if (copy.is_object() && copy.contains("metadata") && copy["metadata"].is_object() &&
      copy["metadata"].contains("labels") && copy["metadata"]["labels"].is_object()) {
    copy["metadata"]["labels"].erase(kPodTemplateHashLabel);
    if (copy["metadata"]["labels"].empty()) copy["metadata"].erase("labels");
  }
  return copy;
}

}  // namespace

uint32_t Fnv32a(const std::string& s) {
  uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

std::string SafeEncodeString(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  const size_t n = sizeof(kAlphanums) - 1;
  for (unsigned char c : s) out.push_back(kAlphanums[c % n]);
  return out;
}

// mirrors controller_utils.go ComputeHash
std::string ComputeHash(const api::Json& pod_template, std::optional<int64_t> collision_count) {
  // error_handler_t::replace: invalid UTF-8 in user input must not throw.
  std::string text = pod_template.dump(-1, ' ', false, api::Json::error_handler_t::replace);
  if (collision_count.has_value()) text += std::to_string(*collision_count);
  return SafeEncodeString(std::to_string(Fnv32a(text)));
}

// mirrors intstr.GetScaledValueFromIntOrPercent
base::StatusOr<int64_t> ScaledValue(const api::Json& v, int64_t total, bool round_up) {
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s.size() >= 2 && s.back() == '%') {
      char* end = nullptr;
      const std::string digits = s.substr(0, s.size() - 1);
      const long long pct = std::strtoll(digits.c_str(), &end, 10);
      if (end != nullptr && *end == '\0' && pct >= 0 && pct <= 1000000) {
        const int64_t scaled = pct * total;
        return round_up ? (scaled + 99) / 100 : scaled / 100;
      }
    }
  }
  return base::Status(base::StatusCode::kInvalid,
                      "invalid value for IntOrString: " +
                          v.dump(-1, ' ', false, api::Json::error_handler_t::replace));
}

// mirrors deployment_util.go ResolveFenceposts
Fenceposts ResolveFenceposts(const api::Json& max_surge, const api::Json& max_unavailable,
                             int64_t desired) {
  Fenceposts f;
  auto surge = ScaledValue(max_surge, desired, /*round_up=*/true);
  auto unavailable = ScaledValue(max_unavailable, desired, /*round_up=*/false);
  f.max_surge = surge.ok() ? surge.value() : 0;
  f.max_unavailable = unavailable.ok() ? unavailable.value() : 0;
  if (f.max_surge == 0 && f.max_unavailable == 0) f.max_unavailable = 1;
  return f;
}

bool EqualIgnoreHash(const api::Json& a, const api::Json& b) {
  return WithoutHash(a) == WithoutHash(b);
}

}  // namespace world
