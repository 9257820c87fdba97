#include "core/base/time.h"

#include <cstdio>

namespace base {
namespace {

// Days from 1970-01-01 to year/month/day (proleptic Gregorian); Howard Hinnant's algorithm.
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void CivilFromDays(int64_t z, int64_t* y, int64_t* m, int64_t* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp + (mp < 10 ? 3 : -9);
  *y = yoe + era * 400 + (*m <= 2);
}

// UnitMicros returns the size of a Go duration unit in nanoseconds (so "ns" can be expressed).
int64_t UnitNanos(const std::string& unit) {
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1000;
  if (unit == "ms") return 1000 * 1000;
  if (unit == "s") return 1000LL * 1000 * 1000;
  if (unit == "m") return 60LL * 1000 * 1000 * 1000;
  if (unit == "h") return 3600LL * 1000 * 1000 * 1000;
  return 0;
}

Status InvalidDuration(const std::string& text) {
  return Status(StatusCode::kBadRequest, "time: invalid duration \"" + text + "\"");
}

}  // namespace

StatusOr<Duration> ParseDuration(const std::string& text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
    negative = text[i] == '-';
    ++i;
  }
  if (text.substr(i) == "0") return Duration{0};
  if (i >= text.size()) return InvalidDuration(text);
  // Accumulate in nanoseconds with overflow checks; fractional digits handled as integers.
  __int128 total_ns = 0;
  const __int128 kLimit = static_cast<__int128>(INT64_MAX) * 1000;
  while (i < text.size()) {
    const size_t start = i;
    __int128 whole = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      whole = whole * 10 + (text[i] - '0');
      if (whole > kLimit) return InvalidDuration(text);
      ++i;
    }
    __int128 frac = 0;
    __int128 frac_scale = 1;
    bool has_frac_digits = false;
    if (i < text.size() && text[i] == '.') {
      ++i;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        if (frac_scale < static_cast<__int128>(1000000000000000000LL)) {
          frac = frac * 10 + (text[i] - '0');
          frac_scale *= 10;
        }
        has_frac_digits = true;
        ++i;
      }
    }
    if (i == start || (i == start + 1 && text[start] == '.' && !has_frac_digits)) {
      return InvalidDuration(text);
    }
    const size_t unit_start = i;
    while (i < text.size() && !(text[i] >= '0' && text[i] <= '9') && text[i] != '.') ++i;
    const std::string unit = text.substr(unit_start, i - unit_start);
    if (unit.empty()) {
      return Status(StatusCode::kBadRequest, "time: missing unit in duration \"" + text + "\"");
    }
    const int64_t unit_ns = UnitNanos(unit);
    if (unit_ns == 0) {
      return Status(StatusCode::kBadRequest,
                    "time: unknown unit \"" + unit + "\" in duration \"" + text + "\"");
    }
    total_ns += whole * unit_ns + frac * unit_ns / frac_scale;
    if (total_ns > kLimit) return InvalidDuration(text);
  }
  const __int128 micros = total_ns / 1000;
  return static_cast<Duration>(negative ? -micros : micros);
}

std::string FormatDuration(Duration d) {
  if (d == 0) return "0s";
  std::string sign = d < 0 ? "-" : "";
  uint64_t u = d < 0 ? static_cast<uint64_t>(-(d + 1)) + 1 : static_cast<uint64_t>(d);
  char buf[64];
  if (u < static_cast<uint64_t>(kMillisecond)) {
    std::snprintf(buf, sizeof buf, "%s%lluµs", sign.c_str(), static_cast<unsigned long long>(u));
    return buf;
  }
  auto fraction = [](uint64_t value, uint64_t scale) {
    // value < scale; prints ".ddd" without trailing zeros, or "" when zero.
    if (value == 0) return std::string();
    std::string digits;
    for (uint64_t s = scale / 10; s > 0; s /= 10) digits += static_cast<char>('0' + (value / s) % 10);
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    return "." + digits;
  };
  if (u < static_cast<uint64_t>(kSecond)) {
    std::snprintf(buf, sizeof buf, "%s%llu%sms", sign.c_str(),
                  static_cast<unsigned long long>(u / kMillisecond),
                  fraction(u % kMillisecond, kMillisecond).c_str());
    return buf;
  }
  std::string out = sign;
  const uint64_t hours = u / kHour;
  const uint64_t minutes = (u % kHour) / kMinute;
  const uint64_t seconds_us = u % kMinute;
  if (hours > 0) out += std::to_string(hours) + "h";
  if (hours > 0 || minutes > 0) out += std::to_string(minutes) + "m";
  out += std::to_string(seconds_us / kSecond) + fraction(seconds_us % kSecond, kSecond) + "s";
  return out;
}

std::string FormatMillis(Duration d) {
  std::string sign = d < 0 ? "-" : "";
  uint64_t u = d < 0 ? static_cast<uint64_t>(-(d + 1)) + 1 : static_cast<uint64_t>(d);
  std::string out = sign + std::to_string(u / 1000);
  uint64_t rem = u % 1000;
  if (rem != 0) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%03llu", static_cast<unsigned long long>(rem));
    std::string digits = buf;
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    out += "." + digits;
  }
  return out;
}

std::string FormatRfc3339(SimTime t) {
  static const int64_t kEpochDays = DaysFromCivil(2026, 1, 1);
  int64_t seconds = t >= 0 ? t / kSecond : -((-t + kSecond - 1) / kSecond);
  int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
  int64_t second_of_day = seconds - days * 86400;
  int64_t y, m, d;
  CivilFromDays(kEpochDays + days, &y, &m, &d);
  if (y >= 0 && y <= 9999) {
    // Digits written directly: conditions, Events and every create stamp one (snprintf would be
    // 2 % of a scale run).
    char out[20];
    auto put = [&out](int at, int64_t value, int width) {
      for (int i = width - 1; i >= 0; --i, value /= 10) {
        out[at + i] = static_cast<char>('0' + value % 10);
      }
    };
    put(0, y, 4);
    out[4] = '-';
    put(5, m, 2);
    out[7] = '-';
    put(8, d, 2);
    out[10] = 'T';
    put(11, second_of_day / 3600, 2);
    out[13] = ':';
    put(14, (second_of_day % 3600) / 60, 2);
    out[16] = ':';
    put(17, second_of_day % 60, 2);
    out[19] = 'Z';
    return std::string(out, sizeof out);
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ",
                static_cast<long long>(y), static_cast<long long>(m), static_cast<long long>(d),
                static_cast<long long>(second_of_day / 3600),
                static_cast<long long>((second_of_day % 3600) / 60),
                static_cast<long long>(second_of_day % 60));
  return buf;
}

std::string FormatAge(Duration d) {
  // Mirrors apimachinery pkg/util/duration HumanDuration (the AGE column).
  if (d < 0) d = 0;
  int64_t seconds = d / kSecond;
  if (seconds < 60 * 2) return std::to_string(seconds) + "s";
  int64_t minutes = seconds / 60;
  if (minutes < 10) {
    int64_t s = seconds % 60;
    return s == 0 ? std::to_string(minutes) + "m" : std::to_string(minutes) + "m" + std::to_string(s) + "s";
  }
  if (minutes < 60 * 3) return std::to_string(minutes) + "m";
  int64_t hours = minutes / 60;
  if (hours < 8) {
    int64_t m = minutes % 60;
    return m == 0 ? std::to_string(hours) + "h" : std::to_string(hours) + "h" + std::to_string(m) + "m";
  }
  if (hours < 48) return std::to_string(hours) + "h";
  return std::to_string(hours / 24) + "d";
}

}  // namespace base
