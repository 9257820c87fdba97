#include "core/apiserver/internal/filters.h"

#include <string_view>

#include "core/api/pod_keys.h"
#include "core/api/pointer.h"
#include "core/api/well_known_keys.h"

namespace apiserver::internal {

base::StatusOr<LabelFilter> LabelFilter::Parse(const std::string& selector) {
  LabelFilter filter;
  if (selector.empty()) return filter;
  auto parsed = api::LabelSelector::Parse(selector);
  if (!parsed.ok()) {
    return base::Status(base::StatusCode::kBadRequest, parsed.status().message());
  }
  filter.everything_ = false;
  filter.selector_ = std::move(parsed.value());
  return filter;
}

bool LabelFilter::Matches(const api::Json& obj) const {
  return everything_ || selector_.MatchesObject(obj);
}

base::StatusOr<FieldFilter> FieldFilter::Parse(const std::string& kind,
                                               const std::string& selector) {
  FieldFilter filter;
  if (selector.empty()) return filter;
  auto parsed = api::FieldSelector::ParseForKind(kind, selector);
  if (!parsed.ok()) {
    return base::Status(base::StatusCode::kBadRequest, parsed.status().message());
  }
  filter.everything_ = false;
  filter.selector_ = std::move(parsed.value());
  filter.kind_ = kind;
  filter.direct_ = true;
  for (const api::FieldSelector::Term& term : filter.selector_.terms()) {
    if (term.field != "metadata.name" && term.field != "metadata.namespace" &&
        term.field != "spec.nodeName") {
      filter.direct_ = false;
    }
  }
  return filter;
}

namespace {

// StringIn is obj[a][b] when that is a string, else null (the field set's ""). Interned keys:
// a kubelet's watch (spec.nodeName) asks about every Pod write.
const std::string* StringIn(const api::Json& obj, const api::InternedKey& a,
                            const api::InternedKey& b) {
  const api::Json* v = api::MemberAt(obj, a, b);
  return v != nullptr && v->is_string() ? v->get_ptr<const std::string*>() : nullptr;
}

}  // namespace

bool FieldFilter::Matches(const api::Json& obj) const {
  if (everything_) return true;
  if (!direct_) return selector_.Matches(obj);
  // The same values api::FieldsSet gives these fields; spec.nodeName only exists for Pods (the
  // object's kind, or the watched kind when the object names none).
  static const std::string kEmpty;
  for (const api::FieldSelector::Term& term : selector_.terms()) {
    const std::string* value = nullptr;
    const std::string_view field = term.field;  // compared by length first, without a call
    if (field == "metadata.name") {
      value = StringIn(obj, api::keys::Metadata(), api::keys::Name());
    } else if (field == "metadata.namespace") {
      value = StringIn(obj, api::keys::Metadata(), api::keys::Namespace());
    } else {
      const api::Json* kind = api::MemberAt(obj, api::keys::Kind());
      const bool named =
          kind != nullptr && kind->is_string() && !kind->get_ref<const std::string&>().empty();
      const std::string_view effective = named ? kind->get_ref<const std::string&>() : kind_;
      if (effective == "Pod") value = StringIn(obj, api::keys::Spec(), api::pod_keys::NodeName());
    }
    if ((*(value != nullptr ? value : &kEmpty) == term.value) != term.equal) return false;
  }
  return true;
}

std::optional<std::string> FieldFilter::RequiresExactMatch(const std::string& field) const {
  if (everything_ || field.empty()) return std::nullopt;
  for (const api::FieldSelector::Term& term : selector_.terms()) {
    if (term.field == field && term.equal) return term.value;
  }
  return std::nullopt;
}

}  // namespace apiserver::internal
