// JavaScript colouring spans and the engine's error position (see js_syntax.h).

#include "js_syntax.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace web {
namespace {

// ES2020 reserved words plus the contextual ones a reconciler uses (of, async, await, get, set
// are coloured only where they are whole words, like the rest).
const char* const kJsKeywords[] = {
    "async",    "await",      "break",   "case",   "catch",    "class", "const",
    "continue", "debugger",   "default", "delete", "do",       "else",  "export",
    "extends",  "false",      "finally", "for",    "function", "if",    "import",
    "in",       "instanceof", "let",     "new",    "null",     "of",    "return",
    "static",   "super",      "switch",  "this",   "throw",    "true",  "try",
    "typeof",   "undefined",  "var",     "void",   "while",    "with",  "yield"};

bool IdentStart(unsigned char c) { return std::isalpha(c) || c == '_' || c == '$' || c >= 0x80; }
bool IdentPart(unsigned char c) { return IdentStart(c) || std::isdigit(c); }

// The keywords that are values: a slash after them divides (`this / 2`); after any other keyword
// (`return`, `typeof`, …) it opens a regular expression.
bool KeywordIsOperand(const std::string& text, size_t b, size_t e) {
  for (const char* k : {"this", "super", "true", "false", "null", "undefined"}) {
    if (std::strlen(k) == e - b && text.compare(b, e - b, k) == 0) return true;
  }
  return false;
}

bool IsKeyword(const std::string& text, size_t b, size_t e) {
  for (const char* k : kJsKeywords) {
    if (std::strlen(k) == e - b && text.compare(b, e - b, k) == 0) return true;
  }
  return false;
}

struct Lexer {
  const std::string& t;
  std::vector<JsSpan> out;
  // Template strings open inside `${…}` of an enclosing one: the brace depth each was opened at.
  std::vector<int> template_depths;
  int braces = 0;
  // operand_ended: the last token outside comments and blanks ends an operand (a name, a
  // number, a string, a closing bracket), so a slash after it divides.
  bool operand_ended = false;

  void Add(size_t b, size_t e, JsToken kind) {
    if (e <= b) return;
    if (kind != JsToken::kComment) Note(b, e, kind);
    if (!out.empty() && out.back().kind == kind && out.back().end == b) {
      out.back().end = e;
      return;
    }
    out.push_back({b, e, kind});
  }

  void Note(size_t b, size_t e, JsToken kind) {
    if (kind == JsToken::kPlain) {
      const unsigned char last = static_cast<unsigned char>(t[e - 1]);
      if (std::isspace(last)) return;
      operand_ended = IdentPart(last) || last == ')' || last == ']' || last == '}';
    } else if (kind == JsToken::kKeyword) {
      operand_ended = KeywordIsOperand(t, b, e);
    } else {
      operand_ended = true;
    }
  }

  // RegExp reads a regular expression literal from its opening slash at i: the body (escapes,
  // character classes) to the closing slash on the same line, then its flags. Returns its end,
  // or i when the line ends first (then the slash is plain code).
  size_t RegExp(size_t i) const {
    bool in_class = false;
    for (size_t e = i + 1; e < t.size() && t[e] != '\n'; ++e) {
      if (t[e] == '\\') {
        ++e;
      } else if (t[e] == '[') {
        in_class = true;
      } else if (t[e] == ']') {
        in_class = false;
      } else if (t[e] == '/' && !in_class) {
        ++e;
        while (e < t.size() && std::isalpha(static_cast<unsigned char>(t[e]))) ++e;
        return e;
      }
    }
    return i;
  }

  // TemplateBody colours from start (a backtick or the closing `}` of `${…}`), reading from i, to
  // the closing backtick or the next `${`, which it enters.
  size_t TemplateBody(size_t start, size_t i) {
    while (i < t.size()) {
      if (t[i] == '\\') {
        i += 2;
      } else if (t[i] == '`') {
        Add(start, i + 1, JsToken::kTemplate);
        return i + 1;
      } else if (t[i] == '$' && i + 1 < t.size() && t[i + 1] == '{') {
        Add(start, i + 2, JsToken::kTemplate);
        operand_ended = false;  // `${` opens an expression
        template_depths.push_back(braces);
        ++braces;
        return i + 2;
      } else {
        ++i;
      }
    }
    Add(start, t.size(), JsToken::kTemplate);
    return t.size();
  }

