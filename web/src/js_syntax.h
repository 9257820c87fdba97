#pragma once
// Syntax colouring for the Code pane: JavaScript text cut into spans of one kind each (keyword,
// string, template string, number, comment, plain). A lexer for colours only, never for meaning:
// it knows ES2020's keywords, the three quote kinds, `${…}` inside template strings (coloured
// as code, nested to any depth), line and block comments, and numbers (decimal, hex, octal,
// binary, exponents, separators, BigInt) and regular expression literals (`/…/flags`, a
// character class may hold `/`). A slash starts a regular expression where an operand is due:
// after an operator, an opening bracket, a comma or a keyword such as `return`; after a name, a
// number, a string or a closing bracket it is a division (the rule editors use without a parser;
// `a++ /b/` colours as a division). Bounded: one pass, linear in the text.
// No upstream counterpart.

#include <cstddef>
#include <string>
#include <vector>

namespace web {

enum class JsToken { kPlain, kKeyword, kString, kTemplate, kNumber, kComment, kRegExp };

struct JsSpan {
  size_t begin = 0, end = 0;  // byte offsets into the text, [begin, end)
  JsToken kind = JsToken::kPlain;
};

// JsSpans covers the whole text with spans in order (adjacent plain text is one span).
std::vector<JsSpan> JsSpans(const std::string& text);

// JsErrorLine finds the line of an engine error ("FILE:LINE:COL: message", core/js/error.h) in
// a command's output: the first "NAME.js:LINE:COL: " (or "NAME:LINE:COL: ") there; 0 when none.
int JsErrorLine(const std::string& output, int* column = nullptr);

}  // namespace web
