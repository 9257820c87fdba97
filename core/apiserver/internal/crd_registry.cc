#include "core/apiserver/internal/crd_registry.h"

#include <cctype>

#include "core/api/structural_schema.h"

namespace apiserver::internal {
namespace {

using api::Json;

std::string StringAt(const Json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

bool IsLowerName(const std::string& s) {
  if (s.empty() || s.size() > 63) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return s.front() != '-' && s.back() != '-';
}

}  // namespace

// mirrors apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
// ValidateCustomResourceDefinition (the rules a one-version sandbox needs)
bool CustomKindFrom(const Json& crd, api::KindInfo* out, std::vector<std::string>* causes) {
  const size_t before = causes->size();
  const Json empty = Json::object();
  const Json& spec = crd.contains("spec") && crd["spec"].is_object() ? crd["spec"] : empty;
  const Json& names = spec.contains("names") && spec["names"].is_object() ? spec["names"] : empty;
  const std::string group = StringAt(spec, "group");
  const std::string plural = StringAt(names, "plural");
  const std::string singular = StringAt(names, "singular");
  const std::string kind = StringAt(names, "kind");
  const std::string scope = StringAt(spec, "scope");
  if (group.empty()) {
    causes->push_back("spec.group: Required value");
  } else if (group.find('.') == std::string::npos) {
    causes->push_back("spec.group: Invalid value: " + Quote(group) +
                      ": should be a domain with at least one dot");
  }
  if (plural.empty()) {
    causes->push_back("spec.names.plural: Required value");
  } else if (!IsLowerName(plural)) {
    causes->push_back("spec.names.plural: Invalid value: " + Quote(plural) +
                      ": a lowercase RFC 1123 label must consist of lower case alphanumeric "
                      "characters or '-'");
  }
  if (!singular.empty() && !IsLowerName(singular)) {
    causes->push_back("spec.names.singular: Invalid value: " + Quote(singular) +
                      ": a lowercase RFC 1123 label must consist of lower case alphanumeric "
                      "characters or '-'");
  }
  if (kind.empty()) causes->push_back("spec.names.kind: Required value");
  if (scope != "Namespaced" && scope != "Cluster") {
    causes->push_back("spec.scope: Unsupported value: " + Quote(scope) +
                      ": supported values: \"Cluster\", \"Namespaced\"");
  }
  const std::string name = api::Name(crd);
  if (!plural.empty() && !group.empty() && name != plural + "." + group) {
    causes->push_back("metadata.name: Invalid value: " + Quote(name) +
                      ": must be spec.names.plural+\".\"+spec.group");
  }
  if (spec.contains("conversion") && spec["conversion"].is_object() &&
      StringAt(spec["conversion"], "strategy") == "Webhook") {
    causes->push_back(
        "spec.conversion.strategy: Forbidden: conversion webhooks are not "
        "supported in the sandbox");
  }
  const Json* versions = spec.contains("versions") ? &spec["versions"] : nullptr;
  if (versions == nullptr || !versions->is_array() || versions->empty()) {
    causes->push_back(
        "spec.versions: Required value: must have exactly one version marked as "
        "storage version");
    return false;
  }
  if (versions->size() > 1) {
    causes->push_back("spec.versions: Invalid value: " + std::to_string(versions->size()) +
                      ": only one version is supported in the sandbox");
    return false;
  }
  const Json& version = (*versions)[0];
  const std::string vname = StringAt(version, "name");
  if (vname.empty()) causes->push_back("spec.versions[0].name: Required value");
  if (!version.is_object() || version.value("served", false) != true) {
    causes->push_back(
        "spec.versions[0].served: Invalid value: false: the one version must be "
        "served in the sandbox");
  }
  if (!version.is_object() || version.value("storage", false) != true) {
    causes->push_back("spec.versions: Invalid value: " + Quote(vname) +
                      ": must have exactly one version marked as storage version");
  }
  auto schema = std::make_shared<api::StructuralSchema>();
  const std::string schema_path = "spec.versions[0].schema.openAPIV3Schema";
  if (version.is_object() && version.contains("schema") && version["schema"].is_object() &&
      version["schema"].contains("openAPIV3Schema")) {
    api::ParseStructuralSchema(version["schema"]["openAPIV3Schema"], schema_path, schema.get(),
                               causes);
  } else {
    causes->push_back(
        "spec.versions[0].schema.openAPIV3Schema: Required value: schemas are "
        "required");
  }
  if (causes->size() != before) return false;
  const Json* sub = version.contains("subresources") ? &version["subresources"] : nullptr;
  out->kind = kind;
  out->group = group;
  out->version = vname;
  out->resource = plural;
  out->singular = singular.empty() ? kind : singular;
  if (singular.empty()) {
    for (char& c : out->singular)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  out->short_names.clear();
  if (names.contains("shortNames") && names["shortNames"].is_array()) {
    for (const Json& s : names["shortNames"]) {
      if (s.is_string()) out->short_names.push_back(s.get<std::string>());
    }
  }
  out->namespaced = scope == "Namespaced";
  out->custom = true;
  out->status_subresource = sub != nullptr && sub->is_object() && sub->contains("status");
  out->generation = api::GenerationRule::kSpec;
  out->schema = schema;
  return true;
}

void SetCustomResourceDefinitionStatus(Json& crd, const std::string& now) {
  const Json& spec = crd["spec"];
  Json accepted = spec["names"];
  if (!accepted.contains("singular")) {
    std::string s = accepted.value("kind", "");
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    accepted["singular"] = s;
  }
  if (!accepted.contains("listKind")) accepted["listKind"] = accepted.value("kind", "") + "List";
  Json status = Json::object();
  status["acceptedNames"] = accepted;
  status["storedVersions"] = Json::array({spec["versions"][0].value("name", "")});
  status["conditions"] = Json::array({Json{{"type", "NamesAccepted"},
                                           {"status", "True"},
                                           {"reason", "NoConflicts"},
                                           {"message", "no conflicts found"},
                                           {"lastTransitionTime", now}},
                                      Json{{"type", "Established"},
                                           {"status", "True"},
                                           {"reason", "InitialNamesAccepted"},
                                           {"message", "the initial names have been accepted"},
                                           {"lastTransitionTime", now}}});
  crd["status"] = status;
}

}  // namespace apiserver::internal
