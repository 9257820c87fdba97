#pragma once
// Objects are JSON documents (nlohmann::json), immutable once stored and shared as
// shared_ptr<const Json>, so a watch delivery or a cache read copies nothing. These accessors
// read the metav1.ObjectMeta fields every layer needs, with Kubernetes' JSON names.
// Mirrors: apimachinery pkg/apis/meta/v1 (ObjectMeta, OwnerReference, GetControllerOf) and
// client-go tools/cache MetaNamespaceKeyFunc.
// Simplified: objects are untyped JSON; typed views over the fields a controller uses live
// beside the controller. Unknown fields are kept, as a real API server keeps them.
// Single-threaded; no time.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/api/internal/flat_object.h"

namespace api {

// Keys are kept sorted (in one vector per object, see flat_object.h), which is also the order
// `kubectl get -o yaml` prints, and makes equality order-insensitive like the API server's no-op
// write check.
using Json = nlohmann::basic_json<FlatObject>;
using ObjectPtr = std::shared_ptr<const Json>;

namespace internal {
// DestroyMembers and DestroyItems free an object's or an array's values depth first
// (json_destroy.cc): Json's destructor, below, calls them.
void DestroyMembers(Json::object_t* members) noexcept;
void DestroyItems(Json::array_t* items) noexcept;
}  // namespace internal

}  // namespace api

// Json's destructor frees nested values depth first, and lets go of a shared object's members
// without touching them (flat_object.h, "Sharing"). nlohmann's own destroy moves every nested
// value of every document through a heap stack, so that no nesting can overflow the call stack:
// for the shallow documents the simulation builds and drops by the million that costs more than
// the frees themselves, and it would empty a shared object for every sharer. Past a bounded
// depth json_destroy.cc frees the same way nlohmann does. An explicit specialization of
// nlohmann's member, declared right after the type so every translation unit sees it before
// any use (Json's destructor is the only caller).
template <>
inline void api::Json::json_value::destroy(nlohmann::detail::value_t t) {
  switch (t) {
    case nlohmann::detail::value_t::object:
      api::internal::DestroyMembers(object);
      break;
    case nlohmann::detail::value_t::array:
      api::internal::DestroyItems(array);
      break;
    case nlohmann::detail::value_t::string: {
      std::allocator<string_t> alloc;
      std::allocator_traits<decltype(alloc)>::destroy(alloc, string);
      std::allocator_traits<decltype(alloc)>::deallocate(alloc, string, 1);
      break;
    }
    case nlohmann::detail::value_t::binary: {
      std::allocator<binary_t> alloc;
      std::allocator_traits<decltype(alloc)>::destroy(alloc, binary);
      std::allocator_traits<decltype(alloc)>::deallocate(alloc, binary, 1);
      break;
    }
    default:
      break;
  }
}

namespace api {

// ObjectWithRoom is an empty JSON object with room for n members, for builders that know how many
// they add: a member buffer grown one insertion at a time is reallocated, and every member
// moved, at 1, 2, 4 and 8 members.
inline Json ObjectWithRoom(size_t n) {
  Json out = Json::object();
  out.get_ref<Json::object_t&>().reserve(n);
  return out;
}

// ShareStored copies a value of a stored object into a document that is stored right after (the
// API server's next version): an object views the stored object's members instead of copying
// them (flat_object.h, "Sharing"), an array is a new array whose objects are shared, anything
// else is copied. One rule keeps the stored object intact: nothing writes into a shared object
// in place (through at, find or an iterator); inserting, erasing and operator[] give it members
// of its own first. Sanitizer builds abort when it is broken (flat_object.h). The document may be
// stored, overwritten or destroyed: Json's destructor only lets go of shared members.
Json ShareStored(const Json& stored);

// ShareEachMember is an object of its own whose members are ShareStored copies of the stored
// object's members (null when `stored` is not an object), with room for `extra` more: members
// can then be set or erased in it without copying the rest, as the API server's writes that
// change one field of a stored object's spec or metadata need. The same rule applies.
Json ShareEachMember(const Json& stored, size_t extra = 1);

// ViewSameMembers: a and b are objects viewing one block of members (one a ShareStored copy of
// the other, or both of a third), so they are equal without comparing them.
inline bool ViewSameMembers(const Json& a, const Json& b) {
  const Json::object_t* x = a.get_ptr<const Json::object_t*>();
  const Json::object_t* y = b.get_ptr<const Json::object_t*>();
  return x != nullptr && y != nullptr && x->SameMembers(*y);
}

// MakeObject freezes a document into a shared immutable object: one block holds the control block
// and the document's root, and the last owner frees it with Json's destructor.
inline ObjectPtr MakeObject(Json doc) { return std::make_shared<Json>(std::move(doc)); }

struct OwnerReference {
  std::string apiVersion;
  std::string kind;
  std::string name;
  std::string uid;
  bool controller = false;
  bool blockOwnerDeletion = false;

