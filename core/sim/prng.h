#pragma once
// Prng: the simulation's only source of randomness, with integer-only distributions.
// No Go counterpart; follows TigerBeetle's stdx/prng.zig (own generator, Ratio, no floats) because
// <random> distributions differ between libstdc++ (native) and libc++ (Emscripten).
// Engine: xoshiro256** seeded through splitmix64; both are fully specified, so native and
// WebAssembly draw the same numbers.
// Single-threaded; subsystems get sub-generators from Derive() so one draw never shifts another's.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/assert.h"

namespace sim {

// Ratio is a probability numerator/denominator. Invariant: denominator > 0, numerator <= denominator.
struct Ratio {
  uint64_t numerator = 0;
  uint64_t denominator = 1;
};

class Prng {
 public:
  explicit Prng(uint64_t seed);
  // Intentionally copyable: a copy continues the same stream (used by snapshots).

  // Next returns 64 uniformly random bits.
  uint64_t Next();
  // UniformInclusive returns an unbiased integer in [lo, hi]. REQUIRES: lo <= hi.
  uint64_t UniformInclusive(uint64_t lo, uint64_t hi);
  // Below returns an unbiased integer in [0, n). REQUIRES: n > 0.
  uint64_t Below(uint64_t n);
  // Chance returns true with probability ratio.
  bool Chance(Ratio ratio);
  // Derive returns an independent generator seeded from this stream (TigerBeetle's sub-seeds).
  Prng Derive();

  // Shuffle permutes items uniformly (Fisher-Yates on Below).
  template <typename T>
  void Shuffle(std::vector<T>& items) {
    for (size_t i = items.size(); i > 1; --i) {
      size_t j = static_cast<size_t>(Below(i));
      std::swap(items[i - 1], items[j]);
    }
  }
  // Pick returns one element. REQUIRES: !items.empty().
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    RLAB_ASSERT(!items.empty(), "Pick from an empty vector");
    return items[static_cast<size_t>(Below(items.size()))];
  }

 private:
  uint64_t s_[4];
};

// Uuid4 draws a version-4-shaped UUID ("xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx") from prng.
std::string Uuid4(Prng& prng);

}  // namespace sim
