#include "core/api/patch.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/api/go_text.h"

namespace api {
namespace {

using base::Status;
using base::StatusCode;
using base::StatusOr;

// MergeInto applies an RFC 7386 patch to target in place.
// mirrors evanphx/json-patch merge.go mergeDocs (RFC 7386 section 2 pseudo-code)
void MergeInto(Json& target, const Json& patch) {
  if (!patch.is_object()) {
    target = patch;
    return;
  }
  if (!target.is_object()) target = Json::object();
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    if (it.value().is_null()) {
      target.erase(it.key());
    } else {
      MergeInto(target[it.key()], it.value());
    }
  }
}

// DiffObjects returns the merge patch between two objects (both REQUIRED to be objects).
// mirrors evanphx/json-patch merge.go getDiff
Json DiffObjects(const Json& original, const Json& modified) {
  Json patch = Json::object();
  for (auto it = original.begin(); it != original.end(); ++it) {
    if (modified.find(it.key()) == modified.end()) patch[it.key()] = nullptr;
  }
  for (auto it = modified.begin(); it != modified.end(); ++it) {
    auto old = original.find(it.key());
    if (old == original.end()) {
      patch[it.key()] = it.value();
    } else if (old->is_object() && it.value().is_object()) {
      Json sub = DiffObjects(*old, it.value());
      if (!sub.empty()) patch[it.key()] = std::move(sub);
    } else if (*old != it.value()) {
      patch[it.key()] = it.value();
    }
  }
  return patch;
}

// ---- JSON patch (RFC 6902), evanphx/json-patch v4 semantics and messages --------------------

// GoTypeName names a JSON value the way encoding/json's UnmarshalTypeError does.
std::string GoJsonTypeName(const Json& v) {
  if (v.is_object()) return "object";
  if (v.is_array()) return "array";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_number()) return "number";
  return "null";
}

// An OpError is a jsonpatch error chain rendered as Go's errors.Wrapf would print it.
struct OpResult {
  bool ok = true;
  std::string message;
  bool missing = false;  // the cause is ErrMissing (test treats it as "absent")
};

OpResult OpOk() { return OpResult{}; }
OpResult OpFail(std::string message, bool missing = false) {
  OpResult r;
  r.ok = false;
  r.message = std::move(message);
  r.missing = missing;
  return r;
}
OpResult Wrap(const OpResult& cause, const std::string& context) {
  return OpFail(context + ": " + cause.message, cause.missing);
}

const char kErrMissing[] = "missing value";
const char kErrTestFailed[] = "test failed";
const char kErrInvalidIndex[] = "invalid index referenced";

// GoAtoi mirrors strconv.Atoi: optional sign, decimal digits, int64 range.
bool GoAtoi(const std::string& s, int64_t* out, std::string* err) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    negative = s[i] == '-';
    ++i;
  }
  if (i == s.size()) {
    *err = "strconv.Atoi: parsing \"" + s + "\": invalid syntax";
    return false;
  }
  uint64_t value = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') {
      *err = "strconv.Atoi: parsing \"" + s + "\": invalid syntax";
      return false;
    }
    value = value * 10 + static_cast<uint64_t>(s[i] - '0');
    if (value > (uint64_t{1} << 62)) {  // far beyond any array; keeps arithmetic safe
      *err = "strconv.Atoi: parsing \"" + s + "\": value out of range";
      return false;
    }
  }
  *out = negative ? -static_cast<int64_t>(value) : static_cast<int64_t>(value);
  return true;
}

OpResult InvalidIndex(int64_t idx) {
  return OpFail("Unable to access invalid index: " + std::to_string(idx) + ": " + kErrInvalidIndex);
}

// Container operations on an object or array node (evanphx partialDoc / partialArray).
// ContainerGet works on const and mutable nodes alike (JsonT is Json or const Json).
template <typename JsonT>
OpResult ContainerGet(JsonT& con, const std::string& key, JsonT** out) {
  if (con.is_object()) {
    auto it = con.find(key);
    if (it == con.end()) {
      return OpFail("unable to get nonexistent key: " + key + ": " + kErrMissing, true);
    }
    *out = &*it;
    return OpOk();
  }
  int64_t idx = 0;
  std::string err;
  if (!GoAtoi(key, &idx, &err)) return OpFail(err);
  const int64_t len = static_cast<int64_t>(con.size());
  if (idx < 0) {
    if (idx < -len) return InvalidIndex(idx);
    idx += len;
  }
  if (idx >= len) return InvalidIndex(idx);
  *out = &con[static_cast<size_t>(idx)];
  return OpOk();
}

