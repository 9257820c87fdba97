#pragma once
// FindPointer reads the value at an RFC 6901 JSON pointer written as text ("/status/conditions",
// "/spec/selector/ray.io~1cluster", "/spec/containers/0/name") without building a json_pointer:
// no token vector, no string per token, one walk instead of contains() followed by at().
// Mirrors: nlohmann::json_pointer (split, unescape, contains) — the answer is exactly
// `doc.contains(json_pointer(p)) ? &doc.at(json_pointer(p)) : nullptr`, including the exceptions a
// malformed pointer throws (those cases are handed to json_pointer itself).
// Single-threaded; no time.

#include <string>
#include <string_view>

#include "core/api/object.h"

namespace api {

// FindPointer returns the value at `pointer` in doc, or nullptr when the path is absent (a
// missing key, an index past the end or not a plain decimal, "-", or a scalar on the way).
const Json* FindPointer(const Json& doc, std::string_view pointer);

// Member returns obj[a], or obj[a][b] when b is given, if every step is an object holding the
// key; otherwise nullptr.
const Json* Member(const Json& obj, std::string_view a, const char* b = nullptr);
// GetString returns the string at pointer (as FindPointer finds it), else "": object.h's
// GetString without building a json_pointer.
std::string GetString(const Json& doc, std::string_view pointer);

// MemberString returns obj[key] when it is a string, else "" (absent, null, another type).
std::string MemberString(const Json& obj, std::string_view key);

}  // namespace api
