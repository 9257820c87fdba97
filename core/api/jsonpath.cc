#include "core/api/jsonpath.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "core/api/go_json.h"
#include "core/api/go_text.h"

namespace api {
namespace {

using base::Status;
using base::StatusCode;
using base::StatusOr;

// ---- the parse tree (client-go util/jsonpath node.go) --------------------------------------

enum class NodeType {
  kList,
  kText,
  kField,
  kArray,
  kFilter,
  kInt,
  kFloat,
  kBool,
  kWildcard,
  kRecursive,
  kUnion,
  kIdentifier,
  kDictKey,  // ['key']: the literal key first, then client-go's .k.e.y path (nodes[0], if any)
};

struct ArrayParam {
  bool known = false;
  int64_t value = 0;
  bool derived = false;
};

struct Node {
  NodeType type = NodeType::kList;
  std::string text;  // kText text, kField/kIdentifier name, kDictKey key, kFilter operator
  int64_t int_value = 0;
  double float_value = 0;
  bool bool_value = false;
  ArrayParam params[3];
  // kList: the action's nodes; kUnion: one kList per alternative; kFilter: {left, right} lists;
  // kDictKey: the fallback list, when it parsed.
  std::vector<Node> nodes;
};

Node MakeNode(NodeType type, std::string text = "") {
  Node n;
  n.type = type;
  n.text = std::move(text);
  return n;
}

constexpr int kEof = -1;

bool IsDigit(int r) { return r >= '0' && r <= '9'; }
bool IsSpace(int r) { return r == ' ' || r == '\t'; }
bool IsEndOfLine(int r) { return r == '\r' || r == '\n'; }
// Bytes of multi-byte UTF-8 sequences count as letters, as their runes mostly are.
bool IsAlphaNumeric(int r) {
  return r == '_' || IsDigit(r) || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r >= 0x80;
}
bool IsTerminator(int r) {
  if (IsSpace(r) || IsEndOfLine(r)) return true;
  switch (r) {
    case kEof: case '.': case ',': case '[': case ']': case '$': case '@': case '{': case '}':
      return true;
    default:
      return false;
  }
}

// GoAtoi mirrors strconv.Atoi for the values a template can hold.
bool GoAtoi(const std::string& s, int64_t* out) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    negative = s[i] == '-';
    ++i;
  }
  if (i == s.size()) return false;
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    if (!IsDigit(static_cast<unsigned char>(s[i]))) return false;
    v = v * 10 + static_cast<uint64_t>(s[i] - '0');
    if (v > (uint64_t{1} << 62)) return false;
  }
  *out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

// GoParseFloat accepts what strconv.ParseFloat accepts from digits, dots and a sign.
bool GoParseFloat(const std::string& s, double* out) {
  size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
  int digits = 0;
  int dots = 0;
  for (; i < s.size(); ++i) {
    if (IsDigit(static_cast<unsigned char>(s[i]))) {
      ++digits;
    } else if (s[i] == '.') {
      ++dots;
    } else {
      return false;
    }
  }
  if (digits == 0 || dots > 1) return false;
  *out = std::strtod(s.c_str(), nullptr);
  return true;
}

