#include "core/operators/kuberay/common/civil_time.h"

#include <cctype>

namespace kuberay {

namespace {

// FloorDiv rounds towards negative infinity (C++ division truncates towards zero).
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0); }

// kEpochDays is DaysFromCivil(2026, 1, 1): the virtual epoch is Unix time 1767225600.
constexpr int64_t kEpochDays = 20454;

bool Digits(const std::string& s, size_t pos, size_t n, int64_t* out) {
  if (pos + n > s.size()) return false;
  int64_t v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

}  // namespace

int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = FloorDiv(y, 400);
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int DaysInMonth(int64_t year, int month) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[(month - 1) % 12];
}

CivilTime ToCivil(base::SimTime t) {
  const int64_t minutes = FloorDiv(t, base::kMinute);
  const int64_t days = FloorDiv(minutes, 24 * 60) + kEpochDays;  // since 1970-01-01
  const int64_t in_day = minutes - FloorDiv(minutes, 24 * 60) * 24 * 60;
  // civil_from_days
  const int64_t z = days + 719468;
  const int64_t era = FloorDiv(z, 146097);
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  CivilTime c;
  c.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  c.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  c.year = yoe + era * 400 + (c.month <= 2 ? 1 : 0);
  c.hour = static_cast<int>(in_day / 60);
  c.minute = static_cast<int>(in_day % 60);
  c.weekday = static_cast<int>(days + 4 - FloorDiv(days + 4, 7) * 7);  // 1970-01-01: Thursday
  return c;
}

base::SimTime FromCivil(const CivilTime& c) {
  const int64_t days = DaysFromCivil(c.year, c.month, c.day) - kEpochDays;
  return ((days * 24 + c.hour) * 60 + c.minute) * base::kMinute;
}

std::optional<base::SimTime> ParseRfc3339(const std::string& text) {
  int64_t y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  if (text.size() != 20 || text[4] != '-' || text[7] != '-' || text[10] != 'T' ||
      text[13] != ':' || text[16] != ':' || text[19] != 'Z' || !Digits(text, 0, 4, &y) ||
      !Digits(text, 5, 2, &mo) || !Digits(text, 8, 2, &d) || !Digits(text, 11, 2, &h) ||
      !Digits(text, 14, 2, &mi) || !Digits(text, 17, 2, &s)) {
    return std::nullopt;
  }
  const int64_t days = DaysFromCivil(y, mo, d) - kEpochDays;
  return ((days * 24 + h) * 60 + mi) * 60 * base::kSecond + s * base::kSecond;
}

int64_t UnixSeconds(base::SimTime t) {
  return kEpochDays * 86400 + FloorDiv(t, base::kSecond);
}

}  // namespace kuberay
