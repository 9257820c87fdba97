#include "core/world/workloads/pod_util.h"

#include <utility>

#include "core/api/fields.h"
#include "core/api/pointer.h"

namespace world {
namespace {

using api::Json;

// PhaseOrdinal mirrors controller_utils.go podPhaseToOrdinal.
int PhaseOrdinal(const std::string& phase) {
  if (phase == "Pending") return 0;
  if (phase == "Unknown") return 1;
  if (phase == "Running") return 2;
  return 0;
}

std::string ReadySinceText(const Json& pod) {
  const Json* c = FindCondition(pod, "Ready");
  if (c == nullptr) return "";
  auto it = c->find("lastTransitionTime");  // absent reads as ""
  return it != c->end() && it->is_string() ? it->get<std::string>() : std::string();
}

// AfterOrZero mirrors controller_utils.go afterOrZero: a zero time sorts first, then later.
bool AfterOrZero(const std::string& t1, const std::string& t2) {
  if (t1.empty() || t2.empty()) return t1.empty();
  return t1 > t2;
}

}  // namespace

std::string PodPhase(const Json& pod) { return api::GetString(pod, "/status/phase"); }

bool IsPodTerminal(const Json& pod) {
  const std::string& phase = api::PodStatus(pod).Phase();
  return phase == "Succeeded" || phase == "Failed";
}

bool IsPodActive(const Json& pod) { return !IsPodTerminal(pod) && !api::IsBeingDeleted(pod); }

bool FieldIs(const Json& obj, const char* key, std::string_view want) {
  const Json* field = api::Member(obj, key);
  if (field == nullptr) return want.empty();
  return field->is_string() && field->get_ref<const std::string&>() == want;
}

bool IsPodReady(const Json& pod) { return ConditionIs(pod, "Ready", "True"); }

bool IsControlledBy(const Json& obj, const Json& owner) {
  auto ref = api::GetControllerOf(obj);
  return ref.has_value() && !ref->uid.empty() && ref->uid == api::Uid(owner);
}

Json NewControllerRef(const Json& owner) {
  api::OwnerReference ref;
  ref.apiVersion = api::ApiVersion(owner);
  ref.kind = api::Kind(owner);
  ref.name = api::Name(owner);
  ref.uid = api::Uid(owner);
  ref.controller = true;
  ref.blockOwnerDeletion = true;
  return ref.ToJson();
}

Json PodFromTemplate(const Json& pod_template, const Json& owner,
                     const std::string& generate_name) {
  Json pod = {{"apiVersion", "v1"}, {"kind", "Pod"}};
  Json meta = {{"generateName", generate_name}, {"namespace", api::Namespace(owner)}};
  const Json* tmeta = api::FindPointer(pod_template, "/metadata");
  if (tmeta != nullptr && tmeta->is_object()) {
    for (const char* key : {"labels", "annotations"}) {
      if (tmeta->contains(key) && (*tmeta)[key].is_object()) meta[key] = (*tmeta)[key];
    }
  }
  meta["ownerReferences"] = Json::array({NewControllerRef(owner)});
  pod["metadata"] = std::move(meta);
  const Json* spec = api::FindPointer(pod_template, "/spec");
  pod["spec"] = spec != nullptr ? *spec : Json::object();
  return pod;
}

bool DeleteFirst(const Json& a, const Json& b) {
  const std::string na = api::GetString(a, "/spec/nodeName");
  const std::string nb = api::GetString(b, "/spec/nodeName");
  if (na != nb && (na.empty() || nb.empty())) return na.empty();
  const int pa = PhaseOrdinal(PodPhase(a));
  const int pb = PhaseOrdinal(PodPhase(b));
  if (pa != pb) return pa < pb;
  const bool ra = IsPodReady(a);
  const bool rb = IsPodReady(b);
  if (ra != rb) return !ra;
  if (ra && rb) {
    const std::string ta = ReadySinceText(a);
    const std::string tb = ReadySinceText(b);
    if (ta != tb) return AfterOrZero(ta, tb);
  }
  const int64_t ca = RestartCount(a);
  const int64_t cb = RestartCount(b);
  if (ca != cb) return ca > cb;
  const std::string ka = api::CreationTimestamp(a);
  const std::string kb = api::CreationTimestamp(b);
  if (ka != kb) return AfterOrZero(ka, kb);
  // Created in the same second: any fixed order will do (generated names are random).
  return api::Name(a) < api::Name(b);
}

namespace {
// DaysFromCivil counts days since 1970-01-01 (Howard Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}
}  // namespace

std::optional<base::SimTime> ParseRfc3339(const std::string& text) {
  // "2026-01-01T00:00:05Z"
  if (text.size() != 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':' || text[19] != 'Z') {
    return std::nullopt;
  }
  auto num = [&](size_t pos, size_t len, int64_t* out) {
    int64_t v = 0;
    for (size_t i = pos; i < pos + len; ++i) {
      if (text[i] < '0' || text[i] > '9') return false;
      v = v * 10 + (text[i] - '0');
    }
    *out = v;
    return true;
  };
  int64_t y, mo, d, h, mi, s;
  if (!num(0, 4, &y) || !num(5, 2, &mo) || !num(8, 2, &d) || !num(11, 2, &h) || !num(14, 2, &mi) ||
      !num(17, 2, &s) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) {
    return std::nullopt;
  }
  const int64_t days = DaysFromCivil(y, mo, d) - DaysFromCivil(2026, 1, 1);
  return ((days * 24 + h) * 60 + mi) * 60 * base::kSecond + s * base::kSecond;
}

std::optional<base::SimTime> ReadySince(const Json& pod) {
  if (!IsPodReady(pod)) return std::nullopt;
  return ParseRfc3339(ReadySinceText(pod));
}

int64_t RestartCount(const Json& pod) {
  const Json* statuses = api::FindPointer(pod, "/status/containerStatuses");
  if (statuses == nullptr || !statuses->is_array()) return 0;
  int64_t total = 0;
  for (const Json& s : *statuses) {
    if (s.is_object() && s.contains("restartCount") && s["restartCount"].is_number_integer()) {
      total += s["restartCount"].get<int64_t>();
    }
  }
  return total;
}

const Json& JsonAt(const Json& obj, std::string_view pointer) {
  static const Json kNull;
  const Json* v = api::FindPointer(obj, pointer);
  return v == nullptr ? kNull : *v;
}

int64_t IntAt(const Json& obj, std::string_view pointer, int64_t fallback) {
  const Json* v = api::FindPointer(obj, pointer);
  if (v == nullptr || !v->is_number_integer()) return fallback;
  return v->get<int64_t>();
}

int64_t EmitAction(sim::Trace& trace, const std::string& controller, const std::string& object,
                   const std::string& action, const std::string& detail) {
  return trace.Emit("kcm.action", {{"controller", controller},
                                   {"object", object},
                                   {"action", action},
                                   {"detail", detail},
                                   {"cause", trace.current_cause()}});
}

}  // namespace world
