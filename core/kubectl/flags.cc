#include "core/kubectl/flags.h"

#include <cstdio>
#include <optional>
#include <utility>

#include "core/base/assert.h"

namespace kubectl {
namespace {

base::Status Fail(const std::string& message) {
  return base::Status(base::StatusCode::kBadRequest, "error: " + message);
}

std::string Hex2(unsigned value, const char* prefix, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%s%0*x", prefix, digits, value);
  return buf;
}

// EscapeByte spells one byte inside a Go quoted literal; quote is '"' or '\''.
std::string EscapeByte(unsigned char c, char quote) {
  switch (c) {
    case '\a':
      return "\\a";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    case '\v':
      return "\\v";
    case '\\':
      return "\\\\";
    default:
      break;
  }
  if (c == static_cast<unsigned char>(quote)) return std::string("\\") + quote;
  if (c < 0x20 || c == 0x7f) return Hex2(c, "\\x", 2);
  return std::string(1, static_cast<char>(c));
}

// GoQuote renders s as Go's %q does for a string (bytes >= 0x80 pass through unchanged).
std::string GoQuote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += EscapeByte(static_cast<unsigned char>(c), '"');
  return out + "\"";
}

// GoQuoteByte renders c as Go's %q does for a byte, which it formats as the rune U+00cc.
// mirrors Go strconv.QuoteRune (pflag prints shorthands with %q)
std::string GoQuoteByte(char ch) {
  const auto c = static_cast<unsigned char>(ch);
  if (c < 0x80) return "'" + EscapeByte(c, '\'') + "'";
  if (c < 0xa0 || c == 0xad) return "'" + Hex2(c, "\\u", 4) + "'";  // not printable in Go
  std::string utf8;
  utf8.push_back(static_cast<char>(0xc0 | (c >> 6)));
  utf8.push_back(static_cast<char>(0x80 | (c & 0x3f)));
  return "'" + utf8 + "'";
}

// ParseGoBool mirrors Go strconv.ParseBool.
std::optional<bool> ParseGoBool(const std::string& s) {
  if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True") return true;
  if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False") {
    return false;
  }
  return std::nullopt;
}

// ParseGoInt mirrors Go strconv.ParseInt(s, 0, 64) without `_` separators: an optional sign, then
// decimal, or 0x/0o/0b prefixed, or 0-prefixed octal. On failure *error is Go's message.
std::optional<int64_t> ParseGoInt(const std::string& s, std::string* error) {
  const std::string syntax = "strconv.ParseInt: parsing " + GoQuote(s) + ": invalid syntax";
  const std::string range = "strconv.ParseInt: parsing " + GoQuote(s) + ": value out of range";
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    negative = s[i] == '-';
    ++i;
  }
  if (i >= s.size()) {
    *error = syntax;
    return std::nullopt;
  }
  unsigned base = 10;
  if (s[i] == '0') {
    const size_t left = s.size() - i;
    const char p = left >= 3 ? static_cast<char>(s[i + 1] | 0x20) : '\0';
    if (p == 'x' || p == 'o' || p == 'b') {
      base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
      i += 2;
    } else {
      base = 8;
      i += 1;
    }
  }
  const uint64_t limit = negative ? (uint64_t{1} << 63) : (uint64_t{1} << 63) - 1;
  uint64_t n = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    unsigned d = 0;
    if (c >= '0' && c <= '9') {
      d = static_cast<unsigned>(c - '0');
    } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
      d = static_cast<unsigned>((c | 0x20) - 'a' + 10);
    } else {
      *error = syntax;
      return std::nullopt;
    }
    if (d >= base) {
      *error = syntax;
      return std::nullopt;
    }
    if (n > (limit - d) / base) {
      *error = range;
      return std::nullopt;
    }
    n = n * base + d;
  }
  if (negative) return n == (uint64_t{1} << 63) ? INT64_MIN : -static_cast<int64_t>(n);
  return static_cast<int64_t>(n);
}

