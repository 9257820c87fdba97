#include "core/base/status.h"

#include <gtest/gtest.h>

namespace base {
namespace {

TEST(Status, ReasonsAndHttpCodesFollowKubernetes) {
  struct Case {
    StatusCode code;
    const char* reason;
    int http;
  } cases[] = {
      {StatusCode::kNotFound, "NotFound", 404},
      {StatusCode::kConflict, "Conflict", 409},
      {StatusCode::kAlreadyExists, "AlreadyExists", 409},
      {StatusCode::kInvalid, "Invalid", 422},
      {StatusCode::kForbidden, "Forbidden", 403},
      {StatusCode::kUnsupportedMediaType, "UnsupportedMediaType", 415},
      {StatusCode::kRequestEntityTooLarge, "RequestEntityTooLarge", 413},
      {StatusCode::kInternal, "InternalError", 500},
  };
  for (const auto& c : cases) {
    EXPECT_STREQ(Reason(c.code), c.reason);
    EXPECT_EQ(HttpCode(c.code), c.http);
  }
  EXPECT_EQ(CodeFromHttp(409), StatusCode::kConflict);
  EXPECT_EQ(CodeFromHttp(599), StatusCode::kInternal);
}

TEST(Status, IgnoreNotFoundPassesOtherErrors) {
  EXPECT_TRUE(IgnoreNotFound(Status(StatusCode::kNotFound, "x")).ok());
  EXPECT_TRUE(IsConflict(IgnoreNotFound(Status(StatusCode::kConflict, "x"))));
}

TEST(StatusOr, HoldsValueOrError) {
  StatusOr<int> good = 5;
  EXPECT_TRUE(good.ok());
  EXPECT_EQ(*good, 5);
  StatusOr<int> bad = Status(StatusCode::kInvalid, "nope");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "nope");
}

TEST(StatusDeathTest, ValueOfAnErrorAborts) {
  StatusOr<int> bad = Status(StatusCode::kInvalid, "nope");
  EXPECT_DEATH({ (void)bad.value(); }, "StatusOr::value");
}

TEST(Status, TerminalFlagIsKept) {
  Status s(StatusCode::kInvalid, "bad spec");
  s.SetTerminal();
  EXPECT_TRUE(s.terminal());
}

}  // namespace
}  // namespace base
