// base::CompareBytes and base::CopyBytes stand in for memcmp and memcpy in the WebAssembly builds
// (core/base/libc_byte_ops.cc), so they must agree with the C library's on every length and
// alignment: here against glibc's, over every length up to 40 at every pair of offsets.
#include "core/base/byte_ops.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace base {
namespace {

int Sign(int v) { return (v > 0) - (v < 0); }

// Text fills a buffer with bytes from both halves of the range (memcmp compares them unsigned).
// One byte more than asked, so even an empty text has an address (memcmp and memcpy take none
// that is null, even for no bytes: UndefinedBehaviorSanitizer checks).
std::vector<unsigned char> Text(size_t n, unsigned seed) {
  std::vector<unsigned char> out(n + 1);
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<unsigned char>((i * 37 + seed * 101) ^ 0x5a);
  return out;
}

TEST(CompareBytes, AgreesWithMemcmpAtEveryLengthOffsetAndDifference) {
  constexpr size_t kMax = 40;
  for (size_t n = 0; n <= kMax; ++n) {
    for (size_t off_a = 0; off_a < 8; ++off_a) {
      for (size_t off_b = 0; off_b < 8; ++off_b) {
        std::vector<unsigned char> a(off_a + kMax + 8), b(off_b + kMax + 8);
        const std::vector<unsigned char> text = Text(n, static_cast<unsigned>(n + off_a));
        std::memcpy(a.data() + off_a, text.data(), n);
        std::memcpy(b.data() + off_b, text.data(), n);
        ASSERT_EQ(CompareBytes(a.data() + off_a, b.data() + off_b, n), 0) << n;
        // A difference at each position, both ways round and across the sign bit of a byte.
        for (size_t at = 0; at < n; ++at) {
          for (unsigned char delta : {1, 0x80}) {
            std::vector<unsigned char> c = b;
            c[off_b + at] = static_cast<unsigned char>(c[off_b + at] + delta);
            const int want = std::memcmp(a.data() + off_a, c.data() + off_b, n);
            ASSERT_NE(want, 0);
            EXPECT_EQ(Sign(CompareBytes(a.data() + off_a, c.data() + off_b, n)), Sign(want))
                << "n=" << n << " at=" << at << " delta=" << int(delta);
            EXPECT_EQ(Sign(CompareBytes(c.data() + off_b, a.data() + off_a, n)), -Sign(want));
          }
        }
      }
    }
  }
}

TEST(CompareBytes, OnlyTheFirstDifferenceCounts) {
  // The later byte would order the other way; the first difference decides.
  const unsigned char a[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0xff, 0};
  const unsigned char b[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 0x00, 0};
  EXPECT_LT(CompareBytes(a, b, 12), 0);
  EXPECT_GT(CompareBytes(b, a, 12), 0);
  EXPECT_EQ(CompareBytes(a, b, 9), 0);  // the difference lies past n
}

TEST(CompareBytes, AgreesWithMemcmpOnBuffersThatDifferInManyPlaces) {
  // Bytes from a small alphabet (ties are common) that spans the sign bit, so the first
  // difference is often followed by others that would order the buffers the other way.
  const unsigned char alphabet[] = {0x00, 0x01, 0x02, 0x7f, 0x80, 0xfe, 0xff};
  uint64_t state = 0x9e3779b97f4a7c15u;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int round = 0; round < 20000; ++round) {
    const size_t n = next() % 41;
    const size_t off_a = next() % 8, off_b = next() % 8;
    std::vector<unsigned char> a(off_a + n + 1), b(off_b + n + 1);  // never a null data()
    for (size_t i = 0; i < n; ++i) {
      a[off_a + i] = alphabet[next() % sizeof alphabet];
      // Mostly equal, so differences come late as often as early.
      b[off_b + i] = next() % 4 == 0 ? alphabet[next() % sizeof alphabet] : a[off_a + i];
    }
    const int want = Sign(std::memcmp(a.data() + off_a, b.data() + off_b, n));
    ASSERT_EQ(Sign(CompareBytes(a.data() + off_a, b.data() + off_b, n)), want) << "round " << round;
  }
}

TEST(CopyBytes, CopiesExactlyNBytesAtEveryLengthAndOffset) {
  constexpr size_t kMax = 40;
  constexpr unsigned char kGuard = 0xee;
  for (size_t n = 0; n <= kMax; ++n) {
    for (size_t off_d = 0; off_d < 8; ++off_d) {
      for (size_t off_s = 0; off_s < 8; ++off_s) {
        const std::vector<unsigned char> text = Text(n + 8, static_cast<unsigned>(off_s));
        std::vector<unsigned char> src(off_s + kMax + 8, 0);
        std::memcpy(src.data() + off_s, text.data(), n);
        std::vector<unsigned char> dst(off_d + kMax + 16, kGuard);
        EXPECT_EQ(CopyBytes(dst.data() + off_d, src.data() + off_s, n), dst.data() + off_d);
        for (size_t i = 0; i < dst.size(); ++i) {
          const bool inside = i >= off_d && i < off_d + n;
          ASSERT_EQ(dst[i], inside ? text[i - off_d] : kGuard)
              << "n=" << n << " off_d=" << off_d << " off_s=" << off_s << " i=" << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace base