// CheckValue validates value for spec's type and returns its stored form, or Go's error text.
std::optional<std::string> CheckValue(const FlagSpec& spec, const std::string& value,
                                      std::string* error) {
  switch (spec.type) {
    case FlagSpec::kBool: {
      const std::optional<bool> b = ParseGoBool(value);
      if (!b) {
        *error = "strconv.ParseBool: parsing " + GoQuote(value) + ": invalid syntax";
        return std::nullopt;
      }
      return std::string(*b ? "true" : "false");
    }
    case FlagSpec::kInt: {
      const std::optional<int64_t> n = ParseGoInt(value, error);
      if (!n) return std::nullopt;
      return std::to_string(*n);
    }
    case FlagSpec::kDuration: {
      auto d = base::ParseDuration(value);
      if (!d.ok()) {
        *error = d.status().message();
        return std::nullopt;
      }
      return value;
    }
    case FlagSpec::kString:
    case FlagSpec::kStringArray:
      return value;
  }
  return value;
}

// Parser walks args once, as pflag's parseArgs does with interspersed flags allowed.
class Parser {
 public:
  Parser(const std::vector<std::string>& args, const std::vector<FlagSpec>& specs) : args_(args) {
    for (const FlagSpec& spec : specs) {
      RLAB_ASSERT(!spec.name.empty(), "FlagSpec needs a name");
      RLAB_ASSERT(spec.name[0] != '-', "FlagSpec names are written without dashes");
      RLAB_ASSERT(result_.specs.count(spec.name) == 0, "FlagSpec names must be distinct");
      if (spec.shorthand != 0) {
        RLAB_ASSERT(spec.shorthand != '-' && spec.shorthand != '=',
                    "FlagSpec shorthand is a letter");
        RLAB_ASSERT(short_names_.count(spec.shorthand) == 0,
                    "FlagSpec shorthands must be distinct");
        short_names_[spec.shorthand] = spec.name;
      }
      if (!spec.default_value.empty()) {
        std::string error;
        RLAB_ASSERT(CheckValue(spec, spec.default_value, &error).has_value(),
                    "FlagSpec default_value must be valid for its type");
      }
      result_.specs[spec.name] = spec;
    }
  }

  base::StatusOr<ParsedFlags> Run() {
    while (next_ < args_.size()) {
      const std::string& s = args_[next_++];
      if (s.size() < 2 || s[0] != '-') {  // "", "-" and plain words
        result_.positional.push_back(s);
        continue;
      }
      base::Status st;
      if (s[1] == '-') {
        if (s.size() == 2) {  // "--" ends the flags
          result_.args_len_at_dash = static_cast<int>(result_.positional.size());
          result_.positional.insert(result_.positional.end(), args_.begin() + next_, args_.end());
          break;
        }
        st = ParseLong(s);
      } else {
        std::string shorthands = s.substr(1);
        while (st.ok() && !shorthands.empty()) st = ParseSingleShort(&shorthands);
      }
      if (!st.ok()) return st;
    }
    return std::move(result_);
  }

 private:
  // mirrors pflag flag.go parseLongArg
  base::Status ParseLong(const std::string& s) {
    const std::string body = s.substr(2);
    if (body.empty() || body[0] == '-' || body[0] == '=') return Fail("bad flag syntax: " + s);
    const size_t eq = body.find('=');
    const std::string name = body.substr(0, eq);
    auto it = result_.specs.find(name);
    if (it == result_.specs.end()) return Fail("unknown flag: --" + name);
    const FlagSpec& spec = it->second;
    std::string value;
    if (eq != std::string::npos) {
      value = body.substr(eq + 1);
    } else if (spec.type == FlagSpec::kBool) {
      value = "true";
    } else if (next_ < args_.size()) {
      value = args_[next_++];
    } else {
      return Fail("flag needs an argument: " + s);
    }
    return Set(spec, value);
  }