// GoRune renders a rune as Go's %#U does.
std::string GoRune(int r) {
  char buf[32];
  if (r >= 0x20 && r < 0x7f) {
    std::snprintf(buf, sizeof(buf), "U+%04X '%c'", r, r);
  } else {
    std::snprintf(buf, sizeof(buf), "U+%04X", r);
  }
  return buf;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// UnquoteExtend is strconv.Unquote that also accepts single quotes.
// mirrors client-go util/jsonpath parser.go UnquoteExtend
bool UnquoteExtend(const std::string& s, std::string* out) {
  if (s.size() < 2) return false;
  const char quote = s.front();
  if (quote != s.back() || (quote != '"' && quote != '\'')) return false;
  const std::string body = s.substr(1, s.size() - 2);
  out->clear();
  for (size_t i = 0; i < body.size();) {
    char c = body[i];
    if (c == quote) return false;
    if (c != '\\') {
      out->push_back(c);
      ++i;
      continue;
    }
    if (i + 1 >= body.size()) return false;
    char e = body[i + 1];
    i += 2;
    switch (e) {
      case 'a': out->push_back('\a'); break;
      case 'b': out->push_back('\b'); break;
      case 'f': out->push_back('\f'); break;
      case 'n': out->push_back('\n'); break;
      case 'r': out->push_back('\r'); break;
      case 't': out->push_back('\t'); break;
      case 'v': out->push_back('\v'); break;
      case '\\': out->push_back('\\'); break;
      case '\'':
      case '"':
        if (e != quote) return false;
        out->push_back(e);
        break;
      case 'x':
      case 'u':
      case 'U': {
        size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        if (i + n > body.size()) return false;
        uint32_t v = 0;
        for (size_t k = 0; k < n; ++k) {
          int h = HexValue(body[i + k]);
          if (h < 0) return false;
          v = v * 16 + static_cast<uint32_t>(h);
        }
        i += n;
        if (e == 'x') {
          out->push_back(static_cast<char>(v));
        } else {
          if (v > 0x10FFFF || (v >= 0xD800 && v < 0xE000)) return false;
          AppendUtf8(v, out);
        }
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          if (i + 2 > body.size()) return false;
          uint32_t v = static_cast<uint32_t>(e - '0');
          for (size_t k = 0; k < 2; ++k) {
            char d = body[i + k];
            if (d < '0' || d > '7') return false;
            v = v * 8 + static_cast<uint32_t>(d - '0');
          }
          if (v > 255) return false;
          i += 2;
          out->push_back(static_cast<char>(v));
          break;
        }
        return false;
    }
  }
  return true;
}

// ---- the parser (client-go util/jsonpath parser.go) -----------------------------------------

class Parser {
 public:
  explicit Parser(std::string input) : input_(std::move(input)) {}

  // Parse builds root_: text nodes and one kList per action. Errors are the bare reason.
  Status Parse() {
    root_ = MakeNode(NodeType::kList);
    Node* cur = nullptr;
    bool in_action = false;
    while (true) {
      if (!in_action) {
        size_t brace = input_.find('{', pos_);
        if (brace == std::string::npos) {
          pos_ = input_.size();
          if (pos_ > start_) root_.nodes.push_back(MakeNode(NodeType::kText, ConsumeText()));
          return Status::OK();
        }
        pos_ = brace;
        if (pos_ > start_) root_.nodes.push_back(MakeNode(NodeType::kText, ConsumeText()));
        pos_ += 1;
        ConsumeText();
        root_.nodes.push_back(MakeNode(NodeType::kList));
        cur = &root_.nodes.back();
        in_action = true;
        continue;
      }
      if (HasPrefix("}")) {
        pos_ += 1;
        ConsumeText();
        in_action = false;
        continue;
      }
      if (Status s = ParseInsideAction(cur); !s.ok()) return s;
    }
  }

  Node& root() { return root_; }

 private:
  static Status Error(const std::string& message) {
    return Status(StatusCode::kBadRequest, message);
  }

  // ParseAction parses text as the inside of one action, as client-go's parseAction does.
  static Status ParseAction(const std::string& text, Node* list) {
    Parser p("{" + text + "}");
    if (Status s = p.Parse(); !s.ok()) return s;
    if (p.root_.nodes.empty() || p.root_.nodes[0].type != NodeType::kList) {
      *list = MakeNode(NodeType::kList);
    } else {
      *list = std::move(p.root_.nodes[0]);
    }
    return Status::OK();
  }

  int Next() {
    if (pos_ >= input_.size()) {
      width_ = 0;
      return kEof;
    }
    width_ = 1;
    return static_cast<unsigned char>(input_[pos_++]);
  }
  void Backup() { pos_ -= width_; }
  int Peek() {
    int r = Next();
    Backup();
    return r;
  }
  bool HasPrefix(const char* prefix) const {
    return input_.compare(pos_, std::strlen(prefix), prefix) == 0;
  }
  std::string ConsumeText() {
    std::string value = input_.substr(start_, pos_ - start_);
    start_ = pos_;
    return value;
  }

  // ParseInsideAction parses one element of an action. mirrors parser.go parseInsideAction
  Status ParseInsideAction(Node* cur) {
    if (HasPrefix("[?(")) return ParseFilter(cur);
    if (HasPrefix("..")) return ParseRecursive(cur);
    int r = Next();
    if (r == kEof || IsEndOfLine(r)) return Error("unclosed action");
    if (r == ' ' || r == '@' || r == '$') {
      ConsumeText();
      return Status::OK();
    }
    if (r == '[') return ParseArray(cur);
    if (r == '"' || r == '\'') return ParseQuote(cur, r);
    if (r == '.') return ParseField(cur);
    if (r == '+' || r == '-' || IsDigit(r)) {
      Backup();
      return ParseNumber(cur);
    }
    if (IsAlphaNumeric(r)) {
      Backup();
      return ParseIdentifier(cur);
    }
    return Error("unrecognized character in action: " + GoRune(r));
  }

  Status ParseIdentifier(Node* cur) {
    while (true) {
      int r = Next();
      if (IsTerminator(r)) {
        Backup();
        break;
      }
    }
    std::string value = ConsumeText();
    if (value == "true" || value == "false") {
      Node n = MakeNode(NodeType::kBool);
      n.bool_value = value == "true";
      cur->nodes.push_back(std::move(n));
    } else {
      cur->nodes.push_back(MakeNode(NodeType::kIdentifier, value));
    }
    return Status::OK();
  }

  Status ParseRecursive(Node* cur) {
    if (!cur->nodes.empty() && cur->nodes.back().type == NodeType::kRecursive) {
      return Error("invalid multiple recursive descent");
    }
    pos_ += 2;
    ConsumeText();
    cur->nodes.push_back(MakeNode(NodeType::kRecursive));
    if (IsAlphaNumeric(Peek())) return ParseField(cur);
    return Status::OK();
  }

  Status ParseNumber(Node* cur) {
    int r = Peek();
    if (r == '+' || r == '-') Next();
    while (true) {
      r = Next();
      if (r != '.' && !IsDigit(r)) {
        Backup();
        break;
      }
    }
    std::string value = ConsumeText();
    int64_t i = 0;
    if (GoAtoi(value, &i)) {
      Node n = MakeNode(NodeType::kInt);
      n.int_value = i;
      cur->nodes.push_back(std::move(n));
      return Status::OK();
    }
    double d = 0;
    if (GoParseFloat(value, &d)) {
      Node n = MakeNode(NodeType::kFloat);
      n.float_value = d;
      cur->nodes.push_back(std::move(n));
      return Status::OK();
    }
    return Error("cannot parse number " + value);
  }

  // ParseArray parses "[...]": a union, a quoted dict key, or an index/slice.
  Status ParseArray(Node* cur) {
    while (true) {
      int r = Next();
      if (r == kEof || r == '\n') return Error("unterminated array");
      if (r == ']') break;
    }
    std::string text = ConsumeText();
    text = text.substr(1, text.size() - 2);
    if (text == "*") text = ":";

    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
      size_t comma = text.find(',', start);
      parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos
                                                                    : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (parts.size() > 1) {
      Node u = MakeNode(NodeType::kUnion);
      for (std::string part : parts) {
        size_t b = part.find_first_not_of(' ');
        size_t e = part.find_last_not_of(' ');
        part = b == std::string::npos ? "" : part.substr(b, e - b + 1);
        Node list;
        if (Status s = ParseAction("[" + part + "]", &list); !s.ok()) return s;
        u.nodes.push_back(std::move(list));
      }
      cur->nodes.push_back(std::move(u));
      return Status::OK();
    }

    if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'' &&
        text.find('\'', 1) == text.size() - 1) {
      Node d = MakeNode(NodeType::kDictKey, text.substr(1, text.size() - 2));
      Node fallback;
      if (ParseAction("." + d.text, &fallback).ok()) d.nodes.push_back(std::move(fallback));
      cur->nodes.push_back(std::move(d));
      return Status::OK();
    }

    // Slice: ^(-?\d*)(:-?\d*)?(:-?\d*)?$
    std::vector<std::string> values;
    start = 0;
    while (true) {
      size_t colon = text.find(':', start);
      values.push_back(text.substr(start, colon == std::string::npos ? std::string::npos
                                                                     : colon - start));
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
    bool valid = values.size() <= 3;
    for (const std::string& v : values) {
      size_t i = (!v.empty() && v[0] == '-') ? 1 : 0;
      for (; i < v.size(); ++i) {
        if (!IsDigit(static_cast<unsigned char>(v[i]))) valid = false;
      }
    }
    if (!valid) return Error("invalid array index " + text);
    Node a = MakeNode(NodeType::kArray);
    for (int i = 0; i < 3; ++i) {
      const bool present = static_cast<size_t>(i) < values.size();
      // Parts after the first keep their ':' in client-go's regex groups; an empty group is
      // "absent", a lone ':' is "present but unknown".
      if (present && (i == 0 ? !values[0].empty() : true)) {
        const std::string& v = values[static_cast<size_t>(i)];
        if (i > 0 && v.empty()) {
          a.params[i].known = false;
        } else {
          a.params[i].known = true;
          if (!GoAtoi(v, &a.params[i].value)) return Error("array index " + v + " is not a number");
        }
      } else if (i == 1) {
        a.params[1].known = true;
        a.params[1].value = a.params[0].value + 1;
        a.params[1].derived = true;
      } else {
        a.params[i].known = false;
        a.params[i].value = 0;
      }
    }
    cur->nodes.push_back(std::move(a));
    return Status::OK();
  }

  // ParseFilter parses "[?(left op right)]" or "[?(path)]". mirrors parser.go parseFilter
  Status ParseFilter(Node* cur) {
    pos_ += 3;
    ConsumeText();
    bool begin = false;
    bool end = false;
    int pair = 0;
    while (true) {
      int r = Next();
      if (r == kEof || r == '\n') return Error("unterminated filter");
      if (r == '"' || r == '\'') {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (input_[pos_ - 2] != '\\' && r == pair) end = true;
      } else if (r == ')') {
        if (begin == end) break;
      }
    }
    if (Next() != ']') return Error("unclosed array expect ]");
    std::string text = ConsumeText();
    text = text.substr(0, text.size() - 2);

    // ^([^!<>=]+)([!<>=~]+)(.+?)$
    const size_t op_start = text.find_first_of("!<>=");
    size_t op_end = op_start;
    if (op_start != std::string::npos) {
      while (op_end < text.size() && std::strchr("!<>=~", text[op_end]) != nullptr) ++op_end;
    }
    Node f = MakeNode(NodeType::kFilter);
    if (op_start == std::string::npos || op_start == 0 || op_end >= text.size()) {
      Node left;
      if (Status s = ParseAction(text, &left); !s.ok()) return s;
      f.text = "exists";
      f.nodes.push_back(std::move(left));
      f.nodes.push_back(MakeNode(NodeType::kList));
    } else {
      Node left;
      Node right;
      if (Status s = ParseAction(text.substr(0, op_start), &left); !s.ok()) return s;
      if (Status s = ParseAction(text.substr(op_end), &right); !s.ok()) return s;
      f.text = text.substr(op_start, op_end - op_start);
      f.nodes.push_back(std::move(left));
      f.nodes.push_back(std::move(right));
    }
    cur->nodes.push_back(std::move(f));
    return Status::OK();
  }

  Status ParseQuote(Node* cur, int end) {
    while (true) {
      int r = Next();
      if (r == kEof || r == '\n') return Error("unterminated quoted string");
      if (r == end && input_[pos_ - 2] != '\\') break;
    }
    std::string value = ConsumeText();
    std::string unquoted;
    if (!UnquoteExtend(value, &unquoted)) {
      return Error("unquote string " + value + " error invalid syntax");
    }
    cur->nodes.push_back(MakeNode(NodeType::kText, unquoted));
    return Status::OK();
  }

  Status ParseField(Node* cur) {
    ConsumeText();  // the '.'
    while (Advance()) {
    }
    std::string value = ConsumeText();
    if (value == "*") {
      cur->nodes.push_back(MakeNode(NodeType::kWildcard));
    } else {
      std::string name;
      for (char c : value) {
        if (c != '\\') name.push_back(c);
      }
      cur->nodes.push_back(MakeNode(NodeType::kField, name));
    }
    return Status::OK();
  }

  // Advance scans one rune of a field name; a backslash escapes the next one.
  bool Advance() {
    int r = Next();
    if (r == '\\') {
      Next();
    } else if (IsTerminator(r)) {
      Backup();
      return false;
    }
    return true;
  }

  std::string input_;
  size_t pos_ = 0;
  size_t start_ = 0;
  size_t width_ = 0;
  Node root_;
};

// ---- printing values as kubectl does ---------------------------------------------------------

// PrintValue renders one result as kubectl's JSONPathPrinter: JSON for objects and lists,
// fmt.Print for everything else.
std::string PrintValue(const Json& v) {
  if (v.is_object() || v.is_array()) {
    return GoJsonMarshal(v);
  }
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_float()) return GoFormatFloat(v.get<double>(), /*json=*/false);
  if (v.is_number()) return v.dump();
  return "<nil>";
}

