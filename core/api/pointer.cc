#include "core/api/pointer.h"

#include <string>

#include "core/api/well_known_keys.h"

namespace api {
namespace {

// WellFormed applies json_pointer::split's checks: empty, or starting with '/', with every '~'
// followed by '0' or '1'.
bool WellFormed(std::string_view p) {
  if (p.empty()) return true;
  if (p[0] != '/') return false;
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

// Child steps from `at` into one token, as json_pointer::contains does for each reference token.
Step Child(const Json*& at, std::string_view token) {
  if (at->is_object()) {
    const Json* member = token.find('~') == std::string_view::npos
                             ? Lookup(*at, token)
                             : Lookup(*at, Unescape(token));
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

}  // namespace

const Json* FindPointer(const Json& doc, std::string_view pointer) {
  if (!WellFormed(pointer)) {
    const Json::json_pointer ptr{std::string(pointer)};  // throws parse_error, as before
    return doc.contains(ptr) ? &doc.at(ptr) : nullptr;
  }
  const Json* at = &doc;
  size_t start = 1;
  while (start <= pointer.size() && !pointer.empty()) {
    size_t slash = pointer.find('/', start);
    if (slash == std::string_view::npos) slash = pointer.size();
    switch (Child(at, pointer.substr(start, slash - start))) {
      case Step::kFound:
        break;
      case Step::kAbsent:
        return nullptr;
      case Step::kDelegate: {
        const Json::json_pointer ptr{std::string(pointer)};
        return doc.contains(ptr) ? &doc.at(ptr) : nullptr;
      }
    }
    start = slash + 1;
  }
  return at;
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
