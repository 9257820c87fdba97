#include "core/api/yaml.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/assert.h"

namespace api {
namespace {

// ---- scalar resolution (go-yaml v2 resolve.go) -------------------------------------------------

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int DigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

// ParseGoInt mirrors strconv.ParseInt/ParseUint with base 0 (0x, 0o, 0b, leading-0 octal).
// Returns false on a syntax error or when the magnitude does not fit in uint64.
bool ParseGoInt(const std::string& s, bool* negative, bool* signed_text, uint64_t* magnitude) {
  size_t p = 0;
  *negative = false;
  *signed_text = false;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) {
    *negative = s[p] == '-';
    *signed_text = true;
    ++p;
  }
  int base = 10;
  if (p + 1 < s.size() && s[p] == '0') {
    const char c = s[p + 1];
    if (c == 'x' || c == 'X') {
      base = 16;
      p += 2;
    } else if (c == 'o' || c == 'O') {
      base = 8;
      p += 2;
    } else if (c == 'b' || c == 'B') {
      base = 2;
      p += 2;
    } else {
      base = 8;
      p += 1;
    }
  }
  if (p >= s.size()) return false;
  uint64_t value = 0;
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  for (; p < s.size(); ++p) {
    const int d = DigitValue(s[p]);
    if (d >= base) return false;
    if (value > (max - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base)) return false;
    value = value * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  *magnitude = value;
  return true;
}

// MatchesYamlFloat is go-yaml's yamlStyleFloat:
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool MatchesYamlFloat(const std::string& s) {
  size_t p = 0;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) ++p;
  if (p < s.size() && s[p] == '.') {
    ++p;
    const size_t start = p;
    while (p < s.size() && IsDigit(s[p])) ++p;
    if (p == start) return false;
  } else {
    const size_t start = p;
    while (p < s.size() && IsDigit(s[p])) ++p;
    if (p == start) return false;
    if (p < s.size() && s[p] == '.') {
      ++p;
      while (p < s.size() && IsDigit(s[p])) ++p;
    }
  }
  if (p < s.size() && (s[p] == 'e' || s[p] == 'E')) {
    ++p;
    if (p < s.size() && (s[p] == '+' || s[p] == '-')) ++p;
    const size_t start = p;
    while (p < s.size() && IsDigit(s[p])) ++p;
    if (p == start) return false;
  }
  return p == s.size();
}

// ParseFloat mirrors strconv.ParseFloat for the decimal syntax MatchesYamlFloat admits: overflow
// is an error (the scalar stays a string), underflow rounds to zero.
bool ParseFloat(const std::string& s, double* out) {
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return false;
  if (std::isinf(v)) return false;
  *out = v;
  return true;
}

// ReadNum reads 1 or 2 digits greedily, like Go's time getnum(value, false).
bool ReadNum(const std::string& s, size_t* p, int* out) {
  if (*p >= s.size() || !IsDigit(s[*p])) return false;
  int v = s[*p] - '0';
  ++*p;
  if (*p < s.size() && IsDigit(s[*p])) {
    v = v * 10 + (s[*p] - '0');
    ++*p;
  }
  *out = v;
  return true;
}

int DaysIn(int month, int year) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// IsTimestamp mirrors go-yaml v2 parseTimestamp: "2006-1-2T15:4:5.999999999Z07:00", the same
// with a lower-case t, "2006-1-2 15:4:5.999999999" and "2006-1-2", parsed as time.Parse does.
bool IsTimestamp(const std::string& s) {
  if (s.size() < 5) return false;
  for (int i = 0; i < 4; ++i) {
    if (!IsDigit(s[i])) return false;
  }
  if (s[4] != '-') return false;
  const int year = std::atoi(s.substr(0, 4).c_str());
  size_t p = 5;
  int month = 0, day = 0;
  if (!ReadNum(s, &p, &month) || p >= s.size() || s[p] != '-') return false;
  ++p;
  if (!ReadNum(s, &p, &day)) return false;
  if (month < 1 || month > 12 || day < 1 || day > DaysIn(month, year)) return false;
  if (p == s.size()) return true;
  const char sep = s[p];
  if (sep != 'T' && sep != 't' && sep != ' ') return false;
  ++p;
  int hour = 0, minute = 0, second = 0;
  if (!ReadNum(s, &p, &hour) || p >= s.size() || s[p] != ':') return false;
  ++p;
  if (!ReadNum(s, &p, &minute) || p >= s.size() || s[p] != ':') return false;
  ++p;
  if (!ReadNum(s, &p, &second)) return false;
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (p + 1 < s.size() && (s[p] == '.' || s[p] == ',') && IsDigit(s[p + 1])) {
    ++p;
    while (p < s.size() && IsDigit(s[p])) ++p;
  }
  if (sep == ' ') return p == s.size();
  if (p < s.size() && s[p] == 'Z') return p + 1 == s.size();
  if (p + 6 != s.size() || (s[p] != '+' && s[p] != '-')) return false;
  if (!IsDigit(s[p + 1]) || !IsDigit(s[p + 2]) || s[p + 3] != ':' || !IsDigit(s[p + 4]) ||
      !IsDigit(s[p + 5])) {
    return false;
  }
  const int zh = (s[p + 1] - '0') * 10 + (s[p + 2] - '0');
  const int zm = (s[p + 4] - '0') * 10 + (s[p + 5] - '0');
  return zh <= 24 && zm <= 59;
}

// IsBase60Float is go-yaml's ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$ (YAML 1.1
// sexagesimal numbers), which the encoder quotes even though it decodes them as strings.
bool IsBase60Float(const std::string& s) {
  size_t p = 0;
  if (p < s.size() && (s[p] == '+' || s[p] == '-')) ++p;
  if (p >= s.size() || !IsDigit(s[p])) return false;
  ++p;
  while (p < s.size() && (IsDigit(s[p]) || s[p] == '_')) ++p;
  int groups = 0;
  while (p < s.size() && s[p] == ':') {
    ++p;
    size_t digits = 0;
    const size_t start = p;
    while (p < s.size() && IsDigit(s[p]) && digits < 2) {
      ++p;
      ++digits;
    }
    if (digits == 0) return false;
    if (digits == 2 && s[start] > '5') return false;
    ++groups;
  }
  if (groups == 0) return false;
  if (p < s.size() && s[p] == '.') {
    ++p;
    while (p < s.size() && (IsDigit(s[p]) || s[p] == '_')) ++p;
  }
  return p == s.size();
}

// ---- emitter (go-yaml v2 emitterc.go) ----------------------------------------------------------

constexpr int kBestIndent = 2;
constexpr int kBestWidth = 80;

// Utf8Width is the byte length of the UTF-8 sequence starting with b (0 if b cannot start one).
int Utf8Width(unsigned char b) {
  if ((b & 0x80) == 0) return 1;
  if ((b & 0xE0) == 0xC0) return 2;
  if ((b & 0xF0) == 0xE0) return 3;
  if ((b & 0xF8) == 0xF0) return 4;
  return 0;
}

}  // namespace