// GoValue renders v as fmt's %v would print the decoded value (for error messages).
std::string GoValue(const Json& v) {
  if (v.is_null()) return "<nil>";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object() || v.is_array()) {
    std::string out = v.is_object() ? "map[" : "[";
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (!first) out += " ";
      first = false;
      if (v.is_object()) out += it.key() + ":";
      out += GoValue(it.value());
    }
    return out + "]";
  }
  return PrintValue(v);
}

std::string GoTypeName(const Json& v) {
  if (v.is_object()) return "map[string]interface {}";
  if (v.is_array()) return "[]interface {}";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_number_float()) return "float64";
  if (v.is_number()) return "int64";
  return "<nil>";
}

// ---- filter comparisons (client-go third_party/forked/golang/template funcs.go) -------------

enum class BasicKind { kInvalid, kBool, kInt, kFloat, kString };

BasicKind KindOf(const Json& v) {
  if (v.is_boolean()) return BasicKind::kBool;
  if (v.is_number_float()) return BasicKind::kFloat;
  if (v.is_number()) return BasicKind::kInt;
  if (v.is_string()) return BasicKind::kString;
  return BasicKind::kInvalid;
}

const char kErrBadComparisonType[] = "invalid type for comparison";
const char kErrBadComparison[] = "incompatible types for comparison";

