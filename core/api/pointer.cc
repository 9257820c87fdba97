#include "core/api/pointer.h"

#include <string>

#include "core/api/internal/well_known_keys.h"

namespace api {
namespace {

// EscapesWellFormed applies json_pointer::split's escape rule to text: every '~' is followed by
// '0' or '1'.
bool EscapesWellFormed(std::string_view p) {
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '~' && (i + 1 == p.size() || (p[i + 1] != '0' && p[i + 1] != '1'))) return false;
  }
  return true;
}

// Unescape decodes ~1 as '/' and ~0 as '~' (json_pointer's unescape on a well-formed token).
std::string Unescape(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~') {
      out.push_back(token[i + 1] == '1' ? '/' : '~');
      ++i;
    } else {
      out.push_back(token[i]);
    }
  }
  return out;
}

// kMaxIndexDigits keeps an index well inside size_t; longer digit runs go to json_pointer, whose
// array_index decides (it throws on overflow).
constexpr size_t kMaxIndexDigits = 18;

enum class Step { kFound, kAbsent, kDelegate };

// Lookup finds a member of an object on its api::FlatObject directly: nlohmann's find builds and
// compares two iterators per call, which cost as much as the search on these hot reads.
const Json* Lookup(const Json& obj, std::string_view key) {
  const Json::object_t* members = obj.get_ptr<const Json::object_t*>();
  if (members == nullptr) return nullptr;
  auto it = members->find(key);
  return it == members->end() ? nullptr : &it->second;
}

// Child steps from `at` into one token (`escaped`: it holds a ~0 or ~1), as
// json_pointer::contains does for each reference token.
Step Child(const Json*& at, std::string_view token, bool escaped) {
  if (at->is_object()) {
    const Json* member = escaped ? Lookup(*at, Unescape(token)) : Lookup(*at, token);
    if (member == nullptr) return Step::kAbsent;
    at = member;
    return Step::kFound;
  }
  if (at->is_array()) {
    // json_pointer throws for an empty token and may throw for a huge index: let it.
    if (token.empty() || token.size() > kMaxIndexDigits) return Step::kDelegate;
    if (token.size() > 1 && token[0] == '0') return Step::kAbsent;
    size_t index = 0;
    for (char c : token) {
      if (c < '0' || c > '9') return Step::kAbsent;
      index = index * 10 + static_cast<size_t>(c - '0');
    }
    if (index >= at->size()) return Step::kAbsent;
    at = &(*at)[index];
    return Step::kFound;
  }
  return Step::kAbsent;
}

// ByJsonPointer answers as json_pointer does: it throws parse_error for a malformed pointer.
const Json* ByJsonPointer(const Json& doc, std::string_view pointer) {
  const Json::json_pointer ptr{std::string(pointer)};
  return doc.contains(ptr) ? &doc.at(ptr) : nullptr;
}

}  // namespace

// One pass over the text: each token is checked (json_pointer::split's rules), then looked up.
// A token not found still leaves the rest to check, since a malformed pointer throws.
const Json* FindPointer(const Json& doc, std::string_view pointer) {
  if (pointer.empty()) return &doc;
  if (pointer[0] != '/') return ByJsonPointer(doc, pointer);
  const Json* at = &doc;
  const char* p = pointer.data() + 1;
  const char* const end = pointer.data() + pointer.size();
  for (;;) {
    const char* token = p;
    bool escaped = false;
    for (; p != end && *p != '/'; ++p) {
      if (*p != '~') continue;
      if (p + 1 == end || (p[1] != '0' && p[1] != '1')) return ByJsonPointer(doc, pointer);
      escaped = true;
      ++p;
    }
    switch (Child(at, std::string_view(token, static_cast<size_t>(p - token)), escaped)) {
      case Step::kFound:
        break;
      case Step::kAbsent:
        return EscapesWellFormed(std::string_view(p, static_cast<size_t>(end - p)))
                   ? nullptr
                   : ByJsonPointer(doc, pointer);
      case Step::kDelegate:
        return ByJsonPointer(doc, pointer);
    }
    if (p == end) return at;
    ++p;  // past the '/'
  }
}

const Json* Member(const Json& obj, std::string_view a, const char* b) {
  const Json* first = Lookup(obj, a);
  if (first == nullptr || b == nullptr) return first;
  return Lookup(*first, b);
}

std::string GetString(const Json& doc, std::string_view pointer) {
  const Json* v = FindPointer(doc, pointer);
  return v != nullptr && v->is_string() ? v->get_ref<const std::string&>() : std::string();
}

std::string MemberString(const Json& obj, std::string_view key) {
  const Json* v = Member(obj, key);
  return v != nullptr && v->is_string() ? v->get_ref<const std::string&>() : std::string();
}

}  // namespace api
