#include "core/api/condition.h"

#include <string>
#include <utility>

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