Status CompareError(const char* message) { return Status(StatusCode::kInvalid, message); }

// IntLess compares two JSON integers that may be signed or unsigned.
bool IntLess(const Json& a, const Json& b) {
  if (a.is_number_unsigned() && b.is_number_unsigned()) {
    return a.get<uint64_t>() < b.get<uint64_t>();
  }
  if (a.is_number_unsigned()) {
    const int64_t bi = b.get<int64_t>();
    return bi >= 0 && a.get<uint64_t>() < static_cast<uint64_t>(bi);
  }
  if (b.is_number_unsigned()) {
    return a.get<int64_t>() < 0 || static_cast<uint64_t>(a.get<int64_t>()) < b.get<uint64_t>();
  }
  return a.get<int64_t>() < b.get<int64_t>();
}

Status Equal(const Json& a, const Json& b, bool* out) {
  BasicKind ka = KindOf(a);
  BasicKind kb = KindOf(b);
  if (ka == BasicKind::kInvalid || kb == BasicKind::kInvalid) {
    return CompareError(kErrBadComparisonType);
  }
  if (ka != kb) return CompareError(kErrBadComparison);
  switch (ka) {
    case BasicKind::kInt: *out = !IntLess(a, b) && !IntLess(b, a); break;
    case BasicKind::kFloat: *out = a.get<double>() == b.get<double>(); break;
    default: *out = a == b; break;
  }
  return Status::OK();
}

