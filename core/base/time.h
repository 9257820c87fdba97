#pragma once
// Virtual time: Duration and SimTime are int64 microseconds, never floating point.
// Mirrors: Go's time.Duration (ParseDuration / String syntax) with microsecond resolution.
// Simplified: no nanoseconds (a trailing "ns" part is accepted only when it is a whole number of
// microseconds); no time zones (timestamps are UTC, RFC 3339).
// Single-threaded; the only source of "now" is sim::Clock.

#include <cstdint>
#include <string>

#include "core/base/status.h"

namespace base {

// Duration is a span of virtual time in microseconds.
using Duration = int64_t;
// SimTime is microseconds since the virtual epoch 2026-01-01T00:00:00Z.
using SimTime = int64_t;

constexpr Duration kMicrosecond = 1;
constexpr Duration kMillisecond = 1000;
constexpr Duration kSecond = 1000 * kMillisecond;
constexpr Duration kMinute = 60 * kSecond;
constexpr Duration kHour = 60 * kMinute;

// ParseDuration accepts Go syntax: "300ms", "1m30s", "2.5s", "1h", "-5s", "0".
StatusOr<Duration> ParseDuration(const std::string& text);

// FormatDuration prints like Go's Duration.String: "1m30s", "500ms", "2.5s", "0s".
std::string FormatDuration(Duration d);

// FormatMillis prints d in milliseconds exactly, with up to three decimals and no trailing zeros:
// 1500us -> "1.5", 2000us -> "2". Used by the trace's `t` field; never goes through a double.
std::string FormatMillis(Duration d);

// FormatRfc3339 renders the virtual epoch plus t, to the second: "2026-01-01T00:00:05Z".
std::string FormatRfc3339(SimTime t);

// FormatAge prints a kubectl-style age ("5s", "3m", "2m30s", "4h", "2d").
std::string FormatAge(Duration d);

}  // namespace base