OpResult ContainerAdd(Json& con, const std::string& key, Json value) {
  if (con.is_object()) {
    con[key] = std::move(value);
    return OpOk();
  }
  if (key == "-") {
    con.push_back(std::move(value));
    return OpOk();
  }
  int64_t idx = 0;
  std::string err;
  if (!GoAtoi(key, &idx, &err)) {
    return OpFail("value was not a proper array index: '" + key + "': " + err);
  }
  const int64_t size = static_cast<int64_t>(con.size()) + 1;
  if (idx >= size) return InvalidIndex(idx);
  if (idx < 0) {
    if (idx < -size) return InvalidIndex(idx);
    idx += size;
  }
  con.insert(con.begin() + static_cast<std::ptrdiff_t>(idx), std::move(value));
  return OpOk();
}

OpResult ContainerSet(Json& con, const std::string& key, Json value) {
  if (con.is_object()) {
    con[key] = std::move(value);
    return OpOk();
  }
  int64_t idx = 0;
  std::string err;
  if (!GoAtoi(key, &idx, &err)) return OpFail(err);
  const int64_t len = static_cast<int64_t>(con.size());
  if (idx < 0) {
    if (idx < -len) return InvalidIndex(idx);
    idx += len;
  }
  if (idx >= len) return InvalidIndex(idx);
  con[static_cast<size_t>(idx)] = std::move(value);
  return OpOk();
}

OpResult ContainerRemove(Json& con, const std::string& key) {
  if (con.is_object()) {
    if (con.find(key) == con.end()) {
      return OpFail("unable to remove nonexistent key: " + key + ": " + kErrMissing, true);
    }
    con.erase(key);
    return OpOk();
  }
  int64_t idx = 0;
  std::string err;
  if (!GoAtoi(key, &idx, &err)) return OpFail(err);
  const int64_t len = static_cast<int64_t>(con.size());
  if (idx >= len) return InvalidIndex(idx);
  if (idx < 0) {
    if (idx < -len) return InvalidIndex(idx);
    idx += len;
  }
  con.erase(static_cast<size_t>(idx));
  return OpOk();
}

