#pragma once
// Command-line number parsing shared by rlab's subcommands, so every flag that takes a count or a
// seed accepts and rejects the same text.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace cli {

// ParseCount reads a non-negative decimal integer: digits only (no sign, no spaces, no hex), at
// most max_digits of them (19 at most, so the value always fits in uint64_t). nullopt otherwise.
std::optional<uint64_t> ParseCount(const std::string& text, size_t max_digits = 19);

}  // namespace cli
