#pragma once
// SiblingSpecs: the API server's storage keeps one copy of what Pods made from one template
// share. The Pods a ReplicaSet or a RayCluster worker group creates are built from one template
// and defaulted alike, so their container lists, init containers and volumes are equal (about
// 60 % of a KubeRay worker Pod's memory). At create, each structured member of the new Pod's spec
// that equals the same member of the last Pod stored with the same generateName becomes a view
// of it (ShareStored) instead of a copy of its own. A Pod whose spec arrives as a view of
// the block its last sibling's arrived as (one template, stamped per Pod) takes that sibling's
// whole defaulted spec instead of being defaulted and compared again (TakeDefaultedSpec).
// Nothing observable changes: stored documents are immutable, sharing follows the rules of
// internal/flat_object.h ("Sharing"), and a read, a copy or a later write sees the
// same values as before.
// It only saves memory, which the WebAssembly build pays for in first touches of fresh pages
// (docs/performance.md, "What each mechanism buys").
// Not upstream: etcd stores every object's bytes on its own; this is storage layout, not API.
// Single-threaded; no time.

#include <memory>
#include <string>
#include <unordered_map>

#include "core/api/object.h"

namespace api {

class SiblingSpecs {
 public:
  // TakeDefaultedSpec runs before defaulting. A controller that creates several Pods from one
  // template may hand each a spec that views the template's (ShareEachMember; KubeRay's
  // worker Pods): when pod.spec views the block the last sibling's spec arrived as, the sibling
  // was defaulted from the same spec, and defaulting a Pod reads nothing but its spec
  // (ApplyDefaults), so pod.spec becomes a view of the sibling's stored spec and this
  // returns true: the caller skips defaulting. Otherwise a spec that views another document's
  // block is given members of its own (defaulting writes below its top level in place), and
  // *arrived keeps a view of that block for Remember.
  bool TakeDefaultedSpec(Json& pod, Json* arrived) const;
  // Share makes each object or array member of pod.spec that equals the last sibling's (same
  // namespace and generateName, still stored) a view of the sibling's. Call it on a Pod that is
  // about to be stored, after defaulting and validation.
  void Share(Json& pod) const;
  // Remember makes a just-stored Pod the sibling of the next Pods with its generateName;
  // `arrived` is what TakeDefaultedSpec kept (null: the spec was the Pod's own).
  void Remember(const ObjectPtr& stored, Json arrived = nullptr);

 private:
  struct Last {
    // Weak: a deleted Pod is not kept alive for its siblings.
    std::weak_ptr<const Json> pod;
    // A view of the block the Pod's spec arrived as (null: its own). It keeps the block alive,
    // so no other block can take its address while it stands for the sibling's input.
    Json arrived;
  };

  static std::string KeyOf(const Json& pod);
  // ForgetUnsharedArrivals drops the views no body can still match: those of blocks nothing
  // else holds (the template and every Pod built from it are gone).
  void ForgetUnsharedArrivals();

  // "<namespace>/<generateName>" -> the last Pod stored with it. Bounded by kMaxEntries
  // (cleared when full).
  std::unordered_map<std::string, Last> last_;
  size_t remembered_ = 0;  // Remember calls, for the periodic ForgetUnsharedArrivals
};

}  // namespace api
