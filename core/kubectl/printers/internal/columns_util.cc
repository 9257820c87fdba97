// Shared helpers for the printers: JSON access, Go-style value printing, time, selectors.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/kubectl/printers/internal/columns.h"

namespace kubectl::printers::internal {

using api::Json;

const Json* Field(const Json* obj, const char* key) {
  if (obj == nullptr || !obj->is_object()) return nullptr;
  auto it = obj->find(key);
  return it == obj->end() ? nullptr : &*it;
}

const Json* Path(const Json& obj, std::initializer_list<const char*> keys) {
  const Json* cur = &obj;
  for (const char* key : keys) {
    cur = Field(cur, key);
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

std::string Str(const Json* v) {
  return v != nullptr && v->is_string() ? v->get<std::string>() : "";
}

int64_t Int(const Json* v, int64_t fallback) {
  if (v == nullptr) return fallback;
  if (v->is_number_integer()) return v->get<int64_t>();
  if (v->is_number_float()) {
    const double d = v->get<double>();
    if (!(std::fabs(d) < 9.2e18)) return fallback;  // NaN or out of int64 range
    return static_cast<int64_t>(d);
  }
  return fallback;
}

bool Bool(const Json* v, bool fallback) {
  return v != nullptr && v->is_boolean() ? v->get<bool>() : fallback;
}

std::vector<const Json*> Items(const Json* v) {
  std::vector<const Json*> out;
  if (v == nullptr || !v->is_array()) return out;
  for (const Json& item : *v) out.push_back(&item);
  return out;
}

size_t Size(const Json* v) {
  return v != nullptr && (v->is_object() || v->is_array()) ? v->size() : 0;
}

namespace {

// GoFloat prints a float64 as Go's %v does (strconv 'g', shortest precision): the shortest
// round-trip digits, in %e form when the decimal exponent is < -4 or >= 6 ("1e+06", "0.5").
// Output formatting only; no decision depends on it.
std::string GoFloat(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  char buf[64];
  int precision = 1;
  for (; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision - 1, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  // buf is "-d.ddde+XX": split into sign, digits and exponent.
  std::string s = buf;
  const bool negative = s[0] == '-';
  if (negative) s.erase(0, 1);
  const size_t e = s.find('e');
  std::string digits = s.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int exp = std::atoi(s.c_str() + e + 1);
  std::string out = negative ? "-" : "";
  if (exp < -4 || exp >= 6) {  // strconv 'g' with shortest precision decides with eprec = 6
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    const int mag = exp < 0 ? -exp : exp;
    std::snprintf(buf, sizeof buf, "e%c%02d", exp < 0 ? '-' : '+', mag);
    return out + buf;
  }
  if (exp < 0) return out + "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
  const size_t int_digits = static_cast<size_t>(exp) + 1;
  if (digits.size() <= int_digits) {
    return out + digits + std::string(int_digits - digits.size(), '0');
  }
  return out + digits.substr(0, int_digits) + "." + digits.substr(int_digits);
}

// DaysFromCivil counts days from 1970-01-01 (proleptic Gregorian).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool Digits(const std::string& s, size_t pos, size_t n, int64_t* out) {
  if (pos + n > s.size()) return false;
  int64_t v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

}  // namespace

namespace {

// kMaxDepth bounds recursion on pathological documents; real objects nest a few dozen levels.
constexpr int kMaxDepth = 100;

std::string GoValueAt(const Json& v, int depth) {
  if (depth > kMaxDepth) return "...";
  switch (v.type()) {
    case Json::value_t::string:
      return v.get<std::string>();
    case Json::value_t::number_integer:
      return std::to_string(v.get<int64_t>());
    case Json::value_t::number_unsigned:
      return std::to_string(v.get<uint64_t>());
    case Json::value_t::number_float:
      return GoFloat(v.get<double>());
    case Json::value_t::boolean:
      return v.get<bool>() ? "true" : "false";
    case Json::value_t::array: {
      std::string out = "[";
      for (size_t i = 0; i < v.size(); ++i) out += (i ? " " : "") + GoValueAt(v[i], depth + 1);
      return out + "]";
    }
    case Json::value_t::object: {
      std::string out = "map[";
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        out += (first ? "" : " ") + it.key() + ":" + GoValueAt(it.value(), depth + 1);
        first = false;
      }
      return out + "]";
    }
    default:
      return "<nil>";
  }
}

}  // namespace

std::string GoValue(const Json& v) { return GoValueAt(v, 0); }

std::string IntOrString(const Json* v, const std::string& fallback) {
  if (v == nullptr) return fallback;
  if (v->is_string()) return v->get<std::string>();
  if (v->is_number()) return std::to_string(Int(v, 0));
  return fallback;
}

std::optional<base::SimTime> ParseRfc3339(const std::string& text) {
  int64_t year, month, day, hour, minute, second;
  if (text.size() < 20 || text[4] != '-' || text[7] != '-' ||
      (text[10] != 'T' && text[10] != 't') || text[13] != ':' || text[16] != ':') {
    return std::nullopt;
  }
  if (!Digits(text, 0, 4, &year) || !Digits(text, 5, 2, &month) || !Digits(text, 8, 2, &day) ||
      !Digits(text, 11, 2, &hour) || !Digits(text, 14, 2, &minute) ||
      !Digits(text, 17, 2, &second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  size_t pos = 19;
  int64_t micros = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int64_t scale = 100000;
    const size_t start = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      micros += (text[pos] - '0') * scale;
      scale /= 10;
      ++pos;
    }
    if (pos == start) return std::nullopt;
  }
  int64_t offset_seconds = 0;
  if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
    ++pos;
  } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int64_t oh, om;
    if (pos + 6 > text.size() || text[pos + 3] != ':' || !Digits(text, pos + 1, 2, &oh) ||
        !Digits(text, pos + 4, 2, &om)) {
      return std::nullopt;
    }
    offset_seconds = (oh * 3600 + om * 60) * (text[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  static constexpr int64_t kEpochDays = 20454;  // DaysFromCivil(2026, 1, 1)
  const int64_t days = DaysFromCivil(year, month, day) - kEpochDays;
  const int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  return seconds * base::kSecond + micros;
}

base::SimTime ParseRfc3339OrZero(const std::string& text) { return ParseRfc3339(text).value_or(0); }

std::string HumanDuration(base::Duration d) {
  if (d / base::kSecond < -1) return "<invalid>";
  return base::FormatAge(d);
}

std::string TimestampSince(const std::string& timestamp, base::SimTime now) {
  std::optional<base::SimTime> t = ParseRfc3339(timestamp);
  if (!t) return "<unknown>";
  return HumanDuration(now - *t);
}

std::string FormatRfc1123Z(const std::string& timestamp) {
  std::optional<base::SimTime> t = ParseRfc3339(timestamp);
  if (!t) return "Mon, 01 Jan 0001 00:00:00 +0000";
  const std::string iso = base::FormatRfc3339(*t);  // "2026-01-01T00:00:05Z"
  int64_t seconds = *t >= 0 ? *t / base::kSecond : -((-*t + base::kSecond - 1) / base::kSecond);
  int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
  static const char* kWeekdays[] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};  // epoch: Thu
  static const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                  "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const int64_t weekday = ((days % 7) + 7) % 7;
  const int month = std::atoi(iso.substr(5, 2).c_str());
  return std::string(kWeekdays[weekday]) + ", " + iso.substr(8, 2) + " " +
         kMonths[(month + 11) % 12] + " " + iso.substr(0, 4) + " " + iso.substr(11, 8) + " +0000";
}

std::string SelectorString(const Json* selector) {
  // Each requirement as labels.Requirement.String() prints it, then sorted by key (stable, so
  // matchLabels come before expressions on the same key).
  std::vector<std::pair<std::string, std::string>> reqs;
  if (const Json* labels = Field(selector, "matchLabels");
      labels != nullptr && labels->is_object()) {
    for (auto it = labels->begin(); it != labels->end(); ++it) {
      reqs.emplace_back(it.key(), it.key() + "=" + GoValue(it.value()));
    }
  }
  for (const Json* expr : Items(Field(selector, "matchExpressions"))) {
    const std::string key = Str(Field(expr, "key"));
    const std::string op = Str(Field(expr, "operator"));
    std::vector<std::string> values;
    for (const Json* v : Items(Field(expr, "values"))) values.push_back(Str(v));
    std::sort(values.begin(), values.end());
    std::string joined;
    for (size_t i = 0; i < values.size(); ++i) joined += (i ? "," : "") + values[i];
    if (op == "In") reqs.emplace_back(key, key + " in (" + joined + ")");
    if (op == "NotIn") reqs.emplace_back(key, key + " notin (" + joined + ")");
    if (op == "Exists") reqs.emplace_back(key, key);
    if (op == "DoesNotExist") reqs.emplace_back(key, "!" + key);
  }
  std::stable_sort(reqs.begin(), reqs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (size_t i = 0; i < reqs.size(); ++i) out += (i ? "," : "") + reqs[i].second;
  return out;
}

std::string FormatLabelSelector(const Json* selector) {
  std::string s = SelectorString(selector);
  return s.empty() ? "<none>" : s;
}

std::string FormatLabels(const Json* labels) {
  std::string out;
  if (labels != nullptr && labels->is_object()) {
    for (auto it = labels->begin(); it != labels->end(); ++it) {
      out += (out.empty() ? "" : ",") + it.key() + "=" + GoValue(it.value());
    }
  }
  return out.empty() ? "<none>" : out;
}

void LayoutContainerCells(const Json* containers, std::string* names, std::string* images) {
  names->clear();
  images->clear();
  bool first = true;
  for (const Json* c : Items(containers)) {
    if (!first) {
      *names += ",";
      *images += ",";
    }
    *names += Str(Field(c, "name"));
    *images += Str(Field(c, "image"));
    first = false;
  }
}

std::string Join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

std::string TrimSpace(const std::string& s) {
  const char* kSpace = " \t\n\r\f\v";
  const size_t b = s.find_first_not_of(kSpace);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(kSpace) - b + 1);
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

std::vector<std::string> Strings(const Json* array) {
  std::vector<std::string> out;
  for (const Json* v : Items(array)) out.push_back(Str(v));
  return out;
}

std::string JoinHostPort(const std::string& host, const std::string& port) {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port;
}

std::string Age(const Json& obj, base::SimTime now) {
  return TimestampSince(api::CreationTimestamp(obj), now);
}

std::vector<Column> Columns(std::initializer_list<const char*> always,
                            std::initializer_list<const char*> wide) {
  std::vector<Column> out;
  for (const char* h : always) out.push_back(Column{h, 0, std::string(h) == "NAME"});
  for (const char* h : wide) out.push_back(Column{h, 1, false});
  return out;
}

std::string KindPrefix(const api::KindInfo& kind) {
  return Lower(kind.kind + (kind.group.empty() ? "" : "." + kind.group));
}

}  // namespace kubectl::printers::internal
