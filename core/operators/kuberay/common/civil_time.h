#pragma once
// Civil time: the calendar fields of a virtual instant (UTC) and back, plus reading our own
// RFC 3339 stamps. The RayJob controller compares status times; the RayCronJob schedule walks
// minutes, hours, days and months.
// Mirrors: the parts of Go's time package the operator uses (time.Date, t.Year()/Month()/Day()/
// Hour()/Minute()/Weekday(), time.Parse(time.RFC3339, …) for whole-second UTC stamps).
// Simplified: UTC only (a time zone is a fixed offset the caller adds); stamps without
// fractional seconds or offsets, as base::FormatRfc3339 writes them.
// Pure functions on integers (Howard Hinnant's civil-from-days algorithms); no state.

#include <cstdint>
#include <optional>
#include <string>

#include "core/base/time.h"

namespace kuberay {

// CivilTime is one UTC minute on the calendar (seconds are not needed by any caller).
struct CivilTime {
  int64_t year = 2026;
  int month = 1;   // 1-12
  int day = 1;     // 1-31
  int hour = 0;    // 0-23
  int minute = 0;  // 0-59
  int weekday = 4; // 0 = Sunday … 6 = Saturday (2026-01-01 is a Thursday)
};

// DaysFromCivil counts days from 1970-01-01 to the date (negative before it).
int64_t DaysFromCivil(int64_t year, int64_t month, int64_t day);
// DaysInMonth is 28-31, leap years included.
int DaysInMonth(int64_t year, int month);

// ToCivil is the minute t falls in (seconds dropped, rounding towards the past).
CivilTime ToCivil(base::SimTime t);
// FromCivil is the instant of c's minute (weekday ignored).
base::SimTime FromCivil(const CivilTime& c);

// ParseRfc3339 reads our timestamps ("2026-01-01T00:00:05Z") back into virtual time; nullopt
// for anything else.
std::optional<base::SimTime> ParseRfc3339(const std::string& text);

// UnixSeconds is the Unix time of t (Go's t.Unix()): the virtual epoch is 1767225600.
int64_t UnixSeconds(base::SimTime t);

}  // namespace kuberay
