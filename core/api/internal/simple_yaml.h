#pragma once
// DecodeSimpleYaml: a fast decoder for the YAML people write for Kubernetes, tried before
// yaml-cpp. yaml-cpp's scanner costs ~1.3 M instructions per RayCluster manifest, most of an
// `apply` of many objects; this decoder reads the same document in one pass over its lines.
//
// It accepts only a subset it can decode exactly as the yaml-cpp path does (manifest.cc
// JsonBuilder: go-yaml v2 typing, sigs.k8s.io/yaml key conversion), and declines everything
// else, so the yaml-cpp path keeps deciding every error message and every rare construct:
//  - printable ASCII and newlines only (no tabs, CR or other bytes, comments included);
//  - a root block mapping at column 0; block mappings and block sequences (`- ` items, a
//    sequence may sit at its key's column), compact mappings in items (`- name: x`);
//  - keys of letters, digits and `_-./` that type as strings (so not `y`, `1`, `null`, `<<`);
//  - one-line scalars: plain (typed as go-yaml v2 does), "double-quoted" without escapes,
//    'single-quoted' without '' escapes; one-line flow collections (`{cpu: 1}`, `[a, "b"]`);
//  - comments on their own lines or after a space.
// Declined: anchors, aliases, tags, block scalars (| >), multi-line scalars, multi-line flow,
// `? ` keys, directives and markers, nesting deeper than 64, and anything malformed.
// The differential test and fuzz_manifest check that an accepted document decodes to exactly
// what the yaml-cpp path gives.
// Single-threaded; no time.

#include <string_view>

#include "core/api/object.h"

namespace api::internal {

// DecodeSimpleYaml decodes one document (the text between `---` separators). It returns true
// with *doc set (null for a document of only comments and blank lines), or false, leaving *doc
// untouched, when the text is outside the subset above.
bool DecodeSimpleYaml(std::string_view chunk, Json* doc);

}  // namespace api::internal