// DecodePatchKey undoes RFC 6901 escaping in one pass ("~1" -> "/", "~0" -> "~").
std::string DecodePatchKey(const std::string& part) {
  std::string out;
  out.reserve(part.size());
  for (size_t i = 0; i < part.size(); ++i) {
    if (part[i] == '~' && i + 1 < part.size() && (part[i + 1] == '0' || part[i + 1] == '1')) {
      out.push_back(part[i + 1] == '0' ? '~' : '/');
      ++i;
    } else {
      out.push_back(part[i]);
    }
  }
  return out;
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    if (pos == std::string::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

// FindObject returns the container that holds the last segment of path, and that segment's key;
// null when a parent is missing or is not a container. Like evanphx, the text before the first
// "/" is ignored and "" has no parent.
// mirrors evanphx/json-patch patch.go findObject
Json* FindObject(Json& doc, const std::string& path, std::string* key) {
  std::vector<std::string> split = Split(path, '/');
  if (split.size() < 2) return nullptr;
  Json* cur = &doc;
  for (size_t i = 1; i + 1 < split.size(); ++i) {
    Json* next = nullptr;
    if (!ContainerGet(*cur, DecodePatchKey(split[i]), &next).ok) return nullptr;
    if (!next->is_object() && !next->is_array()) return nullptr;
    cur = next;
  }
  *key = DecodePatchKey(split.back());
  return cur;
}

// Operation accessors: Kind(), Path(), From(), value() of evanphx's Operation.
std::string OpKind(const Json& op) {
  if (!op.is_object()) return "unknown";
  auto it = op.find("op");
  if (it == op.end() || it->is_null() || !it->is_string()) return "unknown";
  return it->get<std::string>();
}

OpResult OpStringField(const Json& op, const char* field, std::string* out) {
  auto it = op.find(field);
  if (it == op.end() || it->is_null()) {
    return OpFail(std::string("operation missing ") + field + " field: " + kErrMissing, true);
  }
  if (!it->is_string()) {
    *out = "unknown";
    return OpFail("json: cannot unmarshal " + GoJsonTypeName(*it) + " into Go value of type string");
  }
  *out = it->get<std::string>();
  return OpOk();
}

// OpValue returns the "value" member, or null when absent (evanphx adds a JSON null then).
const Json* OpValue(const Json& op) {
  auto it = op.find("value");
  return it == op.end() ? nullptr : &*it;
}

// NestingExceeds reports whether value, placed at the JSON pointer path, would sit deeper than
// kMaxPatchDepth containers. The recursion stops one level past the limit, and documents reach
// here at most kMaxPatchDepth deep (ParsePatch, kMaxManifestDepth), so it cannot run away.
bool NestingExceeds(const std::string& path, const Json& value) {
  int depth = 0;
  for (char c : path) depth += c == '/' ? 1 : 0;  // one container per reference token
  struct Walk {
    static bool Exceeds(const Json& v, int depth) {
      if (!v.is_structured()) return false;
      if (++depth > kMaxPatchDepth) return true;
      for (const Json& child : v) {
        if (Exceeds(child, depth)) return true;
      }
      return false;
    }
  };
  return depth > kMaxPatchDepth || Walk::Exceeds(value, depth);
}

OpResult NestingFail(const std::string& op_name) {
  return OpFail(op_name + " operation does not apply: the result would nest deeper than " +
                std::to_string(kMaxPatchDepth) + " levels");
}

OpResult DoAdd(Json& doc, const Json& op) {
  std::string path;
  if (!OpStringField(op, "path", &path).ok) {
    return OpFail(std::string("add operation failed to decode path: ") + kErrMissing, true);
  }
  std::string key;
  Json* con = FindObject(doc, path, &key);
  if (con == nullptr) {
    return OpFail("add operation does not apply: doc is missing path: \"" + path + "\": " +
                      kErrMissing,
                  true);
  }
  const Json* value = OpValue(op);
  if (value != nullptr && NestingExceeds(path, *value)) return NestingFail("add");
  OpResult r = ContainerAdd(*con, key, value ? *value : Json());
  if (!r.ok) return Wrap(r, "error in add for path: '" + path + "'");
  return OpOk();
}

OpResult DoRemove(Json& doc, const Json& op) {
  std::string path;
  if (OpResult r = OpStringField(op, "path", &path); !r.ok) {
    return Wrap(r, "remove operation failed to decode path");
  }
  std::string key;
  Json* con = FindObject(doc, path, &key);
  if (con == nullptr) {
    return OpFail("remove operation does not apply: doc is missing path: \"" + path + "\": " +
                      kErrMissing,
                  true);
  }
  OpResult r = ContainerRemove(*con, key);
  if (!r.ok) return Wrap(r, "error in remove for path: '" + path + "'");
  return OpOk();
}

OpResult DoReplace(Json& doc, const Json& op) {
  std::string path;
  if (OpResult r = OpStringField(op, "path", &path); !r.ok) {
    return Wrap(r, "replace operation failed to decode path");
  }
  const Json* value = OpValue(op);
  if (value != nullptr && NestingExceeds(path, *value)) return NestingFail("replace");
  if (path.empty()) {
    // The whole document: evanphx only accepts an object or an array here.
    if (value == nullptr || (!value->is_object() && !value->is_array())) {
      return OpFail("replace operation value must be object or array");
    }
    doc = *value;
    return OpOk();
  }
  std::string key;
  Json* con = FindObject(doc, path, &key);
  if (con == nullptr) {
    return OpFail("replace operation does not apply: doc is missing path: " + path + ": " +
                      kErrMissing,
                  true);
  }
  Json* existing = nullptr;
  if (!ContainerGet(*con, key, &existing).ok) {
    return OpFail("replace operation does not apply: doc is missing key: " + path + ": " +
                      kErrMissing,
                  true);
  }
  OpResult r = ContainerSet(*con, key, value ? *value : Json());
  if (!r.ok) return Wrap(r, "error in replace for path: '" + path + "'");
  return OpOk();
}

OpResult DoMove(Json& doc, const Json& op) {
  std::string from;
  if (OpResult r = OpStringField(op, "from", &from); !r.ok) {
    return Wrap(r, "move operation failed to decode from");
  }
  std::string from_key;
  Json* from_con = FindObject(doc, from, &from_key);
  if (from_con == nullptr) {
    return OpFail("move operation does not apply: doc is missing from path: " + from + ": " +
                      kErrMissing,
                  true);
  }
  Json* found = nullptr;
  if (OpResult r = ContainerGet(*from_con, from_key, &found); !r.ok) {
    return Wrap(r, "error in move for path: '" + from_key + "'");
  }
  Json value = *found;
  if (OpResult r = ContainerRemove(*from_con, from_key); !r.ok) {
    return Wrap(r, "error in move for path: '" + from_key + "'");
  }
  std::string path;
  if (OpResult r = OpStringField(op, "path", &path); !r.ok) {
    return Wrap(r, "move operation failed to decode path");
  }
  std::string key;
  Json* con = FindObject(doc, path, &key);
  if (con == nullptr) {
    return OpFail("move operation does not apply: doc is missing destination path: " + path +
                      ": " + kErrMissing,
                  true);
  }
  if (NestingExceeds(path, value)) return NestingFail("move");
  if (OpResult r = ContainerAdd(*con, key, std::move(value)); !r.ok) {
    return Wrap(r, "error in move for path: '" + path + "'");
  }
  return OpOk();
}

// CopySize is the size deepCopy reports for a copied value: the length of its encoding by Go's
// json.Marshal (which escapes <, > and & as \u003c...), counted without building the text and
// given up once it passes cap, so a patch near the limit costs no more than the limit.
int64_t CopySize(const Json& value, int64_t cap) {
  int64_t size = 0;
  std::vector<const Json*> stack = {&value};
  while (!stack.empty() && size <= cap) {
    const Json* v = stack.back();
    stack.pop_back();
    if (v->is_string()) {
      size += 2;
      for (unsigned char c : v->get_ref<const std::string&>()) {
        if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t') {
          size += 2;
        } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
          size += 6;
        } else {
          size += 1;
        }
      }
    } else if (v->is_object()) {
      // Braces, commas between members, and per member its quoted key and a colon.
      size += v->empty() ? 2 : 1 + static_cast<int64_t>(v->size());
      for (const auto& [key, child] : v->items()) {
        size += 3 + static_cast<int64_t>(key.size());
        stack.push_back(&child);
      }
    } else if (v->is_array()) {
      size += v->empty() ? 2 : 1 + static_cast<int64_t>(v->size());
      for (const Json& child : *v) stack.push_back(&child);
    } else {
      size += static_cast<int64_t>(v->dump().size());  // null, booleans, numbers
    }
  }
  return size;
}

