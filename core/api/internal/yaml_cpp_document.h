#pragma once
// YamlCppDocumentToJson: one YAML document to JSON through yaml-cpp's event parser, with go-yaml
// v2's typing (resolve.go), sigs.k8s.io/yaml's key conversion (convertToJSONableObject), merge
// keys, anchors with go-yaml's aliasing bound, and go-yaml's wording for yaml-cpp's errors. It
// decodes every document DecodeSimpleYaml declines, and words every YAML error `apply` reports.
// This is the only code in core/ that catches exceptions: yaml-cpp reports errors by throwing.
// Mirrors: sigs.k8s.io/yaml YAMLToJSON over go-yaml v2 (decode.go, resolve.go).
// Single-threaded; no time.

#include <string>

#include "core/api/object.h"

namespace api::internal {

// YamlCppDocumentToJson converts one document chunk (the text between `---` separators). It
// returns false with *error set ("yaml: line 3: ...") on failure; a chunk with no document (only
// comments or blanks) sets *doc to null.
bool YamlCppDocumentToJson(const std::string& chunk, Json* doc, std::string* error);

}  // namespace api::internal
