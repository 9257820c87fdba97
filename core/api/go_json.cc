#include "core/api/go_json.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace api {
namespace {

// GoJsonDecompose splits a finite double into its shortest decimal digits and the decimal point
// position (value = 0.DIGITS x 10^dp), using nlohmann's shortest round-trip rendering.
void GoJsonDecompose(double v, bool* negative, std::string* digits, int* dp) {
  std::string s = Json(v).dump();
  *negative = !s.empty() && s[0] == '-';
  if (*negative) s = s.substr(1);
  int exp10 = 0;
  size_t e = s.find_first_of("eE");
  if (e != std::string::npos) {
    exp10 = std::atoi(s.c_str() + e + 1);
    s = s.substr(0, e);
  }
  size_t dot = s.find('.');
  std::string int_part = dot == std::string::npos ? s : s.substr(0, dot);
  std::string frac_part = dot == std::string::npos ? "" : s.substr(dot + 1);
  *digits = int_part + frac_part;
  *dp = static_cast<int>(int_part.size()) + exp10;
  size_t lead = 0;
  while (lead < digits->size() && (*digits)[lead] == '0') ++lead;
  *digits = digits->substr(lead);
  *dp -= static_cast<int>(lead);
  while (!digits->empty() && digits->back() == '0') digits->pop_back();
}

// GoJsonUtf8Length is the length of the valid UTF-8 sequence starting at s[i], or 0 when the
// bytes there are not valid UTF-8 (Go then writes \ufffd for the first byte and goes on).
size_t GoJsonUtf8Length(const std::string& s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = 0;
  unsigned int min = 0;
  unsigned int cp = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2, cp = c & 0x1F, min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3, cp = c & 0x0F, min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4, cp = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const unsigned char cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

std::string GoFormatFloat(double v, bool json) {
  bool negative = false;
  std::string digits;
  int dp = 0;
  GoJsonDecompose(v, &negative, &digits, &dp);
  std::string sign = negative ? "-" : "";
  if (digits.empty()) return sign + "0";
  const int nd = static_cast<int>(digits.size());
  const int exp = dp - 1;
  const double abs = v < 0 ? -v : v;
  const bool use_e = json ? (abs < 1e-6 || abs >= 1e21) : (exp < -4 || exp >= 6);
  if (use_e) {
    std::string out = sign + digits.substr(0, 1);
    if (nd > 1) out += "." + digits.substr(1);
    int x = exp < 0 ? -exp : exp;
    std::string xs = std::to_string(x);
    if (xs.size() < 2 && !json) xs = "0" + xs;
    if (xs.size() < 2 && json && exp >= 0) xs = "0" + xs;
    out += std::string("e") + (exp < 0 ? "-" : "+") + xs;
    return out;
  }
  if (dp <= 0) return sign + "0." + std::string(static_cast<size_t>(-dp), '0') + digits;
  if (dp >= nd) return sign + digits + std::string(static_cast<size_t>(dp - nd), '0');
  return sign + digits.substr(0, static_cast<size_t>(dp)) + "." +
         digits.substr(static_cast<size_t>(dp));
}

void GoJsonQuote(const std::string& s, std::string* out) {
  out->push_back('"');
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': *out += "\\\""; break;
        case '\\': *out += "\\\\"; break;
        case '\b': *out += "\\b"; break;
        case '\f': *out += "\\f"; break;
        case '\n': *out += "\\n"; break;
        case '\r': *out += "\\r"; break;
        case '\t': *out += "\\t"; break;
        case '<': *out += "\\u003c"; break;
        case '>': *out += "\\u003e"; break;
        case '&': *out += "\\u0026"; break;
        default:
          if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", c);
            *out += buf;
          } else {
            out->push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    const size_t n = GoJsonUtf8Length(s, i);
    if (n == 0) {
      *out += "\\ufffd";
      ++i;
      continue;
    }
    if (n == 3 && c == 0xE2 && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(s[i + 2]) == 0xA8 ||
         static_cast<unsigned char>(s[i + 2]) == 0xA9)) {
      *out += static_cast<unsigned char>(s[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
    } else {
      out->append(s, i, n);
    }
    i += n;
  }
  out->push_back('"');
}

namespace {

void GoJsonAppend(const Json& v, std::string* out) {
  if (v.is_null()) {
    *out += "null";
  } else if (v.is_boolean()) {
    *out += v.get<bool>() ? "true" : "false";
  } else if (v.is_number_float()) {
    *out += GoFormatFloat(v.get<double>(), /*json=*/true);
  } else if (v.is_number()) {
    *out += v.dump();
  } else if (v.is_string()) {
    GoJsonQuote(v.get_ref<const std::string&>(), out);
  } else if (v.is_array()) {
    out->push_back('[');
    bool first = true;
    for (const Json& e : v) {
      if (!first) out->push_back(',');
      first = false;
      GoJsonAppend(e, out);
    }
    out->push_back(']');
  } else {
    out->push_back('{');
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {  // FlatObject: sorted, as Go sorts keys
      if (!first) out->push_back(',');
      first = false;
      GoJsonQuote(it.key(), out);
      out->push_back(':');
      GoJsonAppend(it.value(), out);
    }
    out->push_back('}');
  }
}

}  // namespace

std::string GoJsonMarshal(const Json& v) {
  std::string out;
  GoJsonAppend(v, &out);
  return out;
}

}  // namespace api
