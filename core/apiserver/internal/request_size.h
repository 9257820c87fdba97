#pragma once
// RequestTooLarge: kube-apiserver's request body limit (3 MiB), checked without serialising
// every body. A walk of the document bounds its compact JSON size from above; only a body whose
// bound passes the limit is serialised to measure it exactly, so the verdict is the one
// `body.dump().size() > limit` gives, at no allocation for the ordinary small request.
// Mirrors: apiserver pkg/endpoints/handlers/rest.go limitedReadBody (the size check itself).
// Single-threaded; no time.

#include <cstddef>

#include "core/api/object.h"

namespace apiserver::internal {

// RequestTooLarge reports whether body, as compact JSON, is longer than limit bytes.
bool RequestTooLarge(const api::Json& body, size_t limit);

}  // namespace apiserver::internal
