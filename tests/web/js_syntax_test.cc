// The Code pane's colouring lexer (web/src/js_syntax.h): which spans a reconciler's text gets,
// and where an engine error's line is found.

#include "js_syntax.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace web {
namespace {

// KindAt is the kind of the span covering the first occurrence of `needle` in `text`.
JsToken KindAt(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  for (const JsSpan& s : JsSpans(text)) {
    if (s.begin <= at && at < s.end) return s.kind;
  }
  ADD_FAILURE() << "no span covers " << needle;
  return JsToken::kPlain;
}

TEST(JsSyntax, SpansCoverTheTextInOrder) {
  const std::string text = "const a = `x${b}` + 'c' /* d */ + 1e-3; // e\nreturn /f/g;";
  size_t at = 0;
  for (const JsSpan& s : JsSpans(text)) {
    EXPECT_EQ(s.begin, at);
    EXPECT_LT(s.begin, s.end);
    at = s.end;
  }
  EXPECT_EQ(at, text.size());
}

TEST(JsSyntax, KeywordsStringsNumbersComments) {
  const std::string text = "export async function f() { return 'x' + 0x1F; } // done";
  EXPECT_EQ(KindAt(text, "export"), JsToken::kKeyword);
  EXPECT_EQ(KindAt(text, "f()"), JsToken::kPlain);
  EXPECT_EQ(KindAt(text, "'x'"), JsToken::kString);
  EXPECT_EQ(KindAt(text, "0x1F"), JsToken::kNumber);
  EXPECT_EQ(KindAt(text, "// done"), JsToken::kComment);
  EXPECT_EQ(KindAt("obj.default", "default"), JsToken::kPlain);
}

TEST(JsSyntax, TemplateExpressionsAreCode) {
  const std::string text = "`a ${`b ${c}`} d`";
  EXPECT_EQ(KindAt(text, "`a"), JsToken::kTemplate);
  EXPECT_EQ(KindAt(text, "c}"), JsToken::kPlain);
  EXPECT_EQ(KindAt(text, " d`"), JsToken::kTemplate);
}

TEST(JsSyntax, RegularExpressionWhereAnOperandIsDue) {
  EXPECT_EQ(KindAt("const re = /^web-[a-z]+$/i;", "/^web"), JsToken::kRegExp);
  EXPECT_EQ(KindAt("if (/-mirror$/.test(name)) return;", "/-mirror"), JsToken::kRegExp);
  EXPECT_EQ(KindAt("return /x/.test(s);", "/x/"), JsToken::kRegExp);
  EXPECT_EQ(KindAt("f(a, /[/]+/g)", "/[/]"), JsToken::kRegExp);
  EXPECT_EQ(KindAt("`${/y/.source}`", "/y/"), JsToken::kRegExp);
  // The flags belong to the literal; the text after it does not.
  const std::string text = "s.split(/,\\s*/g).length";
  const size_t at = text.find("/,");
  bool found = false;
  for (const JsSpan& s : JsSpans(text)) {
    if (s.begin != at) continue;
    found = true;
    EXPECT_EQ(text.substr(s.begin, s.end - s.begin), "/,\\s*/g");
  }
  EXPECT_TRUE(found);
}

TEST(JsSyntax, SlashAfterAnOperandDivides) {
  EXPECT_EQ(KindAt("const half = total / 2 / 3;", "/ 2"), JsToken::kPlain);
  EXPECT_EQ(KindAt("(a + b) / c / d", "/ c"), JsToken::kPlain);
  EXPECT_EQ(KindAt("xs[0] / n / m", "/ n"), JsToken::kPlain);
  EXPECT_EQ(KindAt("this / 2 / 3", "/ 2"), JsToken::kPlain);
  EXPECT_EQ(KindAt("a /* c */ / b / d", "/ b"), JsToken::kPlain);
  // An unclosed slash on its line is plain code, never a literal running on.
  EXPECT_EQ(KindAt("x = /abc\ny = 1;", "/abc"), JsToken::kPlain);
}

TEST(JsSyntax, ErrorLineFromEngineOutput) {
  int col = 0;
  EXPECT_EQ(JsErrorLine("error: mirror.js:30:7: SyntaxError: unexpected token", &col), 30);
  EXPECT_EQ(col, 7);
  EXPECT_EQ(JsErrorLine("error: no line here"), 0);
}

}  // namespace
}  // namespace web
