#include "core/operators/kuberay/raycronjob/schedule.h"

#include <cctype>
#include <map>
#include <vector>

#include "core/operators/kuberay/common/civil_time.h"

namespace kuberay::raycronjob {

namespace {

using base::Status;
using base::StatusCode;

constexpr uint64_t kStar = uint64_t{1} << 63;

struct Bounds {
  unsigned min, max;
  const std::map<std::string, unsigned>* names;
};

const std::map<std::string, unsigned> kMonthNames = {
    {"jan", 1}, {"feb", 2}, {"mar", 3}, {"apr", 4}, {"may", 5},  {"jun", 6},
    {"jul", 7}, {"aug", 8}, {"sep", 9}, {"oct", 10}, {"nov", 11}, {"dec", 12}};
const std::map<std::string, unsigned> kDowNames = {{"sun", 0}, {"mon", 1}, {"tue", 2}, {"wed", 3},
                                                   {"thu", 4}, {"fri", 5}, {"sat", 6}};
const Bounds kMinutes{0, 59, nullptr};
const Bounds kHours{0, 23, nullptr};
const Bounds kDom{1, 31, nullptr};
const Bounds kMonths{1, 12, &kMonthNames};
const Bounds kDow{0, 6, &kDowNames};

Status CronInvalid(const std::string& msg) { return Status(StatusCode::kInvalid, msg); }

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == sep) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::vector<std::string> Fields(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// mirrors robfig/cron/v3 parser.go mustParseInt (Go's strconv.Atoi wording)
base::StatusOr<unsigned> ParseInt(const std::string& expr) {
  size_t i = expr.size() > 0 && (expr[0] == '-' || expr[0] == '+') ? 1 : 0;
  bool ok = i < expr.size() && expr.size() - i <= 9;
  for (size_t j = i; ok && j < expr.size(); ++j) ok = std::isdigit(static_cast<unsigned char>(expr[j])) != 0;
  if (!ok) {
    return CronInvalid("failed to parse int from " + expr + ": strconv.Atoi: parsing \"" + expr +
                   "\": invalid syntax");
  }
  const long v = std::stol(expr);
  if (v < 0) return CronInvalid("negative number (" + std::to_string(v) + ") not allowed: " + expr);
  return static_cast<unsigned>(v);
}

base::StatusOr<unsigned> ParseIntOrName(const std::string& expr, const Bounds& r) {
  if (r.names != nullptr) {
    std::string lower = expr;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto it = r.names->find(lower);
    if (it != r.names->end()) return it->second;
  }
  return ParseInt(expr);
}

// mirrors robfig/cron/v3 parser.go getRange: number | number "-" number [ "/" number ]
base::StatusOr<uint64_t> GetRange(const std::string& expr, const Bounds& r) {
  const std::vector<std::string> range_and_step = Split(expr, '/');
  const std::vector<std::string> low_and_high = Split(range_and_step[0], '-');
  const bool single = low_and_high.size() == 1;
  unsigned start = 0, end = 0, step = 1;
  uint64_t extra = 0;
  if (low_and_high[0] == "*" || low_and_high[0] == "?") {
    start = r.min;
    end = r.max;
    extra = kStar;
  } else {
    auto s = ParseIntOrName(low_and_high[0], r);
    if (!s.ok()) return s.status();
    start = end = *s;
    if (low_and_high.size() == 2) {
      auto e = ParseIntOrName(low_and_high[1], r);
      if (!e.ok()) return e.status();
      end = *e;
    } else if (low_and_high.size() > 2) {
      return CronInvalid("too many hyphens: " + expr);
    }
  }
  if (range_and_step.size() == 2) {
    auto st = ParseInt(range_and_step[1]);
    if (!st.ok()) return st.status();
    step = *st;
    if (single) end = r.max;  // "N/step" means "N-max/step"
    if (step > 1) extra = 0;  // a stepped * is no longer a star for the day rule
  } else if (range_and_step.size() > 2) {
    return CronInvalid("too many slashes: " + expr);
  }
  if (start < r.min) {
    return CronInvalid("beginning of range (" + std::to_string(start) + ") below minimum (" +
                   std::to_string(r.min) + "): " + expr);
  }
  if (end > r.max) {
    return CronInvalid("end of range (" + std::to_string(end) + ") above maximum (" +
                   std::to_string(r.max) + "): " + expr);
  }
  if (start > end) {
    return CronInvalid("beginning of range (" + std::to_string(start) + ") beyond end of range (" +
                   std::to_string(end) + "): " + expr);
  }
  if (step == 0) return CronInvalid("step of range should be a positive number: " + expr);
  uint64_t bits = 0;
  for (unsigned i = start; i <= end; i += step) bits |= uint64_t{1} << i;
  return bits | extra;
}

// mirrors robfig/cron/v3 parser.go getField: a comma-separated list of ranges
base::StatusOr<uint64_t> GetField(const std::string& field, const Bounds& r) {
  uint64_t bits = 0;
  for (const std::string& expr : Split(field, ',')) {
    if (expr.empty()) continue;  // strings.FieldsFunc drops empty pieces
    auto b = GetRange(expr, r);
    if (!b.ok()) return b.status();
    bits |= *b;
  }
  return bits;
}

uint64_t All(const Bounds& r) {
  uint64_t bits = 0;
  for (unsigned i = r.min; i <= r.max; ++i) bits |= uint64_t{1} << i;
  return bits | kStar;
}

bool Has(uint64_t bits, int v) { return (bits >> v) & 1; }

}  // namespace

// mirrors robfig/cron/v3 parser.go Parser.Parse with the standard options and parseDescriptor
base::StatusOr<Schedule> Schedule::ParseStandard(const std::string& spec) {
  if (spec.empty()) return CronInvalid("empty spec string");
  Schedule s;
  if (spec[0] == '@') {
    const auto one = [](const Bounds& r) { return uint64_t{1} << r.min; };
    s.minute_ = one(kMinutes);
    s.hour_ = one(kHours);
    s.dom_ = All(kDom);
    s.month_ = All(kMonths);
    s.dow_ = All(kDow);
    if (spec == "@yearly" || spec == "@annually") {
      s.dom_ = one(kDom);
      s.month_ = one(kMonths);
    } else if (spec == "@monthly") {
      s.dom_ = one(kDom);
    } else if (spec == "@weekly") {
      s.dow_ = one(kDow);
    } else if (spec == "@daily" || spec == "@midnight") {
    } else if (spec == "@hourly") {
      s.hour_ = All(kHours);
    } else if (spec.rfind("@every ", 0) == 0) {
      auto d = base::ParseDuration(spec.substr(7));
      if (!d.ok()) {
        return CronInvalid("failed to parse duration " + spec + ": " + d.status().message());
      }
      // Every: rounded down to whole seconds, at least one second.
      s.every_ = *d < base::kSecond ? base::kSecond : *d - *d % base::kSecond;
    } else {
      return CronInvalid("unrecognized descriptor: " + spec);
    }
    return s;
  }
  const std::vector<std::string> fields = Fields(spec);
  if (fields.size() != 5) {
    std::string list;
    for (const std::string& f : fields) list += (list.empty() ? "" : " ") + f;
    return CronInvalid("expected exactly 5 fields, found " + std::to_string(fields.size()) + ": [" +
                   list + "]");
  }
  uint64_t* out[] = {&s.minute_, &s.hour_, &s.dom_, &s.month_, &s.dow_};
  const Bounds* bounds[] = {&kMinutes, &kHours, &kDom, &kMonths, &kDow};
  for (size_t i = 0; i < 5; ++i) {
    auto bits = GetField(fields[i], *bounds[i]);
    if (!bits.ok()) return bits.status();
    *out[i] = *bits;
  }
  return s;
}

Schedule Schedule::InZone(int64_t offset_seconds) const {
  Schedule s = *this;
  s.offset_seconds_ = offset_seconds;
  return s;
}

// mirrors robfig/cron/v3 spec.go SpecSchedule.Next and constantdelay.go Next
std::optional<base::SimTime> Schedule::Next(base::SimTime t) const {
  if (every_ > 0) {
    const base::SimTime second = t - ((t % base::kSecond) + base::kSecond) % base::kSecond;
    return second + every_;
  }
  const base::Duration offset = offset_seconds_ * base::kSecond;
  // The first whole minute strictly after t, on the zone's wall clock.
  CivilTime c = ToCivil(t + offset + base::kMinute);
  const int64_t year_limit = c.year + 5;
  const auto day_matches = [this](const CivilTime& d) {
    const bool dom = Has(dom_, d.day), dow = Has(dow_, d.weekday);
    if ((dom_ & kStar) != 0 || (dow_ & kStar) != 0) return dom && dow;
    return dom || dow;
  };
  // Walk months, then days, hours and minutes, resetting the finer fields on each move
  // (robfig's WRAP loop); the calendar rolls over through FromCivil/ToCivil.
  while (c.year <= year_limit) {
    if (!Has(month_, c.month)) {
      c.month += 1;
      c.day = 1;
      c.hour = 0;
      c.minute = 0;
      if (c.month > 12) {
        c.month = 1;
        c.year += 1;
      }
      c = ToCivil(FromCivil(c));
      continue;
    }
    if (!day_matches(c)) {
      c = ToCivil(FromCivil(CivilTime{c.year, c.month, c.day, 0, 0, 0}) + 24 * base::kHour);
      continue;
    }
    if (!Has(hour_, c.hour)) {
      c = ToCivil(FromCivil(CivilTime{c.year, c.month, c.day, c.hour, 0, 0}) + base::kHour);
      continue;
    }
    if (!Has(minute_, c.minute)) {
      c = ToCivil(FromCivil(c) + base::kMinute);
      continue;
    }
    return FromCivil(c) - offset;
  }
  return std::nullopt;
}

// Simplified: Go's time.LoadLocation reads tzdata; here, UTC and fixed-offset zones.
base::StatusOr<int64_t> ZoneOffset(const std::string& name) {
  static const std::map<std::string, int64_t> kZones = {
      {"UTC", 0},
      {"Etc/UTC", 0},
      {"GMT", 0},
      {"Etc/GMT", 0},
      {"Local", 0},  // the operator's container runs in UTC
      {"Asia/Taipei", 8 * 3600},
      {"Asia/Shanghai", 8 * 3600},
      {"Asia/Hong_Kong", 8 * 3600},
      {"Asia/Singapore", 8 * 3600},
      {"Asia/Tokyo", 9 * 3600},
      {"Asia/Seoul", 9 * 3600},
      {"Asia/Kolkata", 5 * 3600 + 1800},
      {"Asia/Dubai", 4 * 3600},
  };
  auto it = kZones.find(name);
  if (it == kZones.end()) return Status(StatusCode::kInvalid, "unknown time zone " + name);
  return it->second;
}

}  // namespace kuberay::raycronjob
