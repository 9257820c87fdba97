#pragma once
// CompareBytes and CopyBytes: memcmp and memcpy eight bytes at a time through unaligned loads.
// They stand in for the C library's in the WebAssembly builds (libc_byte_ops.cc): Emscripten
// 3.1.6's memcmp (musl's) steps a byte at a time unless both sides are 4-aligned, and its memcpy
// does the same unless both sides share an alignment, which most of a simulation's copies and
// compares do not (short strings, keys viewed inside records): the two were 13 % of a scale
// run's samples under Node (docs/performance.md, "Word-wise memcmp and memcpy in WebAssembly").
// WebAssembly loads need no alignment, so a word at a time is always possible. Natively the C
// library's are used; the tests check these against them.
// Little-endian only (WebAssembly and x86-64). Single-threaded or not: no state; no time.

#include <cstddef>
#include <cstdint>

namespace base {

namespace internal {
inline uint64_t Load64(const unsigned char* p) {
  uint64_t v;
  __builtin_memcpy(&v, p, sizeof v);  // a constant size: one unaligned load, never a call
  return v;
}
inline uint32_t Load32(const unsigned char* p) {
  uint32_t v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
inline void Store64(unsigned char* p, uint64_t v) { __builtin_memcpy(p, &v, sizeof v); }
inline void Store32(unsigned char* p, uint32_t v) { __builtin_memcpy(p, &v, sizeof v); }

// FirstDifference orders two unequal little-endian words by their first differing byte.
inline int FirstDifference(uint64_t x, uint64_t y) {
  const unsigned shift = static_cast<unsigned>(__builtin_ctzll(x ^ y)) & ~7u;
  return static_cast<int>((x >> shift) & 0xff) - static_cast<int>((y >> shift) & 0xff);
}
}  // namespace internal

// CompareBytes orders the first n bytes of a and b as memcmp does: negative, zero or positive as
// the first differing byte (unsigned) is smaller, absent or larger in a.
inline int CompareBytes(const void* a, const void* b, size_t n) {
  const auto* l = static_cast<const unsigned char*>(a);
  const auto* r = static_cast<const unsigned char*>(b);
  for (; n >= 8; n -= 8, l += 8, r += 8) {
    const uint64_t x = internal::Load64(l);
    const uint64_t y = internal::Load64(r);
    if (x != y) return internal::FirstDifference(x, y);
  }
  if (n >= 4) {
    const uint32_t x = internal::Load32(l);
    const uint32_t y = internal::Load32(r);
    if (x != y) return internal::FirstDifference(x, y);
    n -= 4;
    l += 4;
    r += 4;
  }
  for (; n != 0; --n, ++l, ++r) {
    if (*l != *r) return static_cast<int>(*l) - static_cast<int>(*r);
  }
  return 0;
}

// CopyBytes copies n bytes from src to dst (which must not overlap) as memcpy does; returns dst.
// Lengths of 4 or more are done in words, the last word overlapping the one before it.
inline void* CopyBytes(void* dst, const void* src, size_t n) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  if (n >= 8) {
    const uint64_t last = internal::Load64(s + n - 8);
    for (size_t i = 0; i + 8 < n; i += 8) internal::Store64(d + i, internal::Load64(s + i));
    internal::Store64(d + n - 8, last);
  } else if (n >= 4) {
    const uint32_t first = internal::Load32(s);
    const uint32_t last = internal::Load32(s + n - 4);
    internal::Store32(d, first);
    internal::Store32(d + n - 4, last);
  } else {
    for (size_t i = 0; i < n; ++i) d[i] = s[i];
  }
  return dst;
}

}  // namespace base
