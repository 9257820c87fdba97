#pragma once
// SiblingSpecs is the API server's storage-side sharing of equal spec members between Pods made
// from one template: api::SiblingSpecs (core/api/sibling_specs.h), under the name ApiServer
// holds it by (api_server.h).
// Single-threaded; no time.

#include "core/api/sibling_specs.h"

namespace apiserver::internal {

class SiblingSpecs : public api::SiblingSpecs {};

}  // namespace apiserver::internal