  void Run() {
    size_t i = 0;
    const size_t n = t.size();
    while (i < n) {
      const unsigned char c = static_cast<unsigned char>(t[i]);
      if (c == '/' && i + 1 < n && t[i + 1] == '/') {
        size_t e = t.find('\n', i);
        if (e == std::string::npos) e = n;
        Add(i, e, JsToken::kComment);
        i = e;
      } else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
        size_t e = t.find("*/", i + 2);
        e = e == std::string::npos ? n : e + 2;
        Add(i, e, JsToken::kComment);
        i = e;
      } else if (c == '/' && !operand_ended && RegExp(i) > i) {
        const size_t e = RegExp(i);
        Add(i, e, JsToken::kRegExp);
        i = e;
      } else if (c == '"' || c == '\'') {
        size_t e = i + 1;
        while (e < n && t[e] != c && t[e] != '\n') e += t[e] == '\\' ? 2 : 1;
        e = std::min(n, e + (e < n && t[e] == c ? 1 : 0));
        Add(i, e, JsToken::kString);
        i = e;
      } else if (c == '`') {
        i = TemplateBody(i, i + 1);
      } else if (c == '{') {
        ++braces;
        Add(i, i + 1, JsToken::kPlain);
        ++i;
      } else if (c == '}') {
        --braces;
        if (!template_depths.empty() && template_depths.back() == braces) {
          template_depths.pop_back();
          i = TemplateBody(i, i + 1);  // from the closing brace of `${…}`
        } else {
          Add(i, i + 1, JsToken::kPlain);
          ++i;
        }
      } else if (std::isdigit(c) ||
                 (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(t[i + 1])))) {
        size_t e = i + 1;
        while (e < n) {
          const unsigned char d = static_cast<unsigned char>(t[e]);
          const bool exp_sign = (d == '+' || d == '-') && (t[e - 1] == 'e' || t[e - 1] == 'E') &&
                                !(t[i] == '0' && i + 1 < e && (t[i + 1] == 'x' || t[i + 1] == 'X'));
          if (std::isalnum(d) || d == '.' || d == '_' || exp_sign) {
            ++e;
          } else {
            break;
          }
        }
        Add(i, e, JsToken::kNumber);
        i = e;
      } else if (IdentStart(c)) {
        size_t e = i + 1;
        while (e < n && IdentPart(static_cast<unsigned char>(t[e]))) ++e;
        // A property name after a dot is never a keyword (obj.default, x.new).
        const bool after_dot = i > 0 && t[i - 1] == '.';
        Add(i, e, !after_dot && IsKeyword(t, i, e) ? JsToken::kKeyword : JsToken::kPlain);
        i = e;
      } else {
        Add(i, i + 1, JsToken::kPlain);
        ++i;
      }
    }
  }
};

}  // namespace

std::vector<JsSpan> JsSpans(const std::string& text) {
  Lexer lexer{text, {}, {}, 0};
  lexer.Run();
  return std::move(lexer.out);
}

int JsErrorLine(const std::string& output, int* column) {
  for (size_t i = 0; i < output.size(); ++i) {
    if (output[i] != ':' || i == 0 || std::isspace(static_cast<unsigned char>(output[i - 1])))
      continue;
    size_t j = i + 1;
    int line = 0, col = 0;
    while (j < output.size() && std::isdigit(static_cast<unsigned char>(output[j])) &&
           line < 1000000) {
      line = line * 10 + (output[j++] - '0');
    }
    if (j == i + 1 || j >= output.size() || output[j] != ':') continue;
    const size_t col_start = ++j;
    while (j < output.size() && std::isdigit(static_cast<unsigned char>(output[j])) &&
           col < 1000000) {
      col = col * 10 + (output[j++] - '0');
    }
    if (j == col_start || j + 1 >= output.size() || output[j] != ':' || output[j + 1] != ' ')
      continue;
    if (column != nullptr) *column = col;
    return line;
  }
  return 0;
}

}  // namespace web