// DoCopy adds the size of every copied value to *accumulated and fails beyond
// kJsonPatchMaxCopyBytes, so a patch cannot double a document op after op.
// mirrors evanphx/json-patch v4 patch.go copy (AccumulatedCopySizeLimit)
OpResult DoCopy(Json& doc, const Json& op, int64_t* accumulated) {
  std::string from;
  if (OpResult r = OpStringField(op, "from", &from); !r.ok) {
    return Wrap(r, "copy operation failed to decode from");
  }
  std::string from_key;
  Json* from_con = FindObject(doc, from, &from_key);
  if (from_con == nullptr) {
    return OpFail("copy operation does not apply: doc is missing from path: " + from + ": " +
                      kErrMissing,
                  true);
  }
  Json* found = nullptr;
  if (OpResult r = ContainerGet(*from_con, from_key, &found); !r.ok) {
    return Wrap(r, "error in copy for from: '" + from + "'");
  }
  Json value = *found;
  std::string path;
  if (OpResult r = OpStringField(op, "path", &path); !r.ok) {
    return Wrap(r, "copy operation failed to decode path");
  }
  std::string key;
  Json* con = FindObject(doc, path, &key);
  if (con == nullptr) {
    return OpFail("copy operation does not apply: doc is missing destination path: " + path +
                      ": " + kErrMissing,
                  true);
  }
  if (NestingExceeds(path, value)) return NestingFail("copy");
  *accumulated += CopySize(value, kJsonPatchMaxCopyBytes - *accumulated);
  if (*accumulated > kJsonPatchMaxCopyBytes) {
    return OpFail("Unable to complete the copy, the accumulated size increase of copy is " +
                  std::to_string(*accumulated) + ", exceeding the limit " +
                  std::to_string(kJsonPatchMaxCopyBytes));
  }
  if (OpResult r = ContainerAdd(*con, key, std::move(value)); !r.ok) {
    return Wrap(r, "error while adding value during copy");
  }
  return OpOk();
}

OpResult DoTest(Json& doc, const Json& op) {
  std::string path;
  if (OpResult r = OpStringField(op, "path", &path); !r.ok) {
    return Wrap(r, "test operation failed to decode path");
  }
  const Json* want = OpValue(op);
  const std::string failed =
      "testing value " + path + " failed: " + std::string(kErrTestFailed);
  if (path.empty()) {
    if (want != nullptr && *want == doc) return OpOk();
    return OpFail(failed);
  }
  std::string key;
  Json* con = FindObject(doc, path, &key);
  if (con == nullptr) {
    return OpFail("test operation does not apply: is missing path: " + path + ": " + kErrMissing,
                  true);
  }
  Json* got = nullptr;
  OpResult r = ContainerGet(*con, key, &got);
  if (!r.ok && !r.missing) return Wrap(r, "error in test for path: '" + path + "'");
  if (got == nullptr) {
    // An absent member passes a test for null (evanphx's lazyNode nil rule).
    if (want == nullptr || want->is_null()) return OpOk();
    return OpFail(failed);
  }
  if (want == nullptr) return OpFail(failed);
  if (*got == *want) return OpOk();
  return OpFail(failed);
}

