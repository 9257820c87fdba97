#include "core/operators/kuberay/common/quantity.h"

#include <cctype>

namespace kuberay {
namespace {

struct Suffix {
  const char* text;
  int64_t multiplier;  // of the base unit
  bool binary;
};

constexpr Suffix kSuffixes[] = {
    {"Ki", 1LL << 10, true},  {"Mi", 1LL << 20, true},  {"Gi", 1LL << 30, true},
    {"Ti", 1LL << 40, true},  {"Pi", 1LL << 50, true},  {"k", 1000LL, false},
    {"M", 1000000LL, false},  {"G", 1000000000LL, false}, {"T", 1000000000000LL, false},
    {"P", 1000000000000000LL, false},
};

}  // namespace

int64_t Quantity::Value() const {
  if (milli >= 0) return (milli + 999) / 1000;
  return -((-milli) / 1000);
}

void Quantity::Add(const Quantity& y) {
  if (milli == 0) binary = y.binary;
  milli += y.milli;
}

// mirrors apimachinery quantity.go CanonicalizeBytes: the largest suffix that divides exactly.
std::string Quantity::String() const {
  if (milli == 0) return "0";
  const bool negative = milli < 0;
  const int64_t m = negative ? -milli : milli;
  const std::string sign = negative ? "-" : "";
  if (m % 1000 != 0) return sign + std::to_string(m) + "m";
  const int64_t v = m / 1000;
  if (binary) {
    static const char* kBinary[] = {"Pi", "Ti", "Gi", "Mi", "Ki"};
    static const int kShift[] = {50, 40, 30, 20, 10};
    for (int i = 0; i < 5; ++i) {
      const int64_t unit = 1LL << kShift[i];
      if (v >= unit && v % unit == 0) return sign + std::to_string(v / unit) + kBinary[i];
    }
    // Not a multiple of 1024: Go prints the plain decimal number.
  }
  static const char* kDecimal[] = {"P", "T", "G", "M", "k"};
  static const int64_t kUnit[] = {1000000000000000LL, 1000000000000LL, 1000000000LL, 1000000LL,
                                  1000LL};
  for (int i = 0; i < 5; ++i) {
    if (v >= kUnit[i] && v % kUnit[i] == 0) return sign + std::to_string(v / kUnit[i]) + kDecimal[i];
  }
  return sign + std::to_string(v);
}

std::optional<Quantity> ParseQuantity(const std::string& s) {
  if (s.empty()) return std::nullopt;
  size_t i = 0;
  bool negative = false;
  if (s[i] == '+' || s[i] == '-') {
    negative = s[i] == '-';
    ++i;
  }
  int64_t whole = 0;
  int64_t frac_milli = 0;
  int frac_digits = 0;
  bool digits = false;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    if (whole > 1000000000000000LL) return std::nullopt;
    whole = whole * 10 + (s[i] - '0');
    digits = true;
    ++i;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      if (frac_digits < 3) {
        frac_milli = frac_milli * 10 + (s[i] - '0');
        ++frac_digits;
      }
      digits = true;
      ++i;
    }
  }
  if (!digits) return std::nullopt;
  while (frac_digits < 3) {
    frac_milli *= 10;
    ++frac_digits;
  }
  const std::string suffix = s.substr(i);
  Quantity q;
  if (suffix.empty()) {
    q.milli = whole * 1000 + frac_milli;
  } else if (suffix == "m") {
    q.milli = whole + (frac_milli + 999) / 1000;
  } else if (suffix[0] == 'e' || suffix[0] == 'E') {
    int exp = 0;
    for (size_t k = 1; k < suffix.size(); ++k) {
      if (!std::isdigit(static_cast<unsigned char>(suffix[k])) || exp > 15) return std::nullopt;
      exp = exp * 10 + (suffix[k] - '0');
    }
    q.milli = whole * 1000 + frac_milli;
    for (int k = 0; k < exp; ++k) q.milli *= 10;
  } else {
    bool found = false;
    for (const Suffix& sfx : kSuffixes) {
      if (suffix == sfx.text) {
        // Guard against overflow: the lab's quantities stay far below 2^63 / 1000.
        if (sfx.multiplier > 0 && whole > (INT64_MAX / 1000) / sfx.multiplier) return std::nullopt;
        q.milli = whole * sfx.multiplier * 1000 + frac_milli * sfx.multiplier;
        q.binary = sfx.binary;
        found = true;
        break;
      }
    }
    if (!found) return std::nullopt;
  }
  if (negative) q.milli = -q.milli;
  return q;
}

}  // namespace kuberay
