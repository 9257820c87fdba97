#pragma once
// How Go renders text in the API server's messages, for messages that must read as the real ones.
// Mirrors: Go's strconv.Quote (%q) for ASCII text, and apimachinery
// pkg/util/validation/field/errors.go (how field.Error prints a bad value).
// Simplified: bytes of 0x80 and above are kept as they are (valid UTF-8 prints the same in Go).
// No state.

#include <string>
#include <string_view>

#include "core/api/object.h"

namespace api {

// GoQuote renders s in double quotes with Go's escapes (\", \\, \n, \t, \r, \a, \b, \f, \v,
// \xNN for other control bytes).
std::string GoQuote(std::string_view s);

// FieldValueText is a field.Error's bad value: a string quoted, anything else as compact JSON.
std::string FieldValueText(const Json& v);

}  // namespace api
