#pragma once
// The CustomResourceDefinition registry's rules: what makes a learner's CRD acceptable to the
// sandbox, the kind it serves, and the status conditions the API server sets on it.
// Mirrors: apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go
// (ValidateCustomResourceDefinition), pkg/controller/status/naming_controller.go (NamesAccepted)
// and pkg/controller/establish (Established).
// Simplified: one version, served and stored; no conversion webhooks, no CEL rules, no
// additionalPrinterColumns or scale subresource. Teaching: conditions are set in the same write
// as the CRD (upstream's controllers set them a moment later).
// Single-threaded; no time.

#include <string>
#include <vector>

#include "core/api/kind.h"
#include "core/api/object.h"

namespace apiserver::internal {

// kMaxCustomResourceDefinitions bounds the CRDs the sandbox serves at once.
constexpr size_t kMaxCustomResourceDefinitions = 50;

// CustomKindFrom checks a CRD and builds the kind it serves (schema included). On failure it
// appends field.Error causes (`spec.versions: Invalid value: 2: only one version is supported in
// the sandbox`) and returns false.
bool CustomKindFrom(const api::Json& crd, api::KindInfo* out, std::vector<std::string>* causes);

// SetCustomResourceDefinitionStatus writes status.acceptedNames, storedVersions and the
// NamesAccepted and Established conditions (True), with `now` as lastTransitionTime.
void SetCustomResourceDefinitionStatus(api::Json& crd, const std::string& now);

}  // namespace apiserver::internal
