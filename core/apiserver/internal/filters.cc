#include "core/apiserver/internal/filters.h"

#include <string_view>

#include "core/api/fields.h"
#include "core/api/pointer.h"

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

bool FieldFilter::Matches(const api::Json& obj) const {
  if (everything_) return true;
  if (!direct_) return selector_.Matches(obj);
  // The same values api::FieldsSet gives these fields; spec.nodeName only exists for Pods (the
  // object's kind, or the watched kind when the object names none).
  static const std::string kEmpty;
  for (const api::FieldSelector::Term& term : selector_.terms()) {
    const std::string* value = &kEmpty;
    const std::string_view field = term.field;
    if (field == "metadata.name") {
      value = &api::ObjectMeta(obj).Name();
    } else if (field == "metadata.namespace") {
      value = &api::ObjectMeta(obj).Namespace();
    } else {
      const std::string& kind = api::TypeMeta(obj).Kind();
      const std::string_view effective = !kind.empty() ? std::string_view(kind) : kind_;
      if (effective == "Pod") value = &api::PodSpec(obj).NodeName();
    }
    if ((*value == term.value) != term.equal) return false;
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
