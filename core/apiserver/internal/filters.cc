#include "core/apiserver/internal/filters.h"

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
  return everything_ || selector_.Matches(api::Labels(obj));
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
  return filter;
}

bool FieldFilter::Matches(const api::Json& obj) const {
  return everything_ || selector_.Matches(obj);
}

std::optional<std::string> FieldFilter::RequiresExactMatch(const std::string& field) const {
  if (everything_ || field.empty()) return std::nullopt;
  for (const api::FieldSelector::Term& term : selector_.terms()) {
    if (term.field == field && term.equal) return term.value;
  }
  return std::nullopt;
}

}  // namespace apiserver::internal
