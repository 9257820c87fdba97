#pragma once
// HashText: the hash of the core's string-keyed tables (StringIndex, KeySet, the key and trace
// value pools). std::hash reads a string a byte or four at a time through an out-of-line call
// (libstdc++'s _Hash_bytes natively, murmur2 with 32-bit words in Emscripten's libc++), 2-3 % of
// a scale run on either platform. This one reads eight bytes per step, the last
// step overlapping the one before, and mixes with multiplies (splitmix64's constants), so the
// low bits an open-addressing table masks are well spread.
// Not for anything whose order is observable: the tables using it are looked up, never walked
// in hash order (KeySet sorts its walk). Pure; no time.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace base {

inline size_t HashText(std::string_view text) {
  const char* p = text.data();
  const size_t n = text.size();
  auto load8 = [](const char* at) {
    uint64_t v;
    std::memcpy(&v, at, sizeof v);
    return v;
  };
  auto load4 = [](const char* at) {
    uint32_t v;
    std::memcpy(&v, at, sizeof v);
    return static_cast<uint64_t>(v);
  };
  auto mix = [](uint64_t h, uint64_t v) {
    h = (h ^ v) * 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
  };
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ (static_cast<uint64_t>(n) * 0xff51afd7ed558ccdULL);
  if (n >= 8) {
    const char* last = p + n - 8;
    for (; p < last; p += 8) h = mix(h, load8(p));
    h = mix(h, load8(last));
  } else if (n >= 4) {
    h = mix(h, load4(p) | (load4(p + n - 4) << 32));
  } else if (n > 0) {
    const auto byte = [&](size_t i) {
      return static_cast<uint64_t>(static_cast<unsigned char>(p[i]));
    };
    h = mix(h, byte(0) | (byte(n / 2) << 8) | (byte(n - 1) << 16));
  }
  h ^= h >> 29;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 32;
  return static_cast<size_t>(h);
}

// TextHash hashes std::string and std::string_view keys with HashText, for unordered containers.
struct TextHash {
  size_t operator()(std::string_view text) const { return HashText(text); }
};

}  // namespace base
