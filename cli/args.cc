#include "cli/args.h"

#include <algorithm>

namespace cli {

std::optional<uint64_t> ParseCount(const std::string& text, size_t max_digits) {
  max_digits = std::min<size_t>(max_digits, 19);  // 10^19 - 1 < 2^64
  if (text.empty() || text.size() > max_digits) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  return value;
}

}  // namespace cli
