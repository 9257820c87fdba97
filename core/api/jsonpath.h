#pragma once
// JSONPath templates as kubectl evaluates them (`kubectl get -o jsonpath=...`, `kubectl wait
// --for=jsonpath=...`): literal text with actions in braces — fields `{.metadata.name}`, indices
// and slices `[0]` `[-1]` `[1:3]` `[*]`, unions `[0,2]`, recursive descent `..name`, filters
// `[?(@.type=="Ready")]` (==, !=, <, >, <=, >=, or bare existence), `{range ...}...{end}` loops and
// quoted strings `{"\n"}`. Map keys containing dots are written `\.`-escaped
// (`.metadata.labels.app\.kubernetes\.io/name`) or in brackets (`['app.kubernetes.io/name']`).
// Mirrors: k8s.io/client-go util/jsonpath (parser.go, jsonpath.go) and the comparison functions of
// its forked text/template; output as kubectl's JSONPathPrinter writes it.
// Simplified:
//  - Teaching: `['a.b']` first looks for the literal key "a.b" and only then, as client-go does,
//    for the path .a.b (client-go always splits at the dots).
//  - Map iteration (`.*`, `..`) visits keys in sorted order, where Go's order is random.
//  - Wildcards and recursive descent do not walk into the bytes of strings.
//  - The `=~` regular-expression filter some forks add is not supported.
// Output: strings raw; numbers and booleans as Go prints them (1.0 prints as 1); null as <nil>;
// objects and arrays as compact JSON with sorted keys and Go's escaping; the results of one action
// are joined by a space.
// Single-threaded; no time. Never throws.

#include <string>

#include "core/api/object.h"
#include "core/base/status.h"

namespace api {

// EvaluateJsonPath parses template_text and executes it against data. Errors (messages without
// the "error: " kubectl prints in front):
//  - kBadRequest `error parsing jsonpath {.x, unclosed action` for a template that does not parse;
//  - kNotFound `error executing jsonpath "{.spec.foo}": foo is not found` when a field is missing
//    and allow_missing_keys is false (with it, missing fields just produce nothing);
//  - kInvalid `error executing jsonpath "...": <reason>` for other execution errors (index out of
//    range, filter on a non-list, incomparable types, `{end}` outside a range).
base::StatusOr<std::string> EvaluateJsonPath(const std::string& template_text, const Json& data,
                                             bool allow_missing_keys);

}  // namespace api
