#include "core/api/structural_schema.h"

#include <cstdio>
#include <set>
#include <utility>

#include "core/api/go_text.h"

namespace api {
namespace {

std::string Join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

bool IsInteger(const Json& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  const double d = v.get<double>();
  return d == static_cast<double>(static_cast<int64_t>(d)) && d > -9.2e18 && d < 9.2e18;
}

// OpenApiType names a value as kube-openapi does in "must be of type" errors.
std::string OpenApiType(const Json& v) {
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "boolean";
  if (IsInteger(v)) return "integer";
  if (v.is_number()) return "number";
  if (v.is_object()) return "object";
  if (v.is_array()) return "array";
  return "null";
}

bool HasType(const Json& v, const std::string& type) {
  if (type.empty()) return true;
  if (type == "number") return v.is_number();
  if (type == "integer") return IsInteger(v);
  return OpenApiType(v) == type;
}

// Compare orders two JSON numbers: integers exactly, otherwise as doubles (IEEE comparison is
// exact and the same on every target).
int Compare(const Json& a, const Json& b) {
  if (a.is_number_integer() && b.is_number_integer()) {
    const int64_t x = a.get<int64_t>(), y = b.get<int64_t>();
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  const double x = a.get<double>(), y = b.get<double>();
  return x < y ? -1 : (x > y ? 1 : 0);
}

// RuneCount counts UTF-8 code points, as Go's utf8.RuneCountInString does for min/maxLength.
int64_t RuneCount(const std::string& s) {
  int64_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

std::string Forbidden(const std::string& path, const std::string& detail) {
  return path + ": Forbidden: " + detail;
}

struct Parser {
  std::vector<std::string>* causes;
  int nodes = 0;

  bool Parse(const Json& s, const std::string& path, int depth, StructuralSchema* out) {
    if (++nodes > kMaxSchemaNodes) {
      causes->push_back(Forbidden(path, "the schema has more than " +
                                            std::to_string(kMaxSchemaNodes) +
                                            " nodes, more than the sandbox accepts"));
      return false;
    }
    if (depth > kMaxSchemaDepth) {
      causes->push_back(Forbidden(path, "the schema is nested more than " +
                                            std::to_string(kMaxSchemaDepth) +
                                            " levels deep, more than the sandbox accepts"));
      return false;
    }
    if (!s.is_object()) {
      causes->push_back(path + ": Invalid value: " + FieldValueText(s) + ": must be an object");
      return false;
    }
    bool ok = true;
    for (const auto& [key, value] : s.items()) {
      const std::string at = Join(path, key);
      if (key == "x-kubernetes-validations") {
        causes->push_back(Forbidden(at, "CEL validation rules are not supported in the sandbox"));
        ok = false;
      } else if (key == "type") {
        static const std::set<std::string> kTypes = {"object",  "array",  "string",
                                                     "integer", "number", "boolean"};
        if (!value.is_string() || kTypes.count(value.get<std::string>()) == 0) {
          causes->push_back(at + ": Unsupported value: " + FieldValueText(value) +
                            ": supported values: \"array\", \"boolean\", \"integer\", "
                            "\"number\", \"object\", \"string\"");
          ok = false;
        } else {
          out->type = value.get<std::string>();
        }
      } else if (key == "properties") {
        if (!value.is_object()) {
          causes->push_back(at + ": Invalid value: " + FieldValueText(value) + ": must be an object");
          ok = false;
          continue;
        }
        for (const auto& [name, sub] : value.items()) {
          ok = Parse(sub, at + "[" + name + "]", depth + 1, &out->properties[name]) && ok;
        }
      } else if (key == "items") {
        out->items.emplace_back();
        ok = Parse(value, at, depth + 1, &out->items.back()) && ok;
      } else if (key == "required") {
        if (!value.is_array()) {
          ok = false;
          causes->push_back(at + ": Invalid value: " + FieldValueText(value) + ": must be a list");
          continue;
        }
        for (const Json& r : value) {
          if (r.is_string()) out->required.push_back(r.get<std::string>());
        }
      } else if (key == "default") {
        out->default_value = value;
      } else if (key == "enum") {
        if (!value.is_array()) {
          ok = false;
          causes->push_back(at + ": Invalid value: " + FieldValueText(value) + ": must be a list");
          continue;
        }
        out->enum_values.assign(value.begin(), value.end());
      } else if (key == "minimum" || key == "maximum") {
        if (!value.is_number()) {
          ok = false;
          causes->push_back(at + ": Invalid value: " + FieldValueText(value) + ": must be a number");
          continue;
        }
        (key == "minimum" ? out->minimum : out->maximum) = value;
      } else if (key == "minLength" || key == "maxLength") {
        if (!value.is_number_integer() || value.get<int64_t>() < 0) {
          ok = false;
          causes->push_back(at + ": Invalid value: " + FieldValueText(value) +
                            ": must be a non-negative integer");
          continue;
        }
        (key == "minLength" ? out->min_length : out->max_length) = value.get<int64_t>();
      } else if (key == "pattern") {
        // The sandbox has no RE2: ECMAScript regexps read some patterns differently, and their
        // backtracking is unbounded on hostile input (the "no input may hang" rule).
        ok = false;
        causes->push_back(Forbidden(at, "the schema keyword \"pattern\" is not supported in the "
                                        "sandbox (it has no RE2 regular expressions)"));
      } else if (key == "x-kubernetes-preserve-unknown-fields") {
        out->preserve_unknown_fields = value.is_boolean() && value.get<bool>();
      } else if (key == "description" || key == "format" || key == "nullable" || key == "title" ||
                 key == "example") {
        // accepted, not used by the sandbox
      } else {
        causes->push_back(Forbidden(
            at, "the schema keyword " + GoQuote(key) + " is not supported in the sandbox"));
        ok = false;
      }
    }
    // mirrors apiextensions-apiserver pkg/apiserver/schema/validation.go
    // validateStructuralInvariants
    if (ok && out->type.empty() && !out->preserve_unknown_fields) {
      causes->push_back(Join(path, "type") +
                        ": Required value: must not be empty for specified object fields");
      ok = false;
    }
    if (ok && !out->properties.empty() && out->type != "object") {
      causes->push_back(Join(path, "properties") +
                        ": Forbidden: must be empty for types other than object");
      ok = false;
    }
    if (ok && out->type == "array" && out->items.empty()) {
      causes->push_back(Join(path, "items") + ": Required value: must be specified");
      ok = false;
    }
    if (ok && !out->items.empty() && out->type != "array") {
      causes->push_back(Join(path, "items") +
                        ": Forbidden: must be empty for types other than array");
      ok = false;
    }
    return ok;
  }
};

}  // namespace

bool ParseStructuralSchema(const Json& schema, const std::string& path, StructuralSchema* out,
                           std::vector<std::string>* causes) {
  Parser parser{causes};
  const size_t before = causes->size();
  const bool ok = parser.Parse(schema, path, 0, out);
  if (ok && out->type != "object") {
    causes->push_back(Join(path, "type") + ": Invalid value: " + GoQuote(out->type) +
                      ": must be object at the root");
  }
  return causes->size() == before;
}

// mirrors apiextensions-apiserver pkg/apiserver/schema/defaulting/algorithm.go Default
void DefaultStructural(const StructuralSchema& schema, Json& value) {
  if (value.is_object()) {
    for (const auto& [name, sub] : schema.properties) {
      auto it = value.find(name);
      if ((it == value.end() || it->is_null()) && sub.default_value.has_value()) {
        value[name] = *sub.default_value;
        it = value.find(name);
      }
      if (it != value.end()) DefaultStructural(sub, *it);
    }
  } else if (value.is_array() && !schema.items.empty()) {
    for (Json& item : value) DefaultStructural(schema.items[0], item);
  }
}

namespace {

// mirrors apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go prune
void Prune(const StructuralSchema& schema, Json& value, bool root) {
  if (value.is_object()) {
    if (!schema.preserve_unknown_fields) {
      for (auto it = value.begin(); it != value.end();) {
        const bool kept =
            schema.properties.count(it.key()) > 0 ||
            (root && (it.key() == "apiVersion" || it.key() == "kind" || it.key() == "metadata"));
        it = kept ? std::next(it) : value.erase(it);
      }
    }
    for (auto& [name, sub] : schema.properties) {
      if (root && name == "metadata") continue;
      auto it = value.find(name);
      if (it != value.end()) Prune(sub, *it, false);
    }
  } else if (value.is_array() && !schema.items.empty()) {
    for (Json& item : value) Prune(schema.items[0], item, false);
  }
}

}  // namespace

void PruneStructural(const StructuralSchema& schema, Json& object) { Prune(schema, object, true); }

// mirrors kube-openapi pkg/validation/validate (type, required, enum, minimum, maximum,
// minLength, maxLength, pattern) with its error wording from pkg/validation/errors/schema.go.
void ValidateStructural(const StructuralSchema& schema, const Json& value, const std::string& path,
                        std::vector<std::string>* causes) {
  const std::string shown = path.empty() ? "body" : path;  // kube-openapi names the root "body"
  auto invalid = [&](const std::string& detail) {
    causes->push_back(shown + ": Invalid value: " + FieldValueText(value) + ": " + detail);
  };
  if (value.is_null()) return;  // a null is an absent field for these checks
  if (!HasType(value, schema.type)) {
    invalid(shown + " in body must be of type " + schema.type + ": " + GoQuote(OpenApiType(value)));
    return;
  }
  if (!schema.enum_values.empty()) {
    bool found = false;
    for (const Json& e : schema.enum_values) found = found || e == value;
    if (!found) {
      std::string list;
      for (const Json& e : schema.enum_values) list += (list.empty() ? "" : ", ") + FieldValueText(e);
      causes->push_back(shown + ": Unsupported value: " + FieldValueText(value) +
                        ": supported values: " + list);
    }
  }
  if (value.is_number()) {
    if (schema.minimum && Compare(value, *schema.minimum) < 0) {
      invalid(shown + " in body should be greater than or equal to " + schema.minimum->dump());
    }
    if (schema.maximum && Compare(value, *schema.maximum) > 0) {
      invalid(shown + " in body should be less than or equal to " + schema.maximum->dump());
    }
  }
  if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    const int64_t n = RuneCount(s);
    if (schema.min_length && n < *schema.min_length) {
      invalid(shown + " in body should be at least " + std::to_string(*schema.min_length) +
              " chars long");
    }
    if (schema.max_length && n > *schema.max_length) {
      invalid(shown + " in body should be at most " + std::to_string(*schema.max_length) +
              " chars long");
    }
  }
  if (value.is_object()) {
    for (const std::string& r : schema.required) {
      auto it = value.find(r);
      if (it == value.end() || it->is_null()) causes->push_back(Join(path, r) + ": Required value");
    }
    for (const auto& [name, sub] : schema.properties) {
      if (path.empty() && (name == "metadata" || name == "apiVersion" || name == "kind")) continue;
      auto it = value.find(name);
      if (it != value.end()) ValidateStructural(sub, *it, Join(path, name), causes);
    }
  } else if (value.is_array() && !schema.items.empty()) {
    for (size_t i = 0; i < value.size(); ++i) {
      ValidateStructural(schema.items[0], value[i], path + "[" + std::to_string(i) + "]", causes);
    }
  }
}

}  // namespace api
