#pragma once
// StructuralSchema: a CustomResourceDefinition's openAPIV3Schema in the structural subset the API
// server serves a learner's own kinds with — parsed once when the CRD is written, then used on
// every write of a custom resource to default, prune and validate it.
// Mirrors: apiextensions-apiserver pkg/apiserver/schema/structural.go (the type),
// schema/validation.go (structural rules), schema/defaulting/algorithm.go (Default),
// schema/pruning/algorithm.go (Prune) and kube-openapi pkg/validation/validate (the
// "in body must be of type" wording).
// Simplified: the keywords type, properties, items, required, default, enum, minimum, maximum,
// minLength, maxLength and x-kubernetes-preserve-unknown-fields (description, format, nullable
// and title are accepted and ignored); anything else (pattern, allOf, anyOf, oneOf, not,
// additionalProperties, x-kubernetes-validations, ...) is refused as not supported in the
// sandbox. `pattern` needs Go's RE2, which the sandbox does not have.
// Single-threaded; no time. Bounded: kMaxSchemaDepth levels, kMaxSchemaNodes nodes.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/api/object.h"

namespace api {

constexpr int kMaxSchemaDepth = 16;
constexpr int kMaxSchemaNodes = 500;

struct StructuralSchema {
  std::string type;  // object, array, string, integer, number, boolean; "" only when preserving
  std::map<std::string, StructuralSchema> properties;  // ordered: causes come out sorted
  std::vector<StructuralSchema> items;                 // the item schema of an array (0 or 1)
  std::vector<std::string> required;
  std::optional<Json> default_value;
  std::vector<Json> enum_values;
  std::optional<Json> minimum, maximum;  // numbers
  std::optional<int64_t> min_length, max_length;
  bool preserve_unknown_fields = false;
};

// ParseStructuralSchema reads an openAPIV3Schema at `path` (for messages, e.g.
// "spec.versions[0].schema.openAPIV3Schema"). On failure appends causes in field.Error wording
// (`...: Forbidden: ... is not supported in the sandbox`, `...type: Required value: must not be
// empty for specified object fields`) and returns false.
bool ParseStructuralSchema(const Json& schema, const std::string& path, StructuralSchema* out,
                           std::vector<std::string>* causes);

// DefaultStructural fills absent fields that have a default, depth first, as the API server does
// when it decodes a custom resource (defaulting/algorithm.go). Values of the wrong type are left
// for validation.
void DefaultStructural(const StructuralSchema& schema, Json& value);

// PruneStructural drops fields the schema does not declare, unless a node preserves unknown
// fields (pruning/algorithm.go). At the root apiVersion, kind and metadata are always kept.
void PruneStructural(const StructuralSchema& schema, Json& object);

// ValidateStructural appends one cause per violation below `path` (the root's path is ""), with
// kube-openapi's messages, e.g. `spec.replicas: Invalid value: "string": spec.replicas in body
// must be of type integer: "string"`. metadata, apiVersion and kind are not checked here.
void ValidateStructural(const StructuralSchema& schema, const Json& value, const std::string& path,
                        std::vector<std::string>* causes);

}  // namespace api