Status Less(const Json& a, const Json& b, bool* out) {
  BasicKind ka = KindOf(a);
  BasicKind kb = KindOf(b);
  if (ka == BasicKind::kInvalid || kb == BasicKind::kInvalid) {
    return CompareError(kErrBadComparisonType);
  }
  if (ka != kb) return CompareError(kErrBadComparison);
  switch (ka) {
    case BasicKind::kBool: return CompareError(kErrBadComparisonType);
    case BasicKind::kInt: *out = IntLess(a, b); break;
    case BasicKind::kFloat: *out = a.get<double>() < b.get<double>(); break;
    default: *out = a.get<std::string>() < b.get<std::string>(); break;
  }
  return Status::OK();
}

Status Compare(const std::string& op, const Json& a, const Json& b, bool* out) {
  bool lt = false;
  bool eq = false;
  if (op == "==") return Equal(a, b, out);
  if (op == "!=") {
    if (Status s = Equal(a, b, &eq); !s.ok()) return s;
    *out = !eq;
    return Status::OK();
  }
  if (op == "<") return Less(a, b, out);
  if (op == ">=") {
    if (Status s = Less(a, b, &lt); !s.ok()) return s;
    *out = !lt;
    return Status::OK();
  }
  if (op == "<=" || op == ">") {
    if (Status s = Less(a, b, &lt); !s.ok()) return s;
    if (!lt) {
      if (Status s = Equal(a, b, &eq); !s.ok()) return s;
    }
    const bool le = lt || eq;
    *out = op == "<=" ? le : !le;
    return Status::OK();
  }
  return Status(StatusCode::kInvalid, "unrecognized filter operator " + op);
}

