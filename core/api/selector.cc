#include "core/api/selector.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "core/api/internal/member_at.h"
#include "core/api/pointer.h"

namespace api {
namespace {

using base::Status;
using base::StatusCode;
using base::StatusOr;

// ---- validation (apimachinery pkg/util/validation/validation.go) ---------------------------

constexpr size_t kQualifiedNameMaxLength = 63;
constexpr size_t kLabelValueMaxLength = 63;
constexpr size_t kDns1123SubdomainMaxLength = 253;

const char kQualifiedNameFmt[] = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const char kQualifiedNameErrMsg[] =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
const char kLabelValueFmt[] = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const char kLabelValueErrMsg[] =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character";
const char kDns1123SubdomainFmt[] =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const char kDns1123SubdomainErrMsg[] =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character";

// RegexError renders the validation message with examples.
// mirrors apimachinery pkg/util/validation/validation.go RegexError
std::string RegexError(const std::string& msg, const char* fmt,
                       std::initializer_list<const char*> examples) {
  std::string out = msg + " (e.g. ";
  bool first = true;
  for (const char* e : examples) {
    if (!first) out += " or ";
    first = false;
    out += "'" + std::string(e) + "', ";
  }
  return out + "regex used for validation is '" + fmt + "')";
}

std::string SelectorMaxLenError(size_t n) {
  return "must be no more than " + std::to_string(n) + " characters";
}

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// MatchesQualifiedName checks ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9].
bool MatchesQualifiedName(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

bool IsDnsLabelChar(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool MatchesDns1123Subdomain(std::string_view s) {
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    std::string_view label =
        s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty() || !IsDnsLabelChar(label.front()) || !IsDnsLabelChar(label.back())) {
      return false;
    }
    for (char c : label) {
      if (!IsDnsLabelChar(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// ValidQualifiedName is IsQualifiedName(value).empty() without building a message or a copy:
// every label key of every object written passes here, and almost all are valid.
bool ValidQualifiedName(std::string_view value) {
  std::string_view name = value;
  const size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (name.find('/') != std::string_view::npos || prefix.empty() ||
        prefix.size() > kDns1123SubdomainMaxLength || !MatchesDns1123Subdomain(prefix)) {
      return false;
    }
  }
  return !name.empty() && name.size() <= kQualifiedNameMaxLength && MatchesQualifiedName(name);
}

std::vector<std::string> IsDns1123Subdomain(const std::string& value) {
  std::vector<std::string> errs;
  if (value.size() > kDns1123SubdomainMaxLength) {
    errs.push_back(SelectorMaxLenError(kDns1123SubdomainMaxLength));
  }
  if (!MatchesDns1123Subdomain(value)) {
    errs.push_back(RegexError(kDns1123SubdomainErrMsg, kDns1123SubdomainFmt, {"example.com"}));
  }
  return errs;
}

std::string Join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

// SelectorQuote renders s like Go's %q for printable ASCII (the only characters a selector keeps).
std::string SelectorQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "\"";
}

// FieldInvalid renders field.Invalid(path, value, detail).Error().
std::string FieldInvalid(const std::string& path, const std::string& quoted_value,
                         const std::string& detail) {
  return path + ": Invalid value: " + quoted_value + ": " + detail;
}

// GoStringSlice renders a []string with %#v.
std::string GoStringSlice(const std::vector<std::string>& values) {
  std::string out = "[]string{";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += SelectorQuote(values[i]);
  }
  return out + "}";
}

// Aggregate renders utilerrors.NewAggregate(errs).Error().
std::string Aggregate(const std::vector<std::string>& errs) {
  if (errs.size() == 1) return errs[0];
  return "[" + Join(errs, ", ") + "]";
}

bool ParseInt64(const std::string& s, int64_t* out) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    negative = s[i] == '-';
    ++i;
  }
  if (i == s.size()) return false;
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + static_cast<uint64_t>(s[i] - '0');
    if (v > (uint64_t{1} << 63)) return false;
  }
  if (!negative && v > static_cast<uint64_t>(INT64_MAX)) return false;
  *out = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

// ValidateRequirement returns labels.NewRequirement's field errors; key_path names the key's
// field in them.
std::vector<std::string> ValidateRequirement(const std::string& key, SelectorOperator op,
                                                       const std::vector<std::string>& values,
                                                       const std::string& key_path) {
  std::vector<std::string> errs;
  std::vector<std::string> key_errs = IsQualifiedName(key);
  if (!key_errs.empty()) errs.push_back(FieldInvalid(key_path, SelectorQuote(key), Join(key_errs, "; ")));
  const std::string values_path = "values";
  switch (op) {
    case SelectorOperator::kIn:
    case SelectorOperator::kNotIn:
      if (values.empty()) {
        errs.push_back(FieldInvalid(values_path, GoStringSlice(values),
                                    "for 'in', 'notin' operators, values set can't be empty"));
      }
      break;
    case SelectorOperator::kEquals:
    case SelectorOperator::kDoubleEquals:
    case SelectorOperator::kNotEquals:
      if (values.size() != 1) {
        errs.push_back(FieldInvalid(values_path, GoStringSlice(values),
                                    "exact-match compatibility requires one single value"));
      }
      break;
    case SelectorOperator::kExists:
    case SelectorOperator::kDoesNotExist:
      if (!values.empty()) {
        errs.push_back(FieldInvalid(values_path, GoStringSlice(values),
                                    "values set must be empty for exists and does not exist"));
      }
      break;
    case SelectorOperator::kGreaterThan:
    case SelectorOperator::kLessThan:
      if (values.size() != 1) {
        errs.push_back(FieldInvalid(values_path, GoStringSlice(values),
                                    "for 'Gt', 'Lt' operators, exactly one value is required"));
      }
      for (size_t i = 0; i < values.size(); ++i) {
        int64_t ignored = 0;
        if (!ParseInt64(values[i], &ignored)) {
          errs.push_back(FieldInvalid(values_path + "[" + std::to_string(i) + "]",
                                      SelectorQuote(values[i]),
                                      "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      }
      break;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    std::vector<std::string> value_errs = IsValidLabelValue(values[i]);
    if (!value_errs.empty()) {
      errs.push_back(FieldInvalid(values_path + "[" + std::to_string(i) + "][" + key + "]",
                                  SelectorQuote(values[i]), Join(value_errs, "; ")));
    }
  }
  return errs;
}

// ---- the label selector lexer and parser (apimachinery pkg/labels/selector.go) --------------

enum class Token {
  kError,
  kEndOfString,
  kClosedPar,
  kComma,
  kDoesNotExist,
  kDoubleEquals,
  kEquals,
  kGreaterThan,
  kIdentifier,
  kIn,
  kLessThan,
  kNotEquals,
  kNotIn,
  kOpenPar,
};

bool LookupToken(const std::string& s, Token* tok) {
  static const std::pair<const char*, Token> kTokens[] = {
      {")", Token::kClosedPar},     {",", Token::kComma},       {"!", Token::kDoesNotExist},
      {"==", Token::kDoubleEquals}, {"=", Token::kEquals},      {">", Token::kGreaterThan},
      {"in", Token::kIn},           {"<", Token::kLessThan},    {"!=", Token::kNotEquals},
      {"notin", Token::kNotIn},     {"(", Token::kOpenPar},
  };
  for (const auto& t : kTokens) {
    if (s == t.first) {
      *tok = t.second;
      return true;
    }
  }
  return false;
}

bool IsWhitespace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool IsSpecialSymbol(char c) {
  return c == '=' || c == '!' || c == '(' || c == ')' || c == ',' || c == '>' || c == '<';
}

struct SelectorScannedItem {
  Token tok;
  std::string literal;
};

std::vector<SelectorScannedItem> SelectorScan(const std::string& s) {
  std::vector<SelectorScannedItem> items;
  size_t pos = 0;
  while (true) {
    while (pos < s.size() && IsWhitespace(s[pos])) ++pos;
    if (pos >= s.size()) {
      items.push_back({Token::kEndOfString, ""});
      return items;
    }
    if (IsSpecialSymbol(s[pos])) {
      // Longest run of special symbols that is still a token.
      std::string buffer;
      SelectorScannedItem last{Token::kError, ""};
      bool have = false;
      while (pos < s.size() && IsSpecialSymbol(s[pos])) {
        buffer.push_back(s[pos]);
        Token tok;
        if (LookupToken(buffer, &tok)) {
          last = {tok, buffer};
          have = true;
          ++pos;
        } else if (have) {
          break;
        } else {
          ++pos;
        }
      }
      if (!have) {
        items.push_back({Token::kError, "error expected: keyword found '" + buffer + "'"});
      } else {
        items.push_back(last);
      }
      continue;
    }
    std::string buffer;
    while (pos < s.size() && !IsSpecialSymbol(s[pos]) && !IsWhitespace(s[pos])) {
      buffer.push_back(s[pos++]);
    }
    Token tok;
    if (LookupToken(buffer, &tok)) {
      items.push_back({tok, buffer});
    } else {
      items.push_back({Token::kIdentifier, buffer});
    }
  }
}

enum class Context { kKeyAndOperator, kValues };

class SelectorParser {
 public:
  explicit SelectorParser(const std::string& text) : items_(SelectorScan(text)) {}

  // Parse returns the requirements in input order. mirrors labels SelectorParser.parse
  StatusOr<std::vector<Requirement>> Parse() {
    std::vector<Requirement> requirements;
    while (true) {
      auto [tok, lit] = Lookahead(Context::kValues);
      switch (tok) {
        case Token::kIdentifier:
        case Token::kDoesNotExist: {
          std::string err;
          auto r = ParseRequirement(&err);
          if (!r) return Fail("unable to parse requirement: " + err);
          requirements.push_back(*r);
          auto [t, l] = Consume(Context::kValues);
          if (t == Token::kEndOfString) return requirements;
          if (t == Token::kComma) {
            auto [t2, l2] = Lookahead(Context::kValues);
            if (t2 != Token::kIdentifier && t2 != Token::kDoesNotExist) {
              return Fail("found '" + l2 + "', expected: identifier after ','");
            }
            break;
          }
          return Fail("found '" + l + "', expected: ',' or 'end of string'");
        }
        case Token::kEndOfString:
          return requirements;
        default:
          return Fail("found '" + lit + "', expected: !, identifier, or 'end of string'");
      }
    }
  }

 private:
  static Status Fail(const std::string& message) {
    return Status(StatusCode::kBadRequest, message);
  }

  std::pair<Token, std::string> Lookahead(Context ctx) const {
    SelectorScannedItem item = items_[std::min(position_, items_.size() - 1)];
    if (ctx == Context::kValues && (item.tok == Token::kIn || item.tok == Token::kNotIn)) {
      item.tok = Token::kIdentifier;
    }
    return {item.tok, item.literal};
  }

  std::pair<Token, std::string> Consume(Context ctx) {
    auto out = Lookahead(ctx);
    if (position_ < items_.size() - 1) ++position_;
    return out;
  }

  // ParseRequirement returns a requirement or sets *err. mirrors labels SelectorParser.parseRequirement
  std::optional<Requirement> ParseRequirement(std::string* err) {
    std::string key;
    SelectorOperator op = SelectorOperator::kEquals;
    bool unary = false;
    if (!ParseKeyAndInferOperator(&key, &op, &unary, err)) return std::nullopt;
    std::vector<std::string> values;
    if (!unary) {
      if (!ParseOperator(&op, err)) return std::nullopt;
      bool ok = (op == SelectorOperator::kIn || op == SelectorOperator::kNotIn)
                    ? ParseValues(&values, err)
                    : ParseExactValue(&values, err);
      if (!ok) return std::nullopt;
    }
    auto r = Requirement::New(key, op, values);
    if (!r.ok()) {
      *err = r.status().message();
      return std::nullopt;
    }
    return *r;
  }

  bool ParseKeyAndInferOperator(std::string* key, SelectorOperator* op, bool* unary,
                                std::string* err) {
    auto [tok, lit] = Consume(Context::kValues);
    bool does_not_exist = false;
    if (tok == Token::kDoesNotExist) {
      does_not_exist = true;
      std::tie(tok, lit) = Consume(Context::kValues);
    }
    if (tok != Token::kIdentifier) {
      *err = "found '" + lit + "', expected: identifier";
      return false;
    }
    std::vector<std::string> key_errs = IsQualifiedName(lit);
    if (!key_errs.empty()) {
      // The parser validates the key with a nil field path, which Go prints as "<nil>".
      *err = FieldInvalid("<nil>", SelectorQuote(lit), Join(key_errs, "; "));
      return false;
    }
    *key = lit;
    auto [next, ignored] = Lookahead(Context::kValues);
    if (does_not_exist) {
      *op = SelectorOperator::kDoesNotExist;
      *unary = true;
    } else if (next == Token::kEndOfString || next == Token::kComma) {
      *op = SelectorOperator::kExists;
      *unary = true;
    }
    return true;
  }

  bool ParseOperator(SelectorOperator* op, std::string* err) {
    auto [tok, lit] = Consume(Context::kKeyAndOperator);
    switch (tok) {
      case Token::kIn: *op = SelectorOperator::kIn; return true;
      case Token::kEquals: *op = SelectorOperator::kEquals; return true;
      case Token::kDoubleEquals: *op = SelectorOperator::kDoubleEquals; return true;
      case Token::kGreaterThan: *op = SelectorOperator::kGreaterThan; return true;
      case Token::kLessThan: *op = SelectorOperator::kLessThan; return true;
      case Token::kNotIn: *op = SelectorOperator::kNotIn; return true;
      case Token::kNotEquals: *op = SelectorOperator::kNotEquals; return true;
      default:
        *err = "found '" + lit + "', expected: in, notin, =, ==, !=, gt, lt";
        return false;
    }
  }

  // ParseValues reads "(a,b,...)" into a sorted set. mirrors labels SelectorParser.parseValues
  bool ParseValues(std::vector<std::string>* values, std::string* err) {
    auto [tok, lit] = Consume(Context::kValues);
    if (tok != Token::kOpenPar) {
      *err = "found '" + lit + "' expected: '('";
      return false;
    }
    std::tie(tok, lit) = Lookahead(Context::kValues);
    std::vector<std::string> set;
    if (tok == Token::kIdentifier || tok == Token::kComma) {
      if (!ParseIdentifiersList(&set, err)) return false;
      auto [close, ignored] = Consume(Context::kValues);
      if (close != Token::kClosedPar) {
        *err = "found '" + lit + "', expected: ')'";
        return false;
      }
    } else if (tok == Token::kClosedPar) {
      Consume(Context::kValues);
      set.push_back("");
    } else {
      *err = "found '" + lit + "', expected: ',', ')' or identifier";
      return false;
    }
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    *values = std::move(set);
    return true;
  }

  bool ParseIdentifiersList(std::vector<std::string>* set, std::string* err) {
    while (true) {
      auto [tok, lit] = Consume(Context::kValues);
      if (tok == Token::kIdentifier) {
        set->push_back(lit);
        auto [tok2, lit2] = Lookahead(Context::kValues);
        if (tok2 == Token::kComma) continue;
        if (tok2 == Token::kClosedPar) return true;
        *err = "found '" + lit2 + "', expected: ',' or ')'";
        return false;
      }
      if (tok == Token::kComma) {
        if (set->empty()) set->push_back("");  // "(,"
        auto [tok2, ignored] = Lookahead(Context::kValues);
        if (tok2 == Token::kClosedPar) {
          set->push_back("");  // ",)"
          return true;
        }
        if (tok2 == Token::kComma) {
          Consume(Context::kValues);
          set->push_back("");  // ",,"
        }
        continue;
      }
      *err = "found '" + lit + "', expected: ',', or identifier";
      return false;
    }
  }

  bool ParseExactValue(std::vector<std::string>* values, std::string* err) {
    auto [tok, ignored] = Lookahead(Context::kValues);
    if (tok == Token::kEndOfString || tok == Token::kComma) {
      values->push_back("");
      return true;
    }
    auto [t, lit] = Consume(Context::kValues);
    if (t == Token::kIdentifier) {
      values->push_back(lit);
      return true;
    }
    *err = "found '" + lit + "', expected: identifier";
    return false;
  }

  std::vector<SelectorScannedItem> items_;  // Invariant: ends with kEndOfString.
  size_t position_ = 0;
};

void SortByKey(std::vector<Requirement>* requirements) {
  std::stable_sort(requirements->begin(), requirements->end(),
                   [](const Requirement& a, const Requirement& b) { return a.key() < b.key(); });
}

// ---- field selectors (apimachinery pkg/fields/selector.go) ---------------------------------

std::vector<std::string> SplitTerms(const std::string& s) {
  std::vector<std::string> terms;
  if (s.empty()) return terms;
  size_t start = 0;
  bool in_slash = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (in_slash) {
      in_slash = false;
    } else if (s[i] == '\\') {
      in_slash = true;
    } else if (s[i] == ',') {
      terms.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  terms.push_back(s.substr(start));
  return terms;
}

bool SplitTerm(const std::string& term, std::string* lhs, std::string* op, std::string* rhs) {
  static const char* kOps[] = {"!=", "==", "="};
  for (size_t i = 0; i < term.size(); ++i) {
    for (const char* o : kOps) {
      if (term.compare(i, std::char_traits<char>::length(o), o) == 0) {
        *lhs = term.substr(0, i);
        *op = o;
        *rhs = term.substr(i + std::char_traits<char>::length(o));
        return true;
      }
    }
  }
  return false;
}

StatusOr<std::string> UnescapeValue(const std::string& s) {
  std::string out;
  bool in_slash = false;
  for (char c : s) {
    if (in_slash) {
      if (c != '\\' && c != ',' && c != '=') {
        return Status(StatusCode::kBadRequest,
                      std::string("invalid field selector: invalid escape sequence: \\") + c);
      }
      out.push_back(c);
      in_slash = false;
      continue;
    }
    if (c == '\\') {
      in_slash = true;
    } else if (c == ',' || c == '=') {
      // Go prints the rune with %v, i.e. as its code point.
      return Status(StatusCode::kBadRequest,
                    "invalid field selector: unescaped character in value: " +
                        std::to_string(static_cast<int>(c)));
    } else {
      out.push_back(c);
    }
  }
  if (in_slash) {
    return Status(StatusCode::kBadRequest, "invalid field selector: invalid escape sequence: \\");
  }
  return out;
}

std::string EscapeValue(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == ',' || c == '=') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

// KindFields lists the kind-specific field selectors; has_own_list says whether the kind has
// its own conversion function (and so the "field label not supported" message).
std::vector<std::string> KindFields(const std::string& kind, bool* has_own_list) {
  *has_own_list = true;
  if (kind == "Pod") {
    return {"spec.nodeName",    "spec.restartPolicy", "spec.schedulerName",
            "spec.serviceAccountName", "spec.hostNetwork", "status.phase",
            "status.podIP",     "status.nominatedNodeName"};
  }
  if (kind == "Event") {
    return {"involvedObject.kind",       "involvedObject.namespace",
            "involvedObject.name",       "involvedObject.uid",
            "involvedObject.apiVersion", "involvedObject.resourceVersion",
            "involvedObject.fieldPath",  "reason",
            "reportingComponent",        "source",
            "type"};
  }
  if (kind == "Secret") return {"type"};
  if (kind == "Node") return {"spec.unschedulable"};
  if (kind == "Job") return {"status.successful"};
  if (kind == "Namespace") return {"status.phase"};
  if (kind == "ReplicaSet") return {"status.replicas"};
  if (kind == "Service") return {"spec.clusterIP", "spec.type"};
  *has_own_list = false;
  return {};
}

std::string StringField(const Json& obj, const char* a, const char* b = nullptr) {
  const Json* v = Member(obj, a, b);
  return v != nullptr && v->is_string() ? v->get<std::string>() : "";
}

std::string BoolField(const Json& obj, const char* a, const char* b) {
  const Json* v = Member(obj, a, b);
  return v != nullptr && v->is_boolean() && v->get<bool>() ? "true" : "false";
}

std::string IntField(const Json& obj, const char* a, const char* b) {
  const Json* v = Member(obj, a, b);
  return v != nullptr && v->is_number_integer() ? std::to_string(v->get<int64_t>()) : "0";
}

}  // namespace

// ---- public: validation ----------------------------------------------------------------------

// mirrors apimachinery pkg/util/validation/validation.go IsQualifiedName
std::vector<std::string> IsQualifiedName(const std::string& value) {
  if (ValidQualifiedName(value)) return {};
  std::vector<std::string> errs;
  std::string name;
  size_t slash = value.find('/');
  if (slash == std::string::npos) {
    name = value;
  } else if (value.find('/', slash + 1) == std::string::npos) {
    std::string prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (const std::string& msg : IsDns1123Subdomain(prefix)) errs.push_back("prefix part " + msg);
    }
  } else {
    errs.push_back("a qualified name " +
                   RegexError(kQualifiedNameErrMsg, kQualifiedNameFmt,
                              {"MyName", "my.name", "123-abc"}) +
                   " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
    return errs;
  }
  if (name.empty()) {
    errs.push_back("name part must be non-empty");
  } else if (name.size() > kQualifiedNameMaxLength) {
    errs.push_back("name part " + SelectorMaxLenError(kQualifiedNameMaxLength));
  }
  if (!MatchesQualifiedName(name)) {
    errs.push_back("name part " + RegexError(kQualifiedNameErrMsg, kQualifiedNameFmt,
                                             {"MyName", "my.name", "123-abc"}));
  }
  return errs;
}

// mirrors apimachinery pkg/util/validation/validation.go IsValidLabelValue
std::vector<std::string> IsValidLabelValue(const std::string& value) {
  std::vector<std::string> errs;
  if (value.size() > kLabelValueMaxLength) errs.push_back(SelectorMaxLenError(kLabelValueMaxLength));
  if (!value.empty() && !MatchesQualifiedName(value)) {
    errs.push_back(RegexError(kLabelValueErrMsg, kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errs;
}

// ---- public: Requirement ---------------------------------------------------------------------

// mirrors apimachinery pkg/labels/selector.go NewRequirement
StatusOr<Requirement> Requirement::New(const std::string& key, SelectorOperator op,
                                       std::vector<std::string> values) {
  std::vector<std::string> errs = ValidateRequirement(key, op, values, "key");
  if (!errs.empty()) return Status(StatusCode::kInvalid, Aggregate(errs));
  Requirement r;
  r.key_ = InternedKey(key);
  r.op_ = op;
  r.values_ = std::move(values);
  return r;
}

// mirrors apimachinery pkg/labels/selector.go Requirement.Matches
bool Requirement::Matches(const std::map<std::string, std::string>& labels) const {
  auto it = labels.find(key_.str());
  return MatchesValue(it == labels.end() ? nullptr : &it->second);
}

bool Requirement::MatchesLabelsJson(const Json* labels) const {
  const Json* label = labels != nullptr ? internal::MemberAt(*labels, key_) : nullptr;
  return MatchesValue(label != nullptr && label->is_string() ? label->get_ptr<const std::string*>()
                                                             : nullptr);
}

bool Requirement::MatchesValue(const std::string* value) const {
  const bool has = value != nullptr;
  auto has_value = [this](const std::string& v) {
    return std::find(values_.begin(), values_.end(), v) != values_.end();
  };
  switch (op_) {
    case SelectorOperator::kIn:
    case SelectorOperator::kEquals:
    case SelectorOperator::kDoubleEquals:
      return has && has_value(*value);
    case SelectorOperator::kNotIn:
    case SelectorOperator::kNotEquals:
      return !has || !has_value(*value);
    case SelectorOperator::kExists:
      return has;
    case SelectorOperator::kDoesNotExist:
      return !has;
    case SelectorOperator::kGreaterThan:
    case SelectorOperator::kLessThan: {
      if (!has || values_.size() != 1) return false;
      int64_t label_value = 0;
      int64_t bound = 0;
      if (!ParseInt64(*value, &label_value) || !ParseInt64(values_[0], &bound)) return false;
      return op_ == SelectorOperator::kGreaterThan ? label_value > bound : label_value < bound;
    }
  }
  return false;
}

// mirrors apimachinery pkg/labels/selector.go Requirement.String
std::string Requirement::String() const {
  std::string out;
  if (op_ == SelectorOperator::kDoesNotExist) out += "!";
  out += key_.str();
  switch (op_) {
    case SelectorOperator::kEquals: out += "="; break;
    case SelectorOperator::kDoubleEquals: out += "=="; break;
    case SelectorOperator::kNotEquals: out += "!="; break;
    case SelectorOperator::kIn: out += " in "; break;
    case SelectorOperator::kNotIn: out += " notin "; break;
    case SelectorOperator::kGreaterThan: out += ">"; break;
    case SelectorOperator::kLessThan: out += "<"; break;
    case SelectorOperator::kExists:
    case SelectorOperator::kDoesNotExist:
      return out;
  }
  const bool set = op_ == SelectorOperator::kIn || op_ == SelectorOperator::kNotIn;
  if (set) out += "(";
  std::vector<std::string> sorted = values_;
  std::sort(sorted.begin(), sorted.end());
  // Once each, as the parser reads a set back (labels SelectorParser.parseValues builds a sets.String):
  // a matchExpressions list may repeat a value, and its text must parse to the same text.
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  out += Join(sorted, ",");
  if (set) out += ")";
  return out;
}

// ---- public: LabelSelector ---------------------------------------------------------------------

LabelSelector LabelSelector::Nothing() {
  LabelSelector s;
  s.nothing_ = true;
  return s;
}

// mirrors apimachinery pkg/labels/selector.go Parse
StatusOr<LabelSelector> LabelSelector::Parse(const std::string& text) {
  SelectorParser parser(text);
  auto requirements = parser.Parse();
  if (!requirements.ok()) return requirements.status();
  LabelSelector s;
  s.requirements_ = std::move(requirements.value());
  SortByKey(&s.requirements_);
  return s;
}

// mirrors apimachinery pkg/labels/selector.go SelectorFromValidatedSet
LabelSelector LabelSelector::FromSet(const std::map<std::string, std::string>& labels) {
  LabelSelector s;
  for (const auto& [key, value] : labels) {
    Requirement r;
    r.key_ = InternedKey(key);
    r.op_ = SelectorOperator::kEquals;
    r.values_ = {value};
    s.requirements_.push_back(std::move(r));
  }
  return s;  // std::map iteration is already sorted by key
}

// mirrors apimachinery pkg/apis/meta/v1/helpers.go LabelSelectorAsSelector
StatusOr<LabelSelector> LabelSelector::FromLabelSelectorJson(const Json& selector) {
  if (selector.is_null()) return Nothing();
  if (!selector.is_object()) {
    const char* type = selector.is_array()     ? "array"
                       : selector.is_string()  ? "string"
                       : selector.is_boolean() ? "bool"
                                               : "number";
    return Status(StatusCode::kInvalid, std::string("json: cannot unmarshal ") + type +
                                            " into Go value of type v1.LabelSelector");
  }
  std::vector<Requirement> requirements;
  auto labels = selector.find("matchLabels");
  if (labels != selector.end() && !labels->is_null()) {
    if (!labels->is_object()) {
      return Status(StatusCode::kInvalid, "matchLabels: must be a map of strings");
    }
    for (auto it = labels->begin(); it != labels->end(); ++it) {
      if (!it.value().is_string()) {
        return Status(StatusCode::kInvalid, "matchLabels." + it.key() + ": must be a string");
      }
      auto r = Requirement::New(it.key(), SelectorOperator::kEquals,
                                {it.value().get<std::string>()});
      if (!r.ok()) return r.status();
      requirements.push_back(*r);
    }
  }
  auto exprs = selector.find("matchExpressions");
  if (exprs != selector.end() && !exprs->is_null()) {
    if (!exprs->is_array()) {
      return Status(StatusCode::kInvalid, "matchExpressions: must be a list");
    }
    for (const Json& expr : *exprs) {
      if (!expr.is_object()) {
        return Status(StatusCode::kInvalid, "matchExpressions: each entry must be an object");
      }
      std::string key;
      std::string op_text;
      auto k = expr.find("key");
      if (k != expr.end() && k->is_string()) key = k->get<std::string>();
      auto o = expr.find("operator");
      if (o != expr.end() && o->is_string()) op_text = o->get<std::string>();
      SelectorOperator op;
      if (op_text == "In") {
        op = SelectorOperator::kIn;
      } else if (op_text == "NotIn") {
        op = SelectorOperator::kNotIn;
      } else if (op_text == "Exists") {
        op = SelectorOperator::kExists;
      } else if (op_text == "DoesNotExist") {
        op = SelectorOperator::kDoesNotExist;
      } else {
        return Status(StatusCode::kInvalid,
                      SelectorQuote(op_text) + " is not a valid label selector operator");
      }
      std::vector<std::string> values;
      auto v = expr.find("values");
      if (v != expr.end() && v->is_array()) {
        for (const Json& value : *v) {
          if (!value.is_string()) {
            return Status(StatusCode::kInvalid, "matchExpressions.values: must be strings");
          }
          values.push_back(value.get<std::string>());
        }
      }
      auto r = Requirement::New(key, op, std::move(values));
      if (!r.ok()) return r.status();
      requirements.push_back(*r);
    }
  }
  LabelSelector s;
  s.requirements_ = std::move(requirements);
  SortByKey(&s.requirements_);
  return s;
}

LabelSelector LabelSelector::Add(const Requirement& requirement) const {
  if (nothing_) return *this;
  LabelSelector s = *this;
  s.requirements_.push_back(requirement);
  SortByKey(&s.requirements_);
  return s;
}

bool LabelSelector::MatchesObject(const Json& obj) const {
  if (nothing_) return false;
  if (requirements_.empty()) return true;
  return MatchesLabels(internal::MemberAt(obj, keys::Metadata(), keys::Labels()));
}

bool LabelSelector::MatchesLabels(const Json* labels) const {
  if (nothing_) return false;
  for (const Requirement& r : requirements_) {
    if (!r.MatchesLabelsJson(labels)) return false;
  }
  return true;
}

bool LabelSelector::Matches(const std::map<std::string, std::string>& labels) const {
  if (nothing_) return false;
  for (const Requirement& r : requirements_) {
    if (!r.Matches(labels)) return false;
  }
  return true;
}

std::string LabelSelector::String() const {
  std::vector<std::string> parts;
  for (const Requirement& r : requirements_) parts.push_back(r.String());
  return Join(parts, ",");
}

StatusOr<LabelSelector> LabelSelectorAsSelector(const Json* selector) {
  if (selector == nullptr) return LabelSelector::Nothing();
  return LabelSelector::FromLabelSelectorJson(*selector);
}

// ---- public: FieldSelector -------------------------------------------------------------------

// mirrors apimachinery pkg/fields/selector.go parseSelector
StatusOr<FieldSelector> FieldSelector::Parse(const std::string& text) {
  std::vector<std::string> parts = SplitTerms(text);
  std::sort(parts.begin(), parts.end());
  FieldSelector s;
  for (const std::string& part : parts) {
    if (part.empty()) continue;
    std::string lhs;
    std::string op;
    std::string rhs;
    if (!SplitTerm(part, &lhs, &op, &rhs)) {
      return Status(StatusCode::kBadRequest,
                    "invalid selector: '" + text + "'; can't understand '" + part + "'");
    }
    auto value = UnescapeValue(rhs);
    if (!value.ok()) return value.status();
    s.terms_.push_back(Term{lhs, op != "!=", *value});
  }
  return s;
}

StatusOr<FieldSelector> FieldSelector::ParseForKind(const std::string& kind,
                                                    const std::string& text) {
  auto s = Parse(text);
  if (!s.ok()) return s;
  if (Status v = s->ValidateFor(kind); !v.ok()) return v;
  s->kind_ = kind;
  return s;
}

// mirrors kube-apiserver's field label conversion funcs (pkg/apis/core/v1/conversion.go) and
// runtime.DefaultMetaV1FieldSelectorConversion
Status FieldSelector::ValidateFor(const std::string& kind) const {
  bool has_own_list = false;
  std::vector<std::string> own = KindFields(kind, &has_own_list);
  for (const Term& t : terms_) {
    if (t.field == "metadata.name" || t.field == "metadata.namespace") continue;
    if (std::find(own.begin(), own.end(), t.field) != own.end()) continue;
    if (has_own_list) {
      return Status(StatusCode::kBadRequest, "field label not supported: " + t.field);
    }
    return Status(StatusCode::kBadRequest,
                  SelectorQuote(t.field) +
                      " is not a known field selector: only \"metadata.name\", "
                      "\"metadata.namespace\"");
  }
  return Status::OK();
}

bool FieldSelector::Matches(const Json& obj) const {
  if (terms_.empty()) return true;
  std::string kind = Kind(obj);
  if (kind.empty()) kind = kind_;
  const std::map<std::string, std::string> fields = FieldsSet(kind, obj);
  for (const Term& t : terms_) {
    auto it = fields.find(t.field);
    const std::string value = it == fields.end() ? "" : it->second;
    if ((value == t.value) != t.equal) return false;
  }
  return true;
}

std::string FieldSelector::String() const {
  std::vector<std::string> parts;
  for (const Term& t : terms_) {
    parts.push_back(t.field + (t.equal ? "=" : "!=") + EscapeValue(t.value));
  }
  return Join(parts, ",");
}

std::vector<std::string> SupportedFieldSelectors(const std::string& kind) {
  bool has_own_list = false;
  std::vector<std::string> out = {"metadata.name", "metadata.namespace"};
  for (const std::string& f : KindFields(kind, &has_own_list)) out.push_back(f);
  return out;
}

// mirrors the GetAttrs / ToSelectableFields functions of kube-apiserver pkg/registry/*/strategy.go
std::map<std::string, std::string> FieldsSet(const std::string& kind, const Json& obj) {
  std::map<std::string, std::string> set;
  set["metadata.name"] = Name(obj);
  set["metadata.namespace"] = Namespace(obj);
  if (kind == "Pod") {
    set["spec.nodeName"] = StringField(obj, "spec", "nodeName");
    set["spec.restartPolicy"] = StringField(obj, "spec", "restartPolicy");
    set["spec.schedulerName"] = StringField(obj, "spec", "schedulerName");
    set["spec.serviceAccountName"] = StringField(obj, "spec", "serviceAccountName");
    set["spec.hostNetwork"] = BoolField(obj, "spec", "hostNetwork");
    set["status.phase"] = StringField(obj, "status", "phase");
    std::string pod_ip = StringField(obj, "status", "podIP");
    auto status = obj.find("status");
    if (status != obj.end() && status->is_object()) {
      auto ips = status->find("podIPs");
      if (ips != status->end() && ips->is_array() && !ips->empty() && (*ips)[0].is_object()) {
        std::string first = StringField((*ips)[0], "ip");
        if (!first.empty()) pod_ip = first;
      }
    }
    set["status.podIP"] = pod_ip;
    set["status.nominatedNodeName"] = StringField(obj, "status", "nominatedNodeName");
  } else if (kind == "Event") {
    for (const char* f : {"kind", "namespace", "name", "uid", "apiVersion", "resourceVersion",
                          "fieldPath"}) {
      set[std::string("involvedObject.") + f] = StringField(obj, "involvedObject", f);
    }
    set["reason"] = StringField(obj, "reason");
    set["reportingComponent"] = StringField(obj, "reportingComponent");
    set["source"] = StringField(obj, "source", "component");
    set["type"] = StringField(obj, "type");
  } else if (kind == "Secret") {
    set["type"] = StringField(obj, "type");
  } else if (kind == "Node") {
    set["spec.unschedulable"] = BoolField(obj, "spec", "unschedulable");
  } else if (kind == "Job") {
    // The selector says "successful"; the field is status.succeeded.
    set["status.successful"] = IntField(obj, "status", "succeeded");
  } else if (kind == "Namespace") {
    set["status.phase"] = StringField(obj, "status", "phase");
  } else if (kind == "ReplicaSet") {
    set["status.replicas"] = IntField(obj, "status", "replicas");
  } else if (kind == "Service") {
    set["spec.clusterIP"] = StringField(obj, "spec", "clusterIP");
    set["spec.type"] = StringField(obj, "spec", "type");
  }
  return set;
}

}  // namespace api
