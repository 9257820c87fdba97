#pragma once
// ToApiNumber: how the API server reads a JSON number into an unstructured object. Both YAML
// decoders (yaml-cpp's events and the simple block decoder) and the JSON stream decoder type
// numbers with it, so a manifest gives the same document whichever path decoded it.
// Mirrors: apimachinery runtime/converter.go (unstructured JSON numbers become int64 or float64).
// Single-threaded; no time.

#include "core/api/object.h"

namespace api::internal {

// ToApiNumber returns an exact int64 for a number that is one (sigs.k8s.io/yaml writes 1.0 as 1),
// a double for any other number, and v unchanged when it is not a number.
Json ToApiNumber(const Json& v);

}  // namespace api::internal
