#include "core/apiserver/internal/request_size.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace apiserver::internal {
namespace {

using api::Json;

// The verdict must be exactly the one of serialising the body, at every limit around its size.
TEST(RequestTooLarge, AgreesWithTheSerialisedSizeAroundTheLimit) {
  const std::vector<Json> bodies = {
      Json::object(),
      Json::parse(R"({"metadata":{"name":"a"},"data":{"k":"v"}})"),
      Json{{"quote\"and\\slash", "tab\tnewline\ncontrol\x01"}, {"n", -9223372036854775807LL}},
      Json{{"float", 3.141592653589793}, {"big", 1e300}, {"list", {1, nullptr, true, "x"}}},
      Json{{"utf8", "\xe4\xb8\xad\xe6\x96\x87"}, {"nested", {{"a", {{"b", {{"c", "d"}}}}}}}},
      Json{{"data", std::string(5000, 'x')}},
  };
  for (const Json& body : bodies) {
    const size_t size = body.dump().size();
    for (size_t limit = size > 3 ? size - 3 : 0; limit <= size + 3; ++limit) {
      EXPECT_EQ(RequestTooLarge(body, limit), size > limit) << body.dump() << " limit " << limit;
    }
  }
}

TEST(RequestTooLarge, SmallBodiesUnderTheRealLimit) {
  EXPECT_FALSE(RequestTooLarge(Json{{"data", std::string(1000, 'x')}}, 3 * 1024 * 1024));
  EXPECT_TRUE(RequestTooLarge(Json{{"data", std::string(3 * 1024 * 1024, 'x')}}, 3 * 1024 * 1024));
}

}  // namespace
}  // namespace apiserver::internal