  // mirrors pflag flag.go parseSingleShortArg; consumes the front of *shorthands.
  base::Status ParseSingleShort(std::string* shorthands) {
    const std::string sh = *shorthands;
    const char c = sh[0];
    auto it = short_names_.find(c);
    if (it == short_names_.end()) {
      return Fail("unknown shorthand flag: " + GoQuoteByte(c) + " in -" + sh);
    }
    const FlagSpec& spec = result_.specs.at(it->second);
    *shorthands = sh.substr(1);
    std::string value;
    if (sh.size() > 2 && sh[1] == '=') {
      value = sh.substr(2);
      shorthands->clear();
    } else if (spec.type == FlagSpec::kBool) {
      value = "true";
    } else if (sh.size() > 1) {
      value = sh.substr(1);
      shorthands->clear();
    } else if (next_ < args_.size()) {
      value = args_[next_++];
    } else {
      return Fail("flag needs an argument: " + GoQuoteByte(c) + " in -" + sh);
    }
    return Set(spec, value);
  }

  // mirrors pflag flag.go FlagSet.Set (the "invalid argument" wording and flag naming)
  base::Status Set(const FlagSpec& spec, const std::string& value) {
    std::string error;
    std::optional<std::string> stored = CheckValue(spec, value, &error);
    if (!stored) {
      std::string flag_name = "--" + spec.name;
      if (spec.shorthand != 0) flag_name = std::string("-") + spec.shorthand + ", " + flag_name;
      return Fail("invalid argument " + GoQuote(value) + " for " + GoQuote(flag_name) +
                  " flag: " + error);
    }
    result_.values[spec.name].push_back(std::move(*stored));
    return base::Status::OK();
  }

  const std::vector<std::string>& args_;
  size_t next_ = 0;  // index of the next unread argument
  std::map<char, std::string> short_names_;
  ParsedFlags result_;
};

}  // namespace

const FlagSpec& ParsedFlags::Spec(const std::string& name) const {
  auto it = specs.find(name);
  RLAB_ASSERT(it != specs.end(), "ParsedFlags: ask only for flags declared in the FlagSpecs");
  return it->second;
}

bool ParsedFlags::Has(const std::string& name) const {
  Spec(name);
  return values.count(name) > 0;
}

std::string ParsedFlags::Get(const std::string& name) const {
  const FlagSpec& spec = Spec(name);
  auto it = values.find(name);
  if (it != values.end() && !it->second.empty()) return it->second.back();
  return spec.default_value;
}

std::vector<std::string> ParsedFlags::GetAll(const std::string& name) const {
  const FlagSpec& spec = Spec(name);
  auto it = values.find(name);
  if (it != values.end()) return it->second;
  if (spec.default_value.empty()) return {};
  return {spec.default_value};
}

bool ParsedFlags::GetBool(const std::string& name) const {
  RLAB_ASSERT(Spec(name).type == FlagSpec::kBool, "GetBool needs a kBool flag");
  const std::string v = Get(name);
  if (v.empty()) return false;
  const std::optional<bool> b = ParseGoBool(v);
  RLAB_ASSERT(b.has_value(), "bool flag values are validated by ParseFlags");
  return *b;
}

int64_t ParsedFlags::GetInt(const std::string& name) const {
  RLAB_ASSERT(Spec(name).type == FlagSpec::kInt, "GetInt needs a kInt flag");
  const std::string v = Get(name);
  if (v.empty()) return 0;
  std::string error;
  const std::optional<int64_t> n = ParseGoInt(v, &error);
  RLAB_ASSERT(n.has_value(), "int flag values are validated by ParseFlags");
  return *n;
}

base::Duration ParsedFlags::GetDuration(const std::string& name) const {
  RLAB_ASSERT(Spec(name).type == FlagSpec::kDuration, "GetDuration needs a kDuration flag");
  const std::string v = Get(name);
  if (v.empty()) return 0;
  auto d = base::ParseDuration(v);
  RLAB_ASSERT(d.ok(), "duration flag values are validated by ParseFlags");
  return *d;
}

base::StatusOr<ParsedFlags> ParseFlags(const std::vector<std::string>& args,
                                       const std::vector<FlagSpec>& specs) {
  return Parser(args, specs).Run();
}

}  // namespace kubectl
