#pragma once
// Label and field filters for list and watch requests: parsed once per request, then matched
// against each stored object.
// Mirrors: apiserver pkg/storage SelectionPredicate (label + field selection).
// Simplified: field selectors support the fields api/selector.h lists per kind.
// Single-threaded; no time.

#include <optional>
#include <string>

#include "core/api/object.h"
#include "core/api/selector.h"
#include "core/base/status.h"

namespace apiserver::internal {

class LabelFilter {
 public:
  // Parse accepts kubectl's selector syntax; "" matches everything.
  static base::StatusOr<LabelFilter> Parse(const std::string& selector);
  LabelFilter() = default;  // matches everything
  bool Matches(const api::Json& obj) const;

 private:
  bool everything_ = true;
  api::LabelSelector selector_;
};

class FieldFilter {
 public:
  static base::StatusOr<FieldFilter> Parse(const std::string& kind, const std::string& selector);
  FieldFilter() = default;  // matches everything
  bool Matches(const api::Json& obj) const;
  // RequiresExactMatch returns the value the selector requires `field` to equal, if a term
  // says `field=value` (fields.Selector.RequiresExactMatch).
  std::optional<std::string> RequiresExactMatch(const std::string& field) const;

 private:
  bool everything_ = true;
  // direct_: every term names metadata.name, metadata.namespace or spec.nodeName, which Matches
  // reads through api::ObjectMeta and api::PodSpec instead of building the object's whole field
  // set.
  bool direct_ = false;
  std::string kind_;
  api::FieldSelector selector_;
};

}  // namespace apiserver::internal
