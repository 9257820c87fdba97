#include "core/operators/kuberay/common/sha1.h"

#include <cstddef>

namespace kuberay {
namespace {

uint32_t Sha1Rotl(uint32_t v, int bits) { return (v << bits) | (v >> (32 - bits)); }

void Sha1Block(const uint8_t* block, uint32_t h[5]) {
  uint32_t w[80];
  for (int i = 0; i < 16; ++i) {
    w[i] = (static_cast<uint32_t>(block[4 * i]) << 24) |
           (static_cast<uint32_t>(block[4 * i + 1]) << 16) |
           (static_cast<uint32_t>(block[4 * i + 2]) << 8) | static_cast<uint32_t>(block[4 * i + 3]);
  }
  for (int i = 16; i < 80; ++i) w[i] = Sha1Rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
  for (int i = 0; i < 80; ++i) {
    uint32_t f, k;
    if (i < 20) {
      f = (b & c) | (~b & d), k = 0x5A827999u;
    } else if (i < 40) {
      f = b ^ c ^ d, k = 0x6ED9EBA1u;
    } else if (i < 60) {
      f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDCu;
    } else {
      f = b ^ c ^ d, k = 0xCA62C1D6u;
    }
    const uint32_t t = Sha1Rotl(a, 5) + f + e + k + w[i];
    e = d;
    d = c;
    c = Sha1Rotl(b, 30);
    b = a;
    a = t;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
}

}  // namespace

std::array<uint8_t, 20> Sha1(std::string_view data) {
  uint32_t h[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
  const size_t n = data.size();
  const auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
  size_t i = 0;
  for (; i + 64 <= n; i += 64) Sha1Block(bytes + i, h);
  // The tail, a 1 bit, zeros, and the length in bits (big-endian) to fill whole blocks.
  uint8_t tail[128] = {};
  const size_t rest = n - i;
  for (size_t k = 0; k < rest; ++k) tail[k] = bytes[i + k];
  tail[rest] = 0x80;
  const size_t blocks = rest + 1 + 8 <= 64 ? 1 : 2;
  const uint64_t bits = static_cast<uint64_t>(n) * 8;
  for (int k = 0; k < 8; ++k) {
    tail[blocks * 64 - 1 - static_cast<size_t>(k)] = static_cast<uint8_t>(bits >> (8 * k));
  }
  for (size_t b = 0; b < blocks; ++b) Sha1Block(tail + 64 * b, h);
  std::array<uint8_t, 20> out{};
  for (int k = 0; k < 5; ++k) {
    out[4 * k] = static_cast<uint8_t>(h[k] >> 24);
    out[4 * k + 1] = static_cast<uint8_t>(h[k] >> 16);
    out[4 * k + 2] = static_cast<uint8_t>(h[k] >> 8);
    out[4 * k + 3] = static_cast<uint8_t>(h[k]);
  }
  return out;
}

}  // namespace kuberay
