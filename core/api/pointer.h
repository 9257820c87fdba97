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

namespace api {

// FindPointer returns the value at `pointer` in doc, or nullptr when the path is absent (a
// missing key, an index past the end or not a plain decimal, "-", or a scalar on the way).
const Json* FindPointer(const Json& doc, std::string_view pointer);

// Member returns obj[a], or obj[a][b] when b is given, if every step is an object holding the
// key; otherwise nullptr. For the fixed one- or two-key reads of hot paths (no pointer to parse).
const Json* Member(const Json& obj, std::string_view a, const char* b = nullptr);
// MemberAt is Member for interned keys (well_known_keys.h): each step compares key pointers.
const Json* MemberAt(const Json& obj, const InternedKey& a);
const Json* MemberAt(const Json& obj, const InternedKey& a, const InternedKey& b);
// TextAt is obj[key] when it is a string, else "" (absent, another type, obj not an object), by
// reference: for the reads that only compare or view (the string lives as long as obj).
const std::string& TextAt(const Json& obj, const InternedKey& key);
// MetaText is TextAt of metadata.<key>.
const std::string& MetaText(const Json& obj, const InternedKey& key);

// GetString returns the string at pointer (as FindPointer finds it), else "": object.h's
// GetString without building a json_pointer.
std::string GetString(const Json& doc, std::string_view pointer);

// MemberString returns obj[key] when it is a string, else "" (absent, null, another type).
std::string MemberString(const Json& obj, std::string_view key);

}  // namespace api
