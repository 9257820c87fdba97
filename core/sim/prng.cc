#include "core/sim/prng.h"

#include <cstddef>
#include <string>

namespace sim {
namespace {

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

Prng::Prng(uint64_t seed) {
  uint64_t state = seed;
  for (auto& word : s_) word = SplitMix64(&state);
}

uint64_t Prng::Next() {
  const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = Rotl(s_[3], 45);
  return result;
}

uint64_t Prng::Below(uint64_t n) {
  RLAB_ASSERT(n > 0, "Below(0) has no valid result");
  // Rejection sampling: discard the top partial range so every residue is equally likely.
  const uint64_t limit = UINT64_MAX - (UINT64_MAX % n);
  uint64_t x;
  do {
    x = Next();
  } while (x >= limit);
  return x % n;
}

uint64_t Prng::UniformInclusive(uint64_t lo, uint64_t hi) {
  RLAB_ASSERT(lo <= hi, "UniformInclusive needs lo <= hi");
  if (lo == 0 && hi == UINT64_MAX) return Next();
  return lo + Below(hi - lo + 1);
}

bool Prng::Chance(Ratio ratio) {
  RLAB_ASSERT(ratio.denominator > 0, "Ratio denominator must be positive");
  RLAB_ASSERT(ratio.numerator <= ratio.denominator, "Ratio must be at most 1");
  return Below(ratio.denominator) < ratio.numerator;
}

Prng Prng::Derive() { return Prng(Next()); }

std::string Uuid4(Prng& prng) {
  static const char kHex[] = "0123456789abcdef";
  // Written into a buffer and copied once: every object created gets one.
  char uuid[36];
  size_t at = 0;
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) uuid[at++] = '-';
    uint64_t nibble = prng.Below(16);
    if (i == 12) nibble = 4;                   // version 4
    if (i == 16) nibble = 8 + (nibble & 0x3);  // RFC 4122 variant
    uuid[at++] = kHex[nibble];
  }
  return std::string(uuid, sizeof uuid);
}

}  // namespace sim