  Json ToJson() const;
  static OwnerReference FromJson(const Json& j);
  // Describes is FromJson(j) == *this, read in place (no strings copied).
  bool Describes(const Json& j) const;
};

bool operator==(const OwnerReference& a, const OwnerReference& b);
inline bool operator!=(const OwnerReference& a, const OwnerReference& b) { return !(a == b); }

// String accessors return "" when the field is absent or not a string (GetString for a JSON
// pointer is in core/api/pointer.h).
std::string ApiVersion(const Json& obj);
std::string Kind(const Json& obj);
std::string Name(const Json& obj);
std::string GenerateName(const Json& obj);
std::string Namespace(const Json& obj);
std::string Uid(const Json& obj);
std::string ResourceVersion(const Json& obj);
// ParseResourceVersion reads a resourceVersion as the simulation's counter: -1 when it is not a
// non-negative decimal number. NOTE: resourceVersions are opaque to clients; only the caches
// that drop echoes older than what they hold compare them.
int64_t ParseResourceVersion(const std::string& rv);
std::string DeletionTimestamp(const Json& obj);
std::string CreationTimestamp(const Json& obj);
// Generation returns metadata.generation, or 0 when unset.
int64_t Generation(const Json& obj);
bool IsBeingDeleted(const Json& obj);

// Labels and Annotations return an ordered copy; an absent map and an empty map are both empty.
std::map<std::string, std::string> Labels(const Json& obj);
std::map<std::string, std::string> Annotations(const Json& obj);
std::vector<std::string> Finalizers(const Json& obj);
bool HasFinalizer(const Json& obj, const std::string& finalizer);
std::vector<OwnerReference> OwnerReferences(const Json& obj);
// FinalizersAre and OwnerReferencesAre compare Finalizers(obj) and OwnerReferences(obj) with
// `want` in place, for the watch handlers that keep them and see them unchanged on most updates.
bool FinalizersAre(const Json& obj, const std::vector<std::string>& want);
bool OwnerReferencesAre(const Json& obj, const std::vector<OwnerReference>& want);
// GetControllerOf returns the first ownerReference with controller=true (metav1.GetControllerOf).
std::optional<OwnerReference> GetControllerOf(const Json& obj);
// ControllerRef is that ownerReference read in place (nullptr when there is none), for the
// watch handlers that only compare its kind, name or uid on every delivery.
const Json* ControllerRef(const Json& obj);

// GroupOf returns the group of an apiVersion ("ray.io/v1" -> "ray.io", "v1" -> "").
std::string GroupOf(const std::string& api_version);

// ObjectKey is "namespace/name", or "name" for cluster-scoped objects (MetaNamespaceKeyFunc).
std::string ObjectKey(const Json& obj);
std::string ObjectKey(const std::string& ns, const std::string& name);
// ObjectKeyText is ObjectKey(obj) for a lookup, built in a buffer of its own: a watch delivery
// looks its object up in every cache that receives it, and a heap block per lookup would be ~1 %
// of a scale run under Node. Only a key longer than the buffer goes to the heap. Not copyable (the
// view points into this object).
class ObjectKeyText {
 public:
  explicit ObjectKeyText(const Json& obj);
  ObjectKeyText(const ObjectKeyText&) = delete;
  ObjectKeyText& operator=(const ObjectKeyText&) = delete;
  std::string_view view() const { return view_; }

 private:
  char buffer_[112];  // "namespace/name" of 63 + 1 + 48 characters fits
  std::string spill_;
  std::string_view view_;
};

// Mutable helpers for building a new version of an object (never used on stored documents).
Json& Metadata(Json& obj);
void SetLabel(Json& obj, const std::string& key, const std::string& value);
void SetAnnotation(Json& obj, const std::string& key, const std::string& value);

}  // namespace api
