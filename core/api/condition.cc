#include "core/api/condition.h"

#include <string>
#include <utility>

#include "core/api/internal/member_at.h"
#include "core/api/internal/well_known_keys.h"
#include "core/api/pointer.h"

namespace api {
namespace {

// FieldOr is `obj.value(key, Json(""))` for an object, read in place.
const Json& FieldOr(const Json& obj, const char* key) {
  static const Json kEmpty = "";
  const Json* field = Member(obj, key);
  return field == nullptr ? kEmpty : *field;
}

}  // namespace

// mirrors kubernetes pkg/api/v1/pod/util.go GetPodConditionFromList
const Json* FindCondition(const Json& obj, std::string_view type) {
  const Json* conditions = internal::MemberAt(obj, keys::Status(), keys::Conditions());
  if (conditions == nullptr || !conditions->is_array()) return nullptr;
  for (const Json& c : *conditions) {
    if (c.is_object() && internal::TextAt(c, keys::Type()) == type) return &c;
  }
  return nullptr;
}

bool ConditionIs(const Json& obj, std::string_view type, std::string_view status) {
  const Json* c = FindCondition(obj, type);
  return c != nullptr && internal::TextAt(*c, keys::Status()) == status;
}

// mirrors kubernetes pkg/api/v1/pod/util.go UpdatePodCondition
Json UpsertCondition(Json conditions, Json cond, base::SimTime now, bool update_time) {
  const std::string stamp = base::FormatRfc3339(now);
  Json out = conditions.is_array() ? std::move(conditions) : Json::array();
  for (Json& c : out) {
    if (!c.is_object() || FieldOr(c, "type") != cond["type"]) continue;
    const bool same_status = FieldOr(c, "status") == cond["status"];
    cond["lastTransitionTime"] =
        same_status && c.contains("lastTransitionTime") ? c["lastTransitionTime"] : Json(stamp);
    if (update_time) {
      const bool same_text = same_status && FieldOr(c, "reason") == FieldOr(cond, "reason") &&
                             FieldOr(c, "message") == FieldOr(cond, "message");
      cond["lastUpdateTime"] =
          same_text && c.contains("lastUpdateTime") ? c["lastUpdateTime"] : Json(stamp);
    }
    c = std::move(cond);
    return out;
  }
  cond["lastTransitionTime"] = stamp;
  if (update_time) cond["lastUpdateTime"] = stamp;
  out.push_back(std::move(cond));
  return out;
}

}  // namespace api