// ---- the evaluator (client-go util/jsonpath jsonpath.go) ------------------------------------

using Values = std::vector<const Json*>;

// An Item is one piece of the template at execution time: text, an action, or a range block.
struct Item {
  enum class Kind { kText, kAction, kRange, kStrayEnd };
  Kind kind = Kind::kText;
  const Node* node = nullptr;  // kText / kAction: the node; kRange: the list after "range"
  Node range_list;
  std::vector<Item> body;
};

bool IsIdentifier(const Node& list, const char* name) {
  return !list.nodes.empty() && list.nodes[0].type == NodeType::kIdentifier &&
         list.nodes[0].text == name;
}

// BuildItems nests {range}...{end} blocks; an {end} outside a range becomes an error item.
std::vector<Item> BuildItems(const Node& root) {
  std::vector<Item> top;
  std::vector<std::vector<Item>*> stack = {&top};
  for (const Node& n : root.nodes) {
    Item item;
    if (n.type == NodeType::kText) {
      item.kind = Item::Kind::kText;
      item.node = &n;
      stack.back()->push_back(std::move(item));
    } else if (IsIdentifier(n, "range")) {
      item.kind = Item::Kind::kRange;
      item.range_list = MakeNode(NodeType::kList);
      item.range_list.nodes.assign(n.nodes.begin() + 1, n.nodes.end());
      stack.back()->push_back(std::move(item));
      stack.push_back(&stack.back()->back().body);
    } else if (IsIdentifier(n, "end")) {
      if (stack.size() == 1) {
        item.kind = Item::Kind::kStrayEnd;
        stack.back()->push_back(std::move(item));
      } else {
        stack.pop_back();
      }
    } else {
      item.kind = Item::Kind::kAction;
      item.node = &n;
      stack.back()->push_back(std::move(item));
    }
  }
  return top;
}

class Evaluator {
 public:
  explicit Evaluator(bool allow_missing_keys) : allow_missing_keys_(allow_missing_keys) {}

  Status Execute(const std::vector<Item>& items, const Json& data, std::string* out) {
    for (const Item& item : items) {
      switch (item.kind) {
        case Item::Kind::kText:
          *out += item.node->text;
          break;
        case Item::Kind::kStrayEnd:
          return Status(StatusCode::kInvalid, "not in range, nothing to end");
        case Item::Kind::kAction: {
          Values results;
          if (Status s = EvalList({&data}, *item.node, &results); !s.ok()) return s;
          for (size_t i = 0; i < results.size(); ++i) {
            if (i > 0) out->push_back(' ');
            *out += PrintValue(*results[i]);
          }
          break;
        }
        case Item::Kind::kRange: {
          Values results;
          if (Status s = EvalList({&data}, item.range_list, &results); !s.ok()) return s;
          for (const Json* v : results) {
            if (Status s = Execute(item.body, *v, out); !s.ok()) return s;
          }
          break;
        }
      }
    }
    return Status::OK();
  }

