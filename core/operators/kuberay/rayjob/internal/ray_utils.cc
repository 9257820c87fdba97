#include "core/operators/kuberay/rayjob/internal/ray_utils.h"

#include <cctype>

namespace kuberay::utils {

using api::Json;

std::string RandomSuffix(sim::Prng& prng, int n) {
  static const std::string kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string out;
  for (int i = 0; i < n; ++i) out += kAlphabet[static_cast<size_t>(prng.Below(kAlphabet.size()))];
  return out;
}

std::string CheckName(const std::string& name) {
  std::string s = name;
  constexpr size_t kMax = 50;
  if (s.size() > kMax) s = s.substr(s.size() - kMax);
  if (!s.empty() && !std::isalpha(static_cast<unsigned char>(s[0]))) s[0] = 'r';
  return s;
}

std::string GenerateRayClusterName(const std::string& name, sim::Prng& prng) {
  return CheckName(name) + "-" + RandomSuffix(prng);
}

std::string GenerateRayJobId(const std::string& rayjob, sim::Prng& prng) {
  return rayjob + "-" + RandomSuffix(prng);
}

std::string GenerateHeadServiceName(const std::string& name) {
  return CheckName(name + "-head-svc");
}

std::string GenerateServeServiceName(const std::string& name) {
  return CheckName(name + "-serve-svc");
}

const Json* At(const Json& obj, const char* pointer) {
  const Json::json_pointer ptr(pointer);
  return obj.is_object() && obj.contains(ptr) ? &obj.at(ptr) : nullptr;
}

std::string StringAt(const Json& obj, const char* pointer) {
  const Json* v = At(obj, pointer);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}

std::optional<int64_t> IntAt(const Json& obj, const char* pointer) {
  const Json* v = At(obj, pointer);
  if (v == nullptr || !v->is_number_integer()) return std::nullopt;
  return v->get<int64_t>();
}

bool BoolAt(const Json& obj, const char* pointer) {
  const Json* v = At(obj, pointer);
  return v != nullptr && v->is_boolean() && v->get<bool>();
}

std::string StrField(const Json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string HeadServiceName(const Json& ray_cluster) {
  const std::string custom = StringAt(ray_cluster, "/spec/headGroupSpec/headService/metadata/name");
  return custom.empty() ? GenerateHeadServiceName(api::Name(ray_cluster)) : custom;
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

std::string FetchHeadServiceURL(const Json& ray_cluster) {
  return HeadServiceName(ray_cluster) + "." + api::Namespace(ray_cluster) + ".svc." +
         kDefaultDomainName + ":" + std::to_string(DashboardPort(ray_cluster));
}

const Json* FindCondition(const Json& obj, const std::string& type) {
  const Json* conditions = At(obj, "/status/conditions");
  if (conditions == nullptr || !conditions->is_array()) return nullptr;
  for (const Json& c : *conditions) {
    if (c.is_object() && c.value("type", Json()) == type) return &c;
  }
  return nullptr;
}

bool IsConditionTrue(const Json& obj, const std::string& type) {
  const Json* c = FindCondition(obj, type);
  return c != nullptr && c->value("status", Json()) == "True";
}

bool SetCondition(Json& conditions, const std::string& type, const std::string& status,
                  const std::string& reason, const std::string& message, base::SimTime now) {
  if (!conditions.is_array()) conditions = Json::array();
  for (Json& c : conditions) {
    if (!c.is_object() || c.value("type", Json()) != type) continue;
    bool changed = false;
    if (c.value("status", Json()) != status) {
      c["status"] = status;
      c["lastTransitionTime"] = base::FormatRfc3339(now);
      changed = true;
    }
    if (c.value("reason", Json()) != reason) {
      c["reason"] = reason;
      changed = true;
    }
    if (c.value("message", Json()) != message) {
      c["message"] = message;
      changed = true;
    }
    return changed;
  }
  conditions.push_back(Json{{"type", type},
                            {"status", status},
                            {"reason", reason},
                            {"message", message},
                            {"lastTransitionTime", base::FormatRfc3339(now)}});
  return true;
}

namespace {

// DaysFromCivil counts days from 1970-01-01 (Howard Hinnant's algorithm, integers only).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool Digits(const std::string& s, size_t pos, size_t n, int64_t* out) {
  if (pos + n > s.size()) return false;
  int64_t v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

}  // namespace

std::optional<base::SimTime> ParseRfc3339(const std::string& text) {
  int64_t y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  if (text.size() != 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' ||
      text[13] != ':' || text[16] != ':' || text[19] != 'Z' || !Digits(text, 0, 4, &y) ||
      !Digits(text, 5, 2, &mo) || !Digits(text, 8, 2, &d) || !Digits(text, 11, 2, &h) ||
      !Digits(text, 14, 2, &mi) || !Digits(text, 17, 2, &s)) {
    return std::nullopt;
  }
  const int64_t days = DaysFromCivil(y, mo, d) - DaysFromCivil(2026, 1, 1);
  return ((days * 24 + h) * 60 + mi) * 60 * base::kSecond + s * base::kSecond;
}

std::map<std::string, std::string> MergeLabels(std::map<std::string, std::string> a,
                                               const std::map<std::string, std::string>& b) {
  for (const auto& [k, v] : b) a[k] = v;
  return a;
}

}  // namespace kuberay::utils