// ---- ParsePatch ---------------------------------------------------------------------------

// ErrorCapture is a SAX handler that only remembers the parse error (nlohmann hands it the
// exception object instead of throwing when the handler returns false).
class ErrorCapture : public nlohmann::json_sax<Json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    message_ = ex.what();
    return false;
  }
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

}  // namespace

Json ApplyMergePatch(const Json& target, const Json& patch) {
  Json result = target;
  MergeInto(result, patch);
  return result;
}

Json CreateMergePatch(const Json& original, const Json& modified) {
  if (!original.is_object() || !modified.is_object()) return modified;
  return DiffObjects(original, modified);
}

// mirrors evanphx/json-patch patch.go DecodePatch + Patch.Apply, with the status codes of
// apiserver pkg/endpoints/handlers/patch.go applyJSPatch.
StatusOr<Json> ApplyJsonPatch(const Json& target, const Json& ops) {
  if (ops.is_null()) return target;  // encoding/json decodes null into an empty patch
  if (!ops.is_array()) {
    return Status(StatusCode::kBadRequest, "json: cannot unmarshal " + GoJsonTypeName(ops) +
                                               " into Go value of type jsonpatch.Patch");
  }
  for (const Json& op : ops) {
    if (!op.is_object() && !op.is_null()) {
      return Status(StatusCode::kBadRequest, "json: cannot unmarshal " + GoJsonTypeName(op) +
                                                 " into Go value of type jsonpatch.Operation");
    }
  }
  if (ops.size() > static_cast<size_t>(kMaxJsonPatchOperations)) {
    return Status(StatusCode::kRequestEntityTooLarge,
                  "The allowed maximum operations in a JSON patch is " +
                      std::to_string(kMaxJsonPatchOperations) + ", got " +
                      std::to_string(ops.size()));
  }
  Json doc = target;
  int64_t copied = 0;  // bytes added by "copy" operations so far
  for (const Json& op : ops) {
    const std::string kind = OpKind(op);
    OpResult r;
    if (kind == "add") {
      r = DoAdd(doc, op);
    } else if (kind == "remove") {
      r = DoRemove(doc, op);
    } else if (kind == "replace") {
      r = DoReplace(doc, op);
    } else if (kind == "move") {
      r = DoMove(doc, op);
    } else if (kind == "test") {
      r = DoTest(doc, op);
    } else if (kind == "copy") {
      r = DoCopy(doc, op, &copied);
    } else {
      r = OpFail("Unexpected kind: " + kind);
    }
    if (!r.ok) return Status(StatusCode::kInvalid, r.message);
  }
  return doc;
}

// Checked before parsing because copying, merging or printing a parsed document recurses.
bool ExceedsMaxPatchDepth(const std::string& text) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxPatchDepth) return true;
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return false;
}

// mirrors kubectl pkg/cmd/patch/patch.go: `unable to parse %q: %v`
StatusOr<Json> ParsePatch(const std::string& text) {
  if (ExceedsMaxPatchDepth(text)) {
    // go-yaml's wording for the same guard (kubectl reads -p through sigs.k8s.io/yaml).
    return Status(StatusCode::kBadRequest, "unable to parse " + GoQuote(text) +
                                               ": exceeded max depth of " +
                                               std::to_string(kMaxPatchDepth));
  }
  Json parsed = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_discarded()) return parsed;
  ErrorCapture capture;
  Json::sax_parse(text, &capture, nlohmann::detail::input_format_t::json, /*strict=*/true);
  std::string reason = capture.message();
  // Drop nlohmann's "[json.exception.parse_error.101] " tag; keep its description.
  if (!reason.empty() && reason[0] == '[') {
    size_t close = reason.find("] ");
    if (close != std::string::npos) reason = reason.substr(close + 2);
  }
  if (reason.empty()) reason = "invalid JSON";
  return Status(StatusCode::kBadRequest, "unable to parse " + GoQuote(text) + ": " + reason);
}

}  // namespace api
