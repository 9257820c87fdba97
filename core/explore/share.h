#pragma once
// Share links: a lab script as the page's `#s=` fragment, base64url(deflate-raw(script)), the
// format web/static/rlab-shell.js decodes with DecompressionStream('deflate-raw').
// No Go counterpart (DESIGN.md "Embedding contract").
// Simplified: natively the deflate stream is written with stored (uncompressed) blocks — valid
// RFC 1951 that every inflater reads — so the link is longer than the page's own but opens the
// same script. Scripts over the page's 16 KB limit are refused.
// Single-threaded; no time.

#include <string>

#include "core/base/status.h"

namespace explore {

// kMaxShareScriptBytes is the page's limit on a shared script (MAX_SCRIPT_BYTES).
constexpr size_t kMaxShareScriptBytes = 16 * 1024;

// DeflateRawStored returns data as a raw deflate stream of stored blocks (RFC 1951 §3.2.4).
std::string DeflateRawStored(const std::string& data);
// Base64Url encodes without padding, '-' and '_' for '+' and '/' (as the page's b64url).
std::string Base64Url(const std::string& bytes);
// ShareFragment is "s=" + base64url(deflate-raw(script)); kInvalid when over 16 KB.
base::StatusOr<std::string> ShareFragment(const std::string& script);
// ShareUrl is page + "#" + ShareFragment(script), page e.g. "http://127.0.0.1:8080/".
base::StatusOr<std::string> ShareUrl(const std::string& page, const std::string& script);

}  // namespace explore
