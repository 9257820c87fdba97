// Share links: base64url and raw deflate (stored blocks) as the page's #s= decoder reads them.

#include "core/explore/share.h"

#include <gtest/gtest.h>

namespace explore {
namespace {

TEST(ShareTest, Base64UrlMatchesRfc4648WithoutPaddingAndUrlSafeDigits) {
  EXPECT_EQ(Base64Url(""), "");
  EXPECT_EQ(Base64Url("f"), "Zg");
  EXPECT_EQ(Base64Url("fo"), "Zm8");
  EXPECT_EQ(Base64Url("foo"), "Zm9v");
  EXPECT_EQ(Base64Url("foobar"), "Zm9vYmFy");
  EXPECT_EQ(Base64Url(std::string("\xfb\xff", 2)), "-_8");
}

// Inflate reads a raw deflate stream made only of stored blocks (what DeflateRawStored writes).
std::string InflateStored(const std::string& in) {
  std::string out;
  size_t at = 0;
  for (;;) {
    const unsigned char header = static_cast<unsigned char>(in.at(at));
    EXPECT_EQ(header & 0x06, 0) << "not a stored block";
    const size_t len = static_cast<unsigned char>(in.at(at + 1)) |
                       (static_cast<unsigned char>(in.at(at + 2)) << 8);
    const size_t nlen = static_cast<unsigned char>(in.at(at + 3)) |
                        (static_cast<unsigned char>(in.at(at + 4)) << 8);
    EXPECT_EQ(len ^ 0xffff, nlen);
    out += in.substr(at + 5, len);
    at += 5 + len;
    if (header & 1) break;
  }
  EXPECT_EQ(at, in.size());
  return out;
}

TEST(ShareTest, DeflateRawStoredRoundTripsIncludingEmptyAndMultiBlockInput) {
  EXPECT_EQ(DeflateRawStored("abc"), std::string("\x01\x03\x00\xfc\xff" "abc", 8));
  EXPECT_EQ(InflateStored(DeflateRawStored("")), "");
  const std::string big(70000, 'x');
  const std::string deflated = DeflateRawStored(big);
  EXPECT_EQ(deflated[0], 0x00);  // the first of two blocks is not final
  EXPECT_EQ(InflateStored(deflated), big);
}

TEST(ShareTest, ShareUrlEncodesTheScriptAndRefusesMoreThan16KB) {
  auto url = ShareUrl("http://127.0.0.1:8080/", "run 1s\n");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(*url, "http://127.0.0.1:8080/#s=" + Base64Url(DeflateRawStored("run 1s\n")));
  auto too_big = ShareFragment(std::string(kMaxShareScriptBytes + 1, '#'));
  EXPECT_FALSE(too_big.ok());
  EXPECT_NE(too_big.status().message().find("16 KB"), std::string::npos);
}

}  // namespace
}  // namespace explore