bool IsValidUtf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    const int w = Utf8Width(b);
    if (w == 0 || i + w > s.size()) return false;
    uint32_t cp = w == 1 ? b : (b & (0xFF >> (w + 1)));
    for (int k = 1; k < w; ++k) {
      const unsigned char c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3F);
    }
    if ((w == 2 && cp < 0x80) || (w == 3 && cp < 0x800) || (w == 4 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += w;
  }
  return true;
}

namespace {

uint32_t CodePoint(const std::string& s, size_t i, int w) {
  const unsigned char b = static_cast<unsigned char>(s[i]);
  uint32_t cp = w == 1 ? b : (b & (0xFF >> (w + 1)));
  for (int k = 1; k < w; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return cp;
}

// IsPrintable mirrors go-yaml's is_printable: \n, printable ASCII, and BMP characters other than
// surrogates, the BOM and U+FFFE/U+FFFF. Tabs, CR and characters beyond the BMP are not.
bool IsPrintable(uint32_t cp) {
  if (cp == 0x0A) return true;
  if (cp >= 0x20 && cp <= 0x7E) return true;
  if (cp >= 0xA0 && cp <= 0xD7FF) return true;
  if (cp >= 0xE000 && cp <= 0xFFFD && cp != 0xFEFF) return true;
  return false;
}

// IsUnicodeBreak marks NEL, LS and PS, which YAML 1.1 treats as line breaks and YAML 1.2 does not.
bool IsUnicodeBreak(uint32_t cp) { return cp == 0x85 || cp == 0x2028 || cp == 0x2029; }

enum class Style { kPlain, kSingle, kDouble, kLiteral };

// Analysis holds yaml_emitter_analyze_scalar's verdicts.
struct Analysis {
  bool flow_plain_allowed = true;
  bool block_plain_allowed = true;
  bool single_quoted_allowed = true;
  bool block_allowed = true;
  bool force_double = false;  // invalid UTF-8 or a YAML 1.1-only line break (see yaml.h)
};

Analysis Analyze(const std::string& v) {
  Analysis a;
  if (v.empty()) {
    a.flow_plain_allowed = false;
    a.block_allowed = false;
    return a;
  }
  if (!IsValidUtf8(v)) {
    a.force_double = true;
    return a;
  }
  bool block_indicators = false, flow_indicators = false, line_breaks = false;
  bool special_characters = false, leading_space = false, leading_break = false;
  bool trailing_space = false, trailing_break = false, break_space = false, space_break = false;
  bool previous_space = false, previous_break = false;
  if (v.size() >= 3 && (v.compare(0, 3, "---") == 0 || v.compare(0, 3, "...") == 0)) {
    block_indicators = true;
    flow_indicators = true;
  }
  bool preceded_by_whitespace = true;
  for (size_t i = 0; i < v.size();) {
    const int w = Utf8Width(static_cast<unsigned char>(v[i]));
    const uint32_t cp = CodePoint(v, i, w);
    const char c = v[i];
    const bool at_end = i + w >= v.size();
    const bool followed_by_whitespace = at_end || v[i + w] == ' ' || v[i + w] == '\t';
    if (i == 0) {
      if (c != '\0' && std::strchr("#,[]{}&*!|>'\"%@`", c) != nullptr) {
        flow_indicators = block_indicators = true;
      } else if (c == '?' || c == ':') {
        flow_indicators = true;
        block_indicators = block_indicators || followed_by_whitespace;
      } else if (c == '-' && followed_by_whitespace) {
        flow_indicators = block_indicators = true;
      }
    } else if (c != '\0' && std::strchr(",?[]{}", c) != nullptr) {
      flow_indicators = true;
    } else if (c == ':') {
      flow_indicators = true;
      block_indicators = block_indicators || followed_by_whitespace;
    } else if (c == '#' && preceded_by_whitespace) {
      flow_indicators = block_indicators = true;
    }
    if (IsUnicodeBreak(cp)) a.force_double = true;
    if (!IsPrintable(cp)) special_characters = true;
    const bool is_break = c == '\n' || c == '\r';
    if (c == ' ') {
      if (i == 0) leading_space = true;
      if (at_end) trailing_space = true;
      if (previous_break) break_space = true;
      previous_space = true;
      previous_break = false;
    } else if (is_break) {
      line_breaks = true;
      if (i == 0) leading_break = true;
      if (at_end) trailing_break = true;
      if (previous_space) space_break = true;
      previous_space = false;
      previous_break = true;
    } else {
      previous_space = false;
      previous_break = false;
    }
    preceded_by_whitespace = c == ' ' || c == '\t' || is_break;
    i += w;
  }
  if (leading_space || leading_break || trailing_space || trailing_break) {
    a.flow_plain_allowed = false;
    a.block_plain_allowed = false;
  }
  if (trailing_space) a.block_allowed = false;
  if (break_space) {
    a.flow_plain_allowed = false;
    a.block_plain_allowed = false;
    a.single_quoted_allowed = false;
  }
  if (space_break || special_characters) {
    a.flow_plain_allowed = false;
    a.block_plain_allowed = false;
    a.single_quoted_allowed = false;
    a.block_allowed = false;
  }
  if (line_breaks) {
    a.flow_plain_allowed = false;
    a.block_plain_allowed = false;
  }
  if (flow_indicators) a.flow_plain_allowed = false;
  if (block_indicators) a.block_plain_allowed = false;
  return a;
}

// ChooseStyle mirrors encode.go stringv plus yaml_emitter_select_scalar_style (block context).
Style ChooseStyle(const std::string& s, bool is_key) {
  // The merge key stays quoted so that a key named "<<" reads back as itself (go-yaml writes it
  // plain).
  const bool can_plain =
      ResolvePlainScalar(s).tag == YamlTag::kStr && !IsBase60Float(s) && !(is_key && s == "<<");
  Style style = s.find('\n') != std::string::npos ? Style::kLiteral
                : can_plain                       ? Style::kPlain
                                                  : Style::kDouble;
  const Analysis a = Analyze(s);
  if (a.force_double) return Style::kDouble;
  if (style == Style::kPlain) {
    if (!a.block_plain_allowed) style = Style::kSingle;
    if (s.empty() && is_key) style = Style::kSingle;
  }
  if (style == Style::kSingle && !a.single_quoted_allowed) style = Style::kDouble;
  if (style == Style::kLiteral && (!a.block_allowed || is_key)) style = Style::kDouble;
  return style;
}

// KeyLess mirrors go-yaml v2 sorter.go keyList.Less for string keys: letters sort after other
// characters, and runs of digits compare by numeric value ("a9" < "a10").
bool KeyLess(const std::string& a, const std::string& b) {
  auto is_letter = [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
  };
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  for (size_t i = 0; i < n; ++i) {
    const unsigned char ac = static_cast<unsigned char>(a[i]);
    const unsigned char bc = static_cast<unsigned char>(b[i]);
    if (ac == bc) continue;
    const bool al = is_letter(ac), bl = is_letter(bc);
    if (al && bl) return ac < bc;
    if (al || bl) return bl;
    // go-yaml sums in int64, which wraps silently in Go past 19 digits: sum in uint64 (defined
    // wrap-around) and compare as int64, so very long digit runs order as go-yaml orders them.
    uint64_t an = 0, bn = 0;
    if (ac == '0' || bc == '0') {
      for (size_t j = i; j-- > 0 && IsDigit(a[j]);) {
        if (a[j] != '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    size_t ai = i, bi = i;
    for (; ai < a.size() && IsDigit(a[ai]); ++ai) an = an * 10 + static_cast<uint64_t>(a[ai] - '0');
    for (; bi < b.size() && IsDigit(b[bi]); ++bi) bn = bn * 10 + static_cast<uint64_t>(b[bi] - '0');
    if (an != bn) return static_cast<int64_t>(an) < static_cast<int64_t>(bn);
    if (ai != bi) return ai < bi;
    return ac < bc;
  }
  return a.size() < b.size();
}

// IsSimpleKey mirrors yaml_emitter_check_simple_key for string keys: at most 128 bytes and on
// one line. Other keys are written in the explicit "? key" form.
bool IsSimpleKey(const std::string& key) {
  if (key.size() > 128) return false;
  for (size_t i = 0; i < key.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(key[i]);
    if (c == '\n' || c == '\r') return false;
    if (c == 0xC2 && i + 1 < key.size() && static_cast<unsigned char>(key[i + 1]) == 0x85)
      return false;
    if (c == 0xE2 && i + 2 < key.size() && static_cast<unsigned char>(key[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(key[i + 2]) == 0xA8 ||
         static_cast<unsigned char>(key[i + 2]) == 0xA9)) {
      return false;
    }
  }
  return true;
}

// SortEntries orders object entries by KeyLess with a merge sort written out here, so the order is
// the same under libstdc++ and libc++ whatever KeyLess does with unusual keys.
void SortEntries(std::vector<Json::const_iterator>* entries) {
  std::vector<Json::const_iterator>& v = *entries;
  std::vector<Json::const_iterator> tmp(v.size());
  for (size_t width = 1; width < v.size(); width *= 2) {
    for (size_t lo = 0; lo < v.size(); lo += 2 * width) {
      const size_t mid = std::min(lo + width, v.size());
      const size_t hi = std::min(lo + 2 * width, v.size());
      size_t a = lo, b = mid, out = lo;
      while (a < mid && b < hi) {
        tmp[out++] = KeyLess(v[b].key(), v[a].key()) ? v[b++] : v[a++];
      }
      while (a < mid) tmp[out++] = v[a++];
      while (b < hi) tmp[out++] = v[b++];
    }
    v.swap(tmp);
  }
}

// Writer renders a Json tree. Invariant: column_ counts the characters (code points) written on
// the current output line.
class Writer {
 public:
  std::string Finish() {
    if (column_ > 0) out_ += '\n';
    if (open_ended_) out_ += "...\n";
    return std::move(out_);
  }

  void Root(const Json& v) {
    if (v.is_object() && !v.empty()) {
      Map(v, 0, /*inline_first=*/true);
    } else if (v.is_array() && !v.empty()) {
      Seq(v, 0, /*inline_first=*/true);
    } else {
      Scalar(v, kBestIndent);
    }
  }

 private:
  void Put(const char* p, size_t n) {
    out_.append(p, n);
    for (size_t i = 0; i < n; ++i) {
      if ((static_cast<unsigned char>(p[i]) & 0xC0) != 0x80) ++column_;
    }
  }
  void Put(const std::string& s) { Put(s.data(), s.size()); }
  void Put(char c) {
    out_ += c;
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++column_;
  }
  // Indent starts a fresh line at indent unless the current line is still empty.
  void Indent(int indent) {
    if (column_ > 0) {
      out_ += '\n';
      column_ = 0;
    }
    while (column_ < indent) Put(' ');
  }
  void Break(int indent) {
    out_ += '\n';
    column_ = 0;
    while (column_ < indent) Put(' ');
  }

  void Map(const Json& m, int indent, bool inline_first) {
    std::vector<Json::const_iterator> entries;
    for (auto it = m.begin(); it != m.end(); ++it) entries.push_back(it);
    SortEntries(&entries);
    bool first = true;
    for (const Json::const_iterator& entry : entries) {
      if (!(first && inline_first)) Indent(indent);
      first = false;
      const Json& v = entry.value();
      if (!IsSimpleKey(entry.key())) {
        // mirrors yaml_emitter_emit_block_mapping_key/value for keys that cannot be simple:
        // "? key" then ": value" on the next line at the mapping's indentation.
        Put("? ");
        String(entry.key(), indent + kBestIndent, /*is_key=*/false);
        Indent(indent);
        Put(": ");
        if (v.is_object() && !v.empty()) {
          Map(v, indent + kBestIndent, /*inline_first=*/true);
        } else if (v.is_array() && !v.empty()) {
          Seq(v, indent + kBestIndent, /*inline_first=*/true);
        } else {
          Scalar(v, indent + kBestIndent);
        }
        continue;
      }
      String(entry.key(), indent + kBestIndent, /*is_key=*/true);
      Put(':');
      if (v.is_object() && !v.empty()) {
        Map(v, indent + kBestIndent, /*inline_first=*/false);
      } else if (v.is_array() && !v.empty()) {
        Seq(v, indent, /*inline_first=*/false);  // go-yaml: sequences in mappings are indentless
      } else {
        Put(' ');
        Scalar(v, indent + kBestIndent);
      }
    }
  }

  void Seq(const Json& a, int indent, bool inline_first) {
    bool first = true;
    for (const Json& item : a) {
      if (!(first && inline_first)) Indent(indent);
      first = false;
      Put("- ");
      if (item.is_object() && !item.empty()) {
        Map(item, indent + kBestIndent, /*inline_first=*/true);
      } else if (item.is_array() && !item.empty()) {
        Seq(item, indent + kBestIndent, /*inline_first=*/true);
      } else {
        Scalar(item, indent + kBestIndent);
      }
    }
  }

  void Scalar(const Json& v, int indent) {
    switch (v.type()) {
      case Json::value_t::null:
        Put("null");
        break;
      case Json::value_t::boolean:
        Put(v.get<bool>() ? "true" : "false");
        break;
      case Json::value_t::number_integer:
        Put(std::to_string(v.get<int64_t>()));
        break;
      case Json::value_t::number_unsigned:
        Put(std::to_string(v.get<uint64_t>()));
        break;
      case Json::value_t::number_float:
        Put(FormatGoFloat(v.get<double>(), 64));
        break;
      case Json::value_t::string:
        String(v.get_ref<const std::string&>(), indent, /*is_key=*/false);
        break;
      case Json::value_t::object:
        Put("{}");
        break;
      case Json::value_t::array:
        Put("[]");
        break;
      default:  // binary and discarded values never come from our decoders
        Put("null");
        break;
    }
  }

  void String(const std::string& s, int indent, bool is_key) {
    switch (ChooseStyle(s, is_key)) {
      case Style::kPlain:
        Plain(s, indent, !is_key);
        break;
      case Style::kSingle:
        Single(s, indent, !is_key);
        break;
      case Style::kDouble:
        Double(s, indent, !is_key);
        break;
      case Style::kLiteral:
        Literal(s, indent);
        break;
    }
  }

  // mirrors emitterc.go yaml_emitter_write_plain_scalar
  void Plain(const std::string& s, int indent, bool allow_breaks) {
    bool spaces = false;
    for (size_t i = 0; i < s.size();) {
      const int w = Utf8Width(static_cast<unsigned char>(s[i]));
      if (s[i] == ' ') {
        const bool next_space = i + 1 < s.size() && s[i + 1] == ' ';
        if (allow_breaks && !spaces && column_ > kBestWidth && !next_space) {
          Break(indent);
        } else {
          Put(' ');
        }
        spaces = true;
      } else {
        Put(s.data() + i, static_cast<size_t>(w));
        spaces = false;
      }
      i += w;
    }
  }

  // mirrors emitterc.go yaml_emitter_write_single_quoted_scalar (no line breaks reach it)
  void Single(const std::string& s, int indent, bool allow_breaks) {
    Put('\'');
    bool spaces = false;
    for (size_t i = 0; i < s.size();) {
      const int w = Utf8Width(static_cast<unsigned char>(s[i]));
      if (s[i] == ' ') {
        const bool next_space = i + 1 < s.size() && s[i + 1] == ' ';
        if (allow_breaks && !spaces && column_ > kBestWidth && i > 0 && i + 1 < s.size() &&
            !next_space) {
          Break(indent);
        } else {
          Put(' ');
        }
        spaces = true;
      } else {
        if (s[i] == '\'') Put('\'');
        Put(s.data() + i, static_cast<size_t>(w));
        spaces = false;
      }
      i += w;
    }
    Put('\'');
  }

  // Escape writes the escape sequence for cp after its backslash. go-yaml writes \N and \_ for
  // U+0085 and U+00A0; yaml-cpp decodes those two to raw Latin-1 bytes, so they get \x85 / \xA0.
  void Escape(uint32_t cp) {
    static const std::pair<uint32_t, char> kShort[] = {
        {0x00, '0'},  {0x07, 'a'},   {0x08, 'b'},  {0x09, 't'}, {0x0A, 'n'},
        {0x0B, 'v'},  {0x0C, 'f'},   {0x0D, 'r'},  {0x1B, 'e'}, {0x22, '"'},
        {0x5C, '\\'}, {0x2028, 'L'}, {0x2029, 'P'}};
    for (const auto& e : kShort) {
      if (e.first == cp) return Put(e.second);
    }
    char buf[16];
    if (cp <= 0xFF) {
      std::snprintf(buf, sizeof buf, "x%02X", static_cast<unsigned>(cp));
    } else if (cp <= 0xFFFF) {
      std::snprintf(buf, sizeof buf, "u%04X", static_cast<unsigned>(cp));
    } else {
      std::snprintf(buf, sizeof buf, "U%08X", static_cast<unsigned>(cp));
    }
    Put(buf);
  }

  // mirrors emitterc.go yaml_emitter_write_double_quoted_scalar
  void Double(const std::string& s, int indent, bool allow_breaks) {
    const bool valid = IsValidUtf8(s);
    Put('"');
    bool spaces = false;
    for (size_t i = 0; i < s.size();) {
      int w = valid ? Utf8Width(static_cast<unsigned char>(s[i])) : 1;
      const uint32_t cp = valid ? CodePoint(s, i, w) : static_cast<unsigned char>(s[i]);
      const bool needs_escape = !valid || !IsPrintable(cp) || cp == 0xFEFF || cp == '\n' ||
                                cp == '\r' || IsUnicodeBreak(cp) || cp == '"' || cp == '\\';
      if (needs_escape) {
        Put('\\');
        Escape(cp);
        spaces = false;
      } else if (s[i] == ' ') {
        if (allow_breaks && !spaces && column_ > kBestWidth && i > 0 && i + 1 < s.size()) {
          Break(indent);
          if (s[i + 1] == ' ') Put('\\');
        } else {
          Put(' ');
        }
        spaces = true;
      } else {
        Put(s.data() + i, static_cast<size_t>(w));
        spaces = false;
      }
      i += w;
    }
    Put('"');
  }

  // mirrors emitterc.go yaml_emitter_write_literal_scalar and write_block_scalar_hints
  void Literal(const std::string& s, int indent) {
    Put('|');
    if (s[0] == ' ' || s[0] == '\n') Put(static_cast<char>('0' + kBestIndent));
    open_ended_ = false;
    if (s.back() != '\n') {
      Put('-');
    } else if (s.size() == 1 || s[s.size() - 2] == '\n') {
      Put('+');
      open_ended_ = true;
    }
    out_ += '\n';
    column_ = 0;
    bool breaks = true;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '\n') {
        out_ += '\n';
        column_ = 0;
        breaks = true;
      } else {
        if (breaks) {
          while (column_ < indent) Put(' ');
          breaks = false;
        }
        Put(s[i]);
      }
    }
  }

  std::string out_;
  int column_ = 0;
  bool open_ended_ = false;  // the last block scalar kept its trailing newlines ("|+")
};

}  // namespace

ResolvedScalar ResolvePlainScalar(const std::string& in) {
  ResolvedScalar r;
  r.value = in;
  if (in.empty()) {
    r.tag = YamlTag::kNull;
    r.value = nullptr;
    return r;
  }
  const char c = in[0];
  char hint = 0;
  if (IsDigit(c)) {
    hint = 'D';
  } else if (c == '+' || c == '-') {
    hint = 'S';
  } else if (c == '.') {
    hint = '.';
  } else if (std::string_view("yYnNtTfFoO~").find(c) != std::string_view::npos) {
    hint = 'M';
  }
  if (hint == 0) return r;
  // Every bool and null word is at most five characters ("false"): a longer word is a string
  // (most plain scalars of a manifest start with one of these letters: name, type, true, ...).
  if (hint == 'M' && in.size() > 5) return r;
  // Views, so each compare checks the length before any byte (and calls nothing).
  static constexpr std::string_view kTrue[] = {"y",    "Y",    "yes", "Yes", "YES", "true",
                                               "True", "TRUE", "on",  "On",  "ON"};
  static constexpr std::string_view kFalse[] = {"n",     "N",     "no",  "No",  "NO", "false",
                                                "False", "FALSE", "off", "Off", "OFF"};
  static constexpr std::string_view kNull[] = {"~", "null", "Null", "NULL"};
  const std::string_view word = in;
  for (std::string_view t : kTrue) {
    if (word == t) return {YamlTag::kBool, true};
  }
  for (std::string_view f : kFalse) {
    if (word == f) return {YamlTag::kBool, false};
  }
  for (std::string_view n : kNull) {
    if (word == n) return {YamlTag::kNull, nullptr};
  }
  if (word == ".nan" || word == ".NaN" || word == ".NAN") {
    return {YamlTag::kFloat, std::numeric_limits<double>::quiet_NaN()};
  }
  if (word == ".inf" || word == ".Inf" || word == ".INF" || word == "+.inf" || word == "+.Inf" ||
      word == "+.INF") {
    return {YamlTag::kFloat, std::numeric_limits<double>::infinity()};
  }
  if (word == "-.inf" || word == "-.Inf" || word == "-.INF") {
    return {YamlTag::kFloat, -std::numeric_limits<double>::infinity()};
  }
  if (hint == 'M') return r;
  if (hint == '.') {
    double f = 0;
    if (MatchesYamlFloat(in) && ParseFloat(in, &f)) return {YamlTag::kFloat, f};
    return r;
  }
  if (IsTimestamp(in)) {
    r.tag = YamlTag::kTimestamp;
    return r;
  }
  std::string plain;
  for (char ch : in) {
    if (ch != '_') plain += ch;
  }
  bool negative = false, signed_text = false;
  uint64_t magnitude = 0;
  if (ParseGoInt(plain, &negative, &signed_text, &magnitude)) {
    const uint64_t int64_max = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (!negative && magnitude <= int64_max) {
      return {YamlTag::kInt, static_cast<int64_t>(magnitude)};
    }
    if (negative && magnitude <= int64_max + 1) {
      return {YamlTag::kInt, magnitude == int64_max + 1 ? std::numeric_limits<int64_t>::min()
                                                        : -static_cast<int64_t>(magnitude)};
    }
    if (!signed_text) return {YamlTag::kInt, magnitude};
  }
  double f = 0;
  if (MatchesYamlFloat(plain) && ParseFloat(plain, &f)) return {YamlTag::kFloat, f};
  return r;
}

std::string FormatGoFloat(double v, int bits) {
  RLAB_ASSERT(bits == 32 || bits == 64, "FormatGoFloat takes 32 or 64 bits");
  // Narrowed first: a double beyond float's range becomes an infinity at 32 bits.
  if (bits == 32) v = static_cast<double>(static_cast<float>(v));
  if (std::isnan(v)) return ".nan";
  if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  // Shortest %e precision that reads back as the same value (at the requested width).
  char buf[64];
  int prec = 0;
  for (; prec < 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*e", prec, v);
    const double back = std::strtod(buf, nullptr);
    if (bits == 32 ? static_cast<float>(back) == static_cast<float>(v) : back == v) break;
  }
  // buf is [-]d[.ddd]e±XX: split into digits and decimal exponent.
  std::string text(buf);
  const bool neg = text[0] == '-';
  if (neg) text.erase(0, 1);
  const size_t e = text.find('e');
  std::string digits;
  for (size_t i = 0; i < e; ++i) {
    if (text[i] != '.') digits += text[i];
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int exp = std::atoi(text.c_str() + e + 1);
  std::string out = neg ? "-" : "";
  if (exp < -4 || exp >= 6) {  // %e form (strconv 'g' with shortest precision uses 6 here)
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    char ebuf[16];
    std::snprintf(ebuf, sizeof ebuf, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return out + ebuf;
  }
  const size_t dp = static_cast<size_t>(exp + 1 > 0 ? exp + 1 : 0);  // digits before the point
  if (exp + 1 <= 0) return out + "0." + std::string(static_cast<size_t>(-(exp + 1)), '0') + digits;
  if (dp >= digits.size()) return out + digits + std::string(dp - digits.size(), '0');
  return out + digits.substr(0, dp) + "." + digits.substr(dp);
}

std::string ToYaml(const Json& doc) {
  Writer writer;
  writer.Root(doc);
  return writer.Finish();
}

}  // namespace api