 private:
  const Json* Intern(Json v) {
    pool_.push_back(std::move(v));
    return &pool_.back();
  }

  Status NotFound(const std::string& name) const {
    return Status(StatusCode::kNotFound, name + " is not found");
  }
  static Status Invalid(const std::string& message) {
    return Status(StatusCode::kInvalid, message);
  }

  Status EvalList(const Values& input, const Node& list, Values* out) {
    Values cur = input;
    for (const Node& n : list.nodes) {
      Values next;
      if (Status s = Walk(cur, n, &next); !s.ok()) return s;
      cur = std::move(next);
    }
    *out = std::move(cur);
    return Status::OK();
  }

  Status Walk(const Values& input, const Node& n, Values* out) {
    switch (n.type) {
      case NodeType::kList:
        return EvalList(input, n, out);
      case NodeType::kText:
        *out = {Intern(Json(n.text))};
        return Status::OK();
      case NodeType::kField:
        return EvalField(input, n.text, out);
      case NodeType::kDictKey:
        return EvalDictKey(input, n, out);
      case NodeType::kArray:
        return EvalArray(input, n, out);
      case NodeType::kFilter:
        return EvalFilter(input, n, out);
      case NodeType::kInt:
      case NodeType::kFloat:
      case NodeType::kBool: {
        const Json* literal = Intern(n.type == NodeType::kInt     ? Json(n.int_value)
                                     : n.type == NodeType::kFloat ? Json(n.float_value)
                                                                  : Json(n.bool_value));
        *out = Values(input.size(), literal);
        return Status::OK();
      }
      case NodeType::kWildcard:
        for (const Json* v : input) {
          if (v->is_object() || v->is_array()) {
            for (const Json& child : *v) out->push_back(&child);
          }
        }
        return Status::OK();
      case NodeType::kRecursive:
        EvalRecursive(input, out);
        return Status::OK();
      case NodeType::kUnion:
        for (const Node& list : n.nodes) {
          Values part;
          if (Status s = EvalList(input, list, &part); !s.ok()) return s;
          out->insert(out->end(), part.begin(), part.end());
        }
        return Status::OK();
      case NodeType::kIdentifier:
        if (n.text == "range") {
          *out = input;
          return Status::OK();
        }
        if (n.text == "end") return Invalid("not in range, nothing to end");
        return Invalid("unrecognized identifier " + n.text);
    }
    return Invalid("unexpected Node");
  }

  // mirrors jsonpath.go evalField: missing keys are an error unless allow_missing_keys.
  Status EvalField(const Values& input, const std::string& name, Values* out) {
    if (input.empty()) return Status::OK();
    for (const Json* v : input) {
      if (!v->is_object()) continue;
      auto it = v->find(name);
      if (it != v->end()) out->push_back(&*it);
    }
    if (out->empty() && !allow_missing_keys_) return NotFound(name);
    return Status::OK();
  }

  Status EvalDictKey(const Values& input, const Node& n, Values* out) {
    if (input.empty()) return Status::OK();
    for (const Json* v : input) {
      if (!v->is_object()) continue;
      auto it = v->find(n.text);
      if (it != v->end()) {
        out->push_back(&*it);
      } else if (!n.nodes.empty()) {
        Values nested;
        if (EvalList({v}, n.nodes[0], &nested).ok()) out->insert(out->end(), nested.begin(), nested.end());
      }
    }
    if (out->empty() && !allow_missing_keys_) return NotFound(n.text);
    return Status::OK();
  }

