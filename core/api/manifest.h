#pragma once
// DecodeManifests turns the text of `kubectl apply -f FILE` into objects: YAML (several documents
// split by `---` lines) or JSON (one object or several concatenated), with `kind: List` and other
// `*List` documents flattened into their items and empty documents skipped.
// Mirrors: apimachinery pkg/util/yaml (YAMLOrJSONDecoder, YAMLReader), sigs.k8s.io/yaml
// YAMLToJSON (go-yaml v2 typing: yes/no/on/off are booleans, quoted scalars stay strings) and the
// kubectl resource builder's "unable to decode" checks.
// Simplified: yaml-cpp parses instead of go-yaml, so syntax messages are yaml-cpp's translated to
// go-yaml's wording where a counterpart exists, and their line numbers may differ by one; only the
// first document of a chunk ending in `...` is read, as go-yaml does. yaml-cpp accepts a few
// malformed inputs go-yaml rejects (an unterminated quoted scalar at the end of the input).
// Single-threaded; no time. The only place in core/ that catches exceptions (yaml-cpp's).

#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/status.h"

namespace api {

// kMaxManifestDepth bounds how deeply maps and lists may nest in one document, so no recursive
// code can exhaust the stack: JSON is measured before nlohmann parses it, and yaml-cpp's recursive
// parser is stopped when it opens the collection one level too deep.
inline constexpr int kMaxManifestDepth = 200;

// DecodeManifests returns the objects of text in order. source_name names the input in messages
// ("ray-cluster.yaml", "STDIN"). Errors are kBadRequest with kubectl's wording, without the
// leading "error: " that kubectl's printer adds:
//   error parsing SRC: error converting YAML to JSON: yaml: line 3: mapping values are not
//     allowed in this context
//   unable to decode "SRC": Object 'Kind' is missing in '{"apiVersion":"v1",...}'
// Numbers follow the API server's decoding: integral values become int64, others double.
// Linear in the size of text.
base::StatusOr<std::vector<Json>> DecodeManifests(const std::string& text,
                                                  const std::string& source_name);

}  // namespace api
