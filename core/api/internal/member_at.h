#pragma once
// MemberAt, TextAt and MetaText read a member under an interned key (well_known_keys.h,
// pod_keys.h) in place: each step of the lookup compares key pointers. The named accessors of
// core/api/fields.h are built on them.
// Single-threaded; no time.

#include <string>

#include "core/api/internal/interned_key.h"
#include "core/api/internal/well_known_keys.h"
#include "core/api/object.h"

namespace api::internal {

// MemberAt is obj[a], or obj[a][b], when every step is an object holding the key; else nullptr.
inline const Json* MemberAt(const Json& obj, const InternedKey& a) {
  const Json::object_t* members = obj.get_ptr<const Json::object_t*>();
  if (members == nullptr) return nullptr;
  auto it = members->find(a);
  return it == members->end() ? nullptr : &it->second;
}
inline const Json* MemberAt(const Json& obj, const InternedKey& a, const InternedKey& b) {
  const Json* first = MemberAt(obj, a);
  return first == nullptr ? nullptr : MemberAt(*first, b);
}

// NoText is what TextAt answers when there is no string (a local static: static initialisers
// may read fields too).
inline const std::string& NoText() {
  static const std::string empty;
  return empty;
}

// TextAt is obj[key] when it is a string, else "" (absent, another type, obj not an object), by
// reference (the string lives as long as obj).
inline const std::string& TextAt(const Json& obj, const InternedKey& key) {
  const Json* v = MemberAt(obj, key);
  return v != nullptr && v->is_string() ? *v->get_ptr<const std::string*>() : NoText();
}
// MetaText is TextAt of metadata.<key>.
inline const std::string& MetaText(const Json& obj, const InternedKey& key) {
  const Json* meta = MemberAt(obj, keys::Metadata());
  return meta != nullptr ? TextAt(*meta, key) : NoText();
}

}  // namespace api::internal