  // mirrors jsonpath.go evalArray (indices, negative indices, slices with steps)
  Status EvalArray(const Values& input, const Node& n, Values* out) {
    for (const Json* v : input) {
      if (v->is_null()) continue;
      if (!v->is_array()) return Invalid(GoTypeName(*v) + " is not array or slice");
      ArrayParam p[3] = {n.params[0], n.params[1], n.params[2]};
      const int64_t len = static_cast<int64_t>(v->size());
      if (!p[0].known) p[0].value = 0;
      if (p[0].value < 0) p[0].value += len;
      if (!p[1].known) p[1].value = len;
      if (p[1].value < 0 || (p[1].value == 0 && p[1].derived)) p[1].value += len;
      if (p[1].value == p[0].value) return Status::OK();  // zero elements requested
      if (p[0].value >= len || p[0].value < 0) {
        return Invalid("array index out of bounds: index " + std::to_string(p[0].value) +
                       ", length " + std::to_string(len));
      }
      if (p[1].value > len || p[1].value < 0) {
        return Invalid("array index out of bounds: index " + std::to_string(p[1].value - 1) +
                       ", length " + std::to_string(len));
      }
      if (p[0].value > p[1].value) {
        return Invalid("starting index " + std::to_string(p[0].value) +
                       " is greater than ending index " + std::to_string(p[1].value));
      }
      int64_t step = 1;
      if (p[2].known) {
        if (p[2].value <= 0) return Invalid("step must be > 0");
        step = p[2].value;
      }
      for (int64_t i = p[0].value; i < p[1].value; i += step) {
        out->push_back(&(*v)[static_cast<size_t>(i)]);
      }
    }
    return Status::OK();
  }

  // mirrors jsonpath.go evalFilter
  Status EvalFilter(const Values& input, const Node& n, Values* out) {
    for (const Json* v : input) {
      if (v->is_null()) {
        return Invalid("<invalid reflect.Value> is not array or slice and cannot be filtered");
      }
      if (!v->is_array()) {
        return Invalid(GoValue(*v) + " is not array or slice and cannot be filtered");
      }
      for (const Json& element : *v) {
        Values lefts;
        Status ls = EvalList({&element}, n.nodes[0], &lefts);
        if (n.text == "exists") {
          if (ls.ok() && !lefts.empty()) out->push_back(&element);
          continue;
        }
        if (!ls.ok()) return ls;
        if (lefts.empty()) continue;
        if (lefts.size() > 1) return Invalid("can only compare one element at a time");
        Values rights;
        if (Status rs = EvalList({&element}, n.nodes[1], &rights); !rs.ok()) return rs;
        if (rights.empty()) continue;
        if (rights.size() > 1) return Invalid("can only compare one element at a time");
        bool pass = false;
        if (Status cs = Compare(n.text, *lefts[0], *rights[0], &pass); !cs.ok()) return cs;
        if (pass) out->push_back(&element);
      }
    }
    return Status::OK();
  }

  // mirrors jsonpath.go evalRecursive: each container, then everything below it.
  void EvalRecursive(const Values& input, Values* out) {
    for (const Json* v : input) {
      if (!(v->is_object() || v->is_array()) || v->empty()) continue;
      Values children;
      for (const Json& child : *v) children.push_back(&child);
      out->push_back(v);
      EvalRecursive(children, out);
    }
  }

  const bool allow_missing_keys_;
  std::deque<Json> pool_;  // literals; a deque keeps their addresses stable
};

}  // namespace

// mirrors kubectl's JSONPathPrinter (parse, then Execute) with client-go util/jsonpath
StatusOr<std::string> EvaluateJsonPath(const std::string& template_text, const Json& data,
                                       bool allow_missing_keys) {
  Parser parser(template_text);
  if (Status s = parser.Parse(); !s.ok()) {
    return Status(StatusCode::kBadRequest,
                  "error parsing jsonpath " + template_text + ", " + s.message());
  }
  const std::vector<Item> items = BuildItems(parser.root());
  Evaluator evaluator(allow_missing_keys);
  std::string out;
  if (Status s = evaluator.Execute(items, data, &out); !s.ok()) {
    return Status(s.code(), "error executing jsonpath " + GoQuote(template_text) + ": " +
                                s.message());
  }
  return out;
}

}  // namespace api
