#pragma once
// Schedule: a parsed cron expression and the next time it fires. A RayCronJob's spec.schedule
// is "standard" cron — five fields (minute hour day-of-month month day-of-week) or a descriptor
// (@hourly, @daily, @every 90s, …) — read in spec.timeZone.
// Mirrors: github.com/robfig/cron/v3 (ParseStandard, SpecSchedule.Next, ConstantDelaySchedule)
// as ray-operator/controllers/ray/raycronjob_controller.go and utils/validation.go use it;
// error messages as robfig's.
// Simplified: time zones are fixed offsets from a small table (UTC and zones without daylight
// saving, e.g. Asia/Taipei); a zone with daylight saving is "unknown time zone" here, where Go
// would load it from tzdata. Like robfig, Next searches five years ahead and gives up after.
// Teaching: day-of-month and day-of-week combine with OR when both are restricted, AND when
// either is `*` — the classic cron rule.
// Pure values; no state. Times are virtual (base::SimTime).

#include <cstdint>
#include <optional>
#include <string>

#include "core/base/status.h"
#include "core/base/time.h"

namespace kuberay::raycronjob {

class Schedule {
 public:
  // ParseStandard reads spec; a bad spec is kInvalid with robfig's message
  // ("expected exactly 5 fields, found 1: [x]", "end of range (60) above maximum (59): 60", …).
  static base::StatusOr<Schedule> ParseStandard(const std::string& spec);

  // Next is the first firing strictly after t (whole minutes; @every: t's second + the delay);
  // nullopt when none falls within five years.
  std::optional<base::SimTime> Next(base::SimTime t) const;

  // InZone returns this schedule read at a fixed offset east of UTC (seconds).
  Schedule InZone(int64_t offset_seconds) const;

 private:
  // Bit i set = value i allowed; kStar marks a field written as * or ?.
  uint64_t minute_ = 0, hour_ = 0, dom_ = 0, month_ = 0, dow_ = 0;
  base::Duration every_ = 0;  // > 0 for "@every D"
  int64_t offset_seconds_ = 0;
};

// ZoneOffset is the fixed offset (seconds east of UTC) of a time zone name; kInvalid
// "unknown time zone NAME" for a name outside the table.
base::StatusOr<int64_t> ZoneOffset(const std::string& name);

}  // namespace kuberay::raycronjob
