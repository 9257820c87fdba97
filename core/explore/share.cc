#include "core/explore/share.h"

#include <algorithm>

namespace explore {

std::string DeflateRawStored(const std::string& data) {
  std::string out;
  size_t at = 0;
  do {
    const size_t len = std::min<size_t>(data.size() - at, 65535);
    const bool last = at + len == data.size();
    out += static_cast<char>(last ? 0x01 : 0x00);  // BFINAL, BTYPE=00 (stored), byte-aligned
    out += static_cast<char>(len & 0xff);
    out += static_cast<char>((len >> 8) & 0xff);
    out += static_cast<char>(~len & 0xff);
    out += static_cast<char>((~len >> 8) & 0xff);
    out.append(data, at, len);
    at += len;
  } while (at < data.size());
  return out;
}

std::string Base64Url(const std::string& bytes) {
  static const char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                       (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  const size_t rest = bytes.size() - i;
  if (rest == 1) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
  } else if (rest == 2) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                       (static_cast<unsigned char>(bytes[i + 1]) << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

base::StatusOr<std::string> ShareFragment(const std::string& script) {
  if (script.size() > kMaxShareScriptBytes) {
    return base::Status(base::StatusCode::kInvalid,
                        "the script is " + std::to_string(script.size()) +
                            " bytes; a share link holds at most 16 KB");
  }
  return "s=" + Base64Url(DeflateRawStored(script));
}

base::StatusOr<std::string> ShareUrl(const std::string& page, const std::string& script) {
  base::StatusOr<std::string> fragment = ShareFragment(script);
  if (!fragment.ok()) return fragment.status();
  return page + "#" + *fragment;
}

}  // namespace explore
