// SHA-1 against the FIPS 180 test vectors.
// mirrors Go crypto/sha1 sha1_test.go golden values
#include "core/operators/kuberay/common/sha1.h"

#include <array>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

namespace kuberay {
namespace {

std::string Hex(const std::array<uint8_t, 20>& d) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : d) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

TEST(Sha1, FipsVectors) {
  EXPECT_EQ(Hex(Sha1("")), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Hex(Sha1("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Hex(Sha1("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(Hex(Sha1(std::string(1000000, 'a'))), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
  // Lengths around the block boundary: 55, 56 and 64 bytes need one or two padding blocks.
  EXPECT_EQ(Hex(Sha1(std::string(55, 'x'))), "cef734ba81a024479e09eb5a75b6ddae62e6abf1");
  EXPECT_EQ(Hex(Sha1(std::string(64, 'x'))), "bb2fa3ee7afb9f54c6dfb5d021f14b1ffe40c163");
}

}  // namespace
}  // namespace kuberay
