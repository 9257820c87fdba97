#pragma once
// Go's encoding/json output, byte for byte: what kubectl prints for `-o jsonpath` objects and
// what controller-runtime's client sends as a patch body. Compact, object keys sorted (Go sorts
// map keys; objects here are maps, as unstructured.Unstructured holds them), HTML-safe escaping
// (<, >, & as \u003c, \u003e, \u0026), \b and \f short escapes (Go 1.22+), U+2028/U+2029 escaped,
// invalid UTF-8 as \ufffd, integers exact, floats as Go formats a float64.
// Mirrors: Go encoding/json encode.go (appendString, floatEncoder, mapEncoder).
// Pure functions; never throws.

#include <string>

#include "core/api/object.h"

namespace api {

// GoJsonMarshal is json.Marshal(v) for a decoded JSON value.
std::string GoJsonMarshal(const Json& v);

// GoJsonQuote appends s as a Go JSON string literal (quotes included) to out.
void GoJsonQuote(const std::string& s, std::string* out);

// GoFormatFloat renders v as Go does: json=false for fmt's %v (shortest %g, exponent from
// 1e+06), json=true for encoding/json (plain decimals between 1e-6 and 1e21, "e-7" not "e-07").
std::string GoFormatFloat(double v, bool json);

}  // namespace api
