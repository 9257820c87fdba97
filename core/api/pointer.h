#pragma once
// FindPointer reads the value at an RFC 6901 JSON pointer written as text ("/status/conditions",
// "/spec/selector/ray.io~1cluster", "/spec/containers/0/name") without building a json_pointer:
// no token vector, no string per token, one walk instead of contains() followed by at(). The hot
// accessors of the controllers and the world call it for every field they read.
// Mirrors: nlohmann::json_pointer (split, unescape, contains) — the answer is exactly
// `doc.contains(json_pointer(p)) ? &doc.at(json_pointer(p)) : nullptr`, including the exceptions a
// malformed pointer throws (those cases are handed to json_pointer itself).
// Single-threaded; no time.

#include <string>
#include <string_view>

#include "core/api/interned_key.h"
#include "core/api/object.h"
#include "core/api/well_known_keys.h"

namespace api {

// FindPointer returns the value at `pointer` in doc, or nullptr when the path is absent (a
// missing key, an index past the end or not a plain decimal, "-", or a scalar on the way).
const Json* FindPointer(const Json& doc, std::string_view pointer);

// Member returns obj[a], or obj[a][b] when b is given, if every step is an object holding the
// key; otherwise nullptr. For the fixed one- or two-key reads of hot paths (no pointer to parse).
const Json* Member(const Json& obj, std::string_view a, const char* b = nullptr);
// The four readers below are inline: every layer calls them for every field of every event
// (~1,400 times per Pod in the 11,000-Pod scenario), so a call costs as much as the lookup.

// MemberAt is Member for interned keys (well_known_keys.h): each step compares key pointers.
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

namespace internal {
// NoText is what TextAt answers when there is no string (a local static: static initialisers
// may read fields too).
inline const std::string& NoText() {
  static const std::string empty;
  return empty;
}
}  // namespace internal

// TextAt is obj[key] when it is a string, else "" (absent, another type, obj not an object), by
// reference: for the reads that only compare or view (the string lives as long as obj).
inline const std::string& TextAt(const Json& obj, const InternedKey& key) {
  const Json* v = MemberAt(obj, key);
  return v != nullptr && v->is_string() ? *v->get_ptr<const std::string*>() : internal::NoText();
}
// MetaText is TextAt of metadata.<key>.
inline const std::string& MetaText(const Json& obj, const InternedKey& key) {
  const Json* meta = MemberAt(obj, keys::Metadata());
  return meta != nullptr ? TextAt(*meta, key) : internal::NoText();
}

// GetString returns the string at pointer (as FindPointer finds it), else "": object.h's
// GetString without building a json_pointer.
std::string GetString(const Json& doc, std::string_view pointer);

// MemberString returns obj[key] when it is a string, else "" (absent, null, another type).
std::string MemberString(const Json& obj, std::string_view key);

}  // namespace api
