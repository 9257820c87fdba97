#pragma once
// SiblingSpecs: the API server's storage keeps one copy of what Pods made from one template
// share. The Pods a ReplicaSet or a RayCluster worker group creates are built from one template
// and defaulted alike, so their container lists, init containers and volumes are equal (about
// 60 % of a KubeRay worker Pod's memory). At create, each structured member of the new Pod's spec
// that equals the same member of the last Pod stored with the same generateName becomes a view
// of it (api::ShareStored) instead of a copy of its own.
// Nothing observable changes: stored documents are immutable, sharing follows the rules of
// flat_object.h ("Sharing"), and a read, a copy or a later write sees the same values as before.
// It only saves memory, which the WebAssembly build pays for in first touches of fresh pages
// (docs/performance.md, "Memory is time").
// Not upstream: etcd stores every object's bytes on its own; this is storage layout, not API.
// Single-threaded; no time.

#include <memory>
#include <string>
#include <unordered_map>

#include "core/api/object.h"

namespace apiserver::internal {

class SiblingSpecs {
 public:
  // Share makes each object or array member of pod.spec that equals the last sibling's (same
  // namespace and generateName, still stored) a view of the sibling's. Call it on a Pod that is
  // about to be stored, after defaulting and validation.
  void Share(api::Json& pod) const;
  // Remember makes a just-stored Pod the sibling of the next Pods with its generateName.
  void Remember(const api::ObjectPtr& stored);

 private:
  static std::string KeyOf(const api::Json& pod);

  // "<namespace>/<generateName>" -> the last Pod stored with it. Weak: a deleted Pod is not
  // kept alive for its siblings. Bounded by kMaxEntries (cleared when full).
  std::unordered_map<std::string, std::weak_ptr<const api::Json>> last_;
};

}  // namespace apiserver::internal
