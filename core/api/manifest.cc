#include "core/api/manifest.h"

#include <utility>

#include "core/api/internal/api_number.h"
#include "core/api/internal/simple_yaml.h"
#include "core/api/internal/yaml_cpp_document.h"
#include "core/api/yaml.h"

namespace api {
namespace {

using base::Status;
using base::StatusCode;

const char kGoTypeStruct[] =
    "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string "
    "\"json:\\\"kind,omitempty\\\"\" }";

Status BadRequest(std::string message) {
  return Status(StatusCode::kBadRequest, std::move(message));
}

std::string Compact(const Json& doc) {
  return doc.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// GoJsonType names a JSON value the way encoding/json's UnmarshalTypeError does.
const char* GoJsonType(const Json& v) {
  if (v.is_string()) return "string";
  if (v.is_number()) return "number";
  if (v.is_boolean()) return "bool";
  if (v.is_array()) return "array";
  if (v.is_object()) return "object";
  return "null";
}

// NormalizeNumbers applies ToApiNumber throughout doc. Recursion is bounded by kMaxManifestDepth.
void NormalizeNumbers(Json& doc) {
  if (doc.is_number()) {
    doc = internal::ToApiNumber(doc);
  } else if (doc.is_structured()) {
    for (Json& child : doc) NormalizeNumbers(child);
  }
}

// ---- objects out of documents (kubectl resource builder) ---------------------------------------

Status AppendObject(const Json& doc, const std::string& source, std::vector<Json>* out) {
  const std::string prefix = "unable to decode \"" + source + "\": ";
  if (!doc.is_object()) {
    return BadRequest(prefix +
                      "couldn't get version/kind; json parse error: json: cannot unmarshal " +
                      GoJsonType(doc) + " into Go value of type " + kGoTypeStruct);
  }
  for (const char* field : {"apiVersion", "kind"}) {
    auto it = doc.find(field);
    if (it != doc.end() && !it->is_string() && !it->is_null()) {
      return BadRequest(prefix +
                        "couldn't get version/kind; json parse error: json: cannot unmarshal " +
                        GoJsonType(*it) + " into Go struct field ." + field + " of type string");
    }
  }
  const std::string kind = Kind(doc);
  if (kind.empty())
    return BadRequest(prefix + "Object 'Kind' is missing in '" + Compact(doc) + "'");
  if (ApiVersion(doc).empty()) {
    return BadRequest(prefix + "Object 'apiVersion' is missing in '" + Compact(doc) + "'");
  }
  const bool list_kind = kind.size() >= 4 && kind.compare(kind.size() - 4, 4, "List") == 0;
  auto items = doc.find("items");
  if (list_kind && (items != doc.end() || kind == "List")) {
    if (items == doc.end() || items->is_null()) return Status::OK();
    if (!items->is_array()) {
      return BadRequest(prefix + "json: cannot unmarshal " + GoJsonType(*items) +
                        " into Go struct field .items of type []runtime.RawExtension");
    }
    for (const Json& item : *items) {
      Status s = AppendObject(item, source, out);
      if (!s.ok()) return s;
    }
    return Status::OK();
  }
  out->push_back(doc);
  return Status::OK();
}

// ---- JSON streams (json.Decoder over concatenated objects) -------------------------------------

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// ErrorCollector is a SAX sink that keeps nlohmann's parse error message without throwing.
class ErrorCollector : public nlohmann::json_sax<Json> {
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
    const size_t bracket = message_.find("] ");
    if (!message_.empty() && message_[0] == '[' && bracket != std::string::npos) {
      message_.erase(0, bracket + 2);
    }
    return false;
  }
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

// JsonErrorMessage re-parses the object at [begin, end) behind whitespace standing for the text
// before it, so nlohmann's "line L, column C" counts from the start of the input.
std::string JsonErrorMessage(const std::string& text, size_t begin, size_t end) {
  size_t lines = 0, column = 0;
  for (size_t i = 0; i < begin; ++i) {
    if (text[i] == '\n') {
      ++lines;
      column = 0;
    } else {
      ++column;
    }
  }
  const std::string padded =
      std::string(lines, '\n') + std::string(column, ' ') + text.substr(begin, end - begin);
  ErrorCollector collector;
  Json::sax_parse(padded, &collector, Json::input_format_t::json, /*strict=*/true);
  return collector.message().empty() ? "invalid JSON" : collector.message();
}

base::StatusOr<std::vector<Json>> DecodeJsonStream(const std::string& text,
                                                   const std::string& source) {
  const std::string prefix = "error parsing " + source + ": ";
  std::vector<Json> out;
  size_t pos = 0;
  while (true) {
    while (pos < text.size() && IsSpace(text[pos])) ++pos;
    if (pos == text.size()) break;
    if (text[pos] != '{') {
      return BadRequest(prefix + "invalid character '" + std::string(1, text[pos]) +
                        "' looking for beginning of value");
    }
    // Find the matching brace, string-aware, and bound the nesting before any parser sees it.
    int depth = 0;
    bool in_string = false, escaped = false;
    size_t end = std::string::npos;
    for (size_t i = pos; i < text.size(); ++i) {
      const char c = text[i];
      if (in_string) {
        if (escaped) {
          escaped = false;
        } else if (c == '\\') {
          escaped = true;
        } else if (c == '"') {
          in_string = false;
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        if (++depth > kMaxManifestDepth) {
          return BadRequest(prefix + "exceeded max depth of " + std::to_string(kMaxManifestDepth));
        }
      } else if (c == '}' || c == ']') {
        if (--depth == 0) {
          end = i + 1;
          break;
        }
      }
    }
    if (end == std::string::npos) return BadRequest(prefix + "unexpected EOF");
    Json doc = Json::parse(text.begin() + static_cast<std::ptrdiff_t>(pos),
                           text.begin() + static_cast<std::ptrdiff_t>(end), nullptr, false);
    if (doc.is_discarded()) return BadRequest(prefix + JsonErrorMessage(text, pos, end));
    NormalizeNumbers(doc);
    Status s = AppendObject(doc, source, &out);
    if (!s.ok()) return s;
    pos = end;
  }
  return out;
}

// ---- YAML streams (apimachinery YAMLReader + sigs.k8s.io/yaml YAMLToJSON) ----------------------

// CheckYamlCharacters mirrors go-yaml's reader: UTF-8 only, and no control characters other than
// tab, LF and CR (nor DEL, C1 controls, U+FFFE/U+FFFF).
std::string CheckYamlCharacters(const std::string& text) {
  if (!IsValidUtf8(text)) return "yaml: invalid leading UTF-8 octet";
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) {
      return "yaml: control characters are not allowed";
    }
    if (c == 0xC2 && i + 1 < text.size()) {
      const unsigned char d = static_cast<unsigned char>(text[i + 1]);
      if (d >= 0x80 && d <= 0x9F && d != 0x85) return "yaml: control characters are not allowed";
    }
    if (c == 0xEF && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xBF &&
        static_cast<unsigned char>(text[i + 2]) >= 0xBE) {
      return "yaml: control characters are not allowed";
    }
  }
  return "";
}

// SplitYamlDocuments mirrors apimachinery yaml.YAMLReader: a line starting with "---" ends a
// document; only spaces or a comment may follow the dashes.
bool SplitYamlDocuments(const std::string& text, std::vector<std::string>* docs,
                        std::string* error) {
  std::string current;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    const size_t next = nl == std::string::npos ? text.size() : nl + 1;
    if (text.compare(pos, 3, "---") == 0) {
      size_t a = pos + 3, b = next;
      while (a < b && IsSpace(text[a])) ++a;
      while (b > a && IsSpace(text[b - 1])) --b;
      if (a < b && text[a] != '#') {
        *error = "invalid Yaml document separator: " + text.substr(a, b - a);
        return false;
      }
      if (!current.empty()) docs->push_back(std::move(current));
      current.clear();
    } else {
      current.append(text, pos, next - pos);
    }
    pos = next;
  }
  if (!current.empty()) docs->push_back(std::move(current));
  return true;
}


base::StatusOr<std::vector<Json>> DecodeYamlStream(const std::string& text,
                                                   const std::string& source) {
  const std::string prefix = "error parsing " + source + ": ";
  const std::string chars = CheckYamlCharacters(text);
  if (!chars.empty()) return BadRequest(prefix + "error converting YAML to JSON: " + chars);
  std::vector<std::string> chunks;
  std::string error;
  if (!SplitYamlDocuments(text, &chunks, &error)) return BadRequest(prefix + error);
  std::vector<Json> out;
  for (const std::string& chunk : chunks) {
    Json doc;
    // Most manifests are in the simple subset; the rest, and every error, go through yaml-cpp.
    if (!internal::DecodeSimpleYaml(chunk, &doc) &&
        !internal::YamlCppDocumentToJson(chunk, &doc, &error)) {
      return BadRequest(prefix + "error converting YAML to JSON: " + error);
    }
    if (doc.is_null()) continue;
    Status s = AppendObject(doc, source, &out);
    if (!s.ok()) return s;
  }
  return out;
}

}  // namespace

base::StatusOr<std::vector<Json>> DecodeManifests(const std::string& text,
                                                  const std::string& source_name) {
  std::string body = text;
  if (body.compare(0, 3, "\xEF\xBB\xBF") == 0) body.erase(0, 3);
  // mirrors apimachinery yaml.NewYAMLOrJSONDecoder: JSON when the first non-space byte is '{'.
  size_t first = 0;
  while (first < body.size() && IsSpace(body[first])) ++first;
  if (first < body.size() && body[first] == '{') return DecodeJsonStream(body, source_name);
  return DecodeYamlStream(body, source_name);
}

}  // namespace api
