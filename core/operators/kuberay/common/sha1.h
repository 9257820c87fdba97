#pragma once
// SHA-1 (FIPS 180-4): the digest KubeRay's GenerateJsonHash takes of a RayCluster spec before
// base32-encoding it. Not for security; only to name a spec the way KubeRay does.
// Mirrors: Go crypto/sha1 Sum.
// Pure function.

#include <array>
#include <cstdint>
#include <string_view>

namespace kuberay {

// Sha1 returns the 20-byte digest of data.
std::array<uint8_t, 20> Sha1(std::string_view data);

}  // namespace kuberay
