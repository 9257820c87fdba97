#include "core/api/go_text.h"

#include <gtest/gtest.h>

namespace api {
namespace {

TEST(GoQuote, EscapesAsStrconvQuoteDoes) {
  EXPECT_EQ(GoQuote("plain"), "\"plain\"");
  EXPECT_EQ(GoQuote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(GoQuote("\n\t\r\a\b\f\v"), "\"\\n\\t\\r\\a\\b\\f\\v\"");
  EXPECT_EQ(GoQuote(std::string("\x01\x1f\x7f", 3)), "\"\\x01\\x1f\\x7f\"");
  EXPECT_EQ(GoQuote("名前"), "\"名前\"") << "UTF-8 is printed as it is";
}

TEST(FieldValueText, QuotesStringsAndPrintsTheRestAsJson) {
  EXPECT_EQ(FieldValueText(Json("x\ty")), "\"x\\ty\"");
  EXPECT_EQ(FieldValueText(Json(12)), "12");
  EXPECT_EQ(FieldValueText(Json(true)), "true");
  EXPECT_EQ(FieldValueText(Json{{"a", 1}}), "{\"a\":1}");
}

}  // namespace
}  // namespace api
