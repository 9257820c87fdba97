#pragma once
// ToYaml prints a JSON document the way `kubectl get -o yaml` does, and ResolvePlainScalar types an
// unquoted YAML scalar the way kubectl's decoder does. Both follow go-yaml v2, which
// sigs.k8s.io/yaml uses in both directions, so what we print reads back as the same document.
// Mirrors: sigs.k8s.io/yaml JSONToYAML over go-yaml v2 (encode.go stringv/floatv, emitterc.go
// scalar analysis and writers, resolve.go, sorter.go keyList.Less).
// Simplified: no anchors, tags or flow style beyond `{}`/`[]`. Where go-yaml's output would not
// read back through yaml-cpp we differ, always towards more quoting: strings holding
// U+0085/U+2028/U+2029 are double-quoted, U+0085 is escaped as \x85 (not \N), and a key "<<" is
// quoted so it is not taken for a merge key.
// Single-threaded; no time.

#include <string>

#include "core/api/object.h"

namespace api {

// ToYaml renders doc in kubectl's YAML style: 2-space indent, list items not indented under their
// key (`containers:\n- image: x`), keys in go-yaml's natural order, strings quoted only when
// needed ('single' for special characters, "double" when the text would read back as another
// type), multi-line strings as `|`/`|-` block scalars, long lines folded at 80 columns.
// The result always ends with a newline.
std::string ToYaml(const Json& doc);

// YamlTag is the type go-yaml v2 resolves an untagged plain scalar to.
enum class YamlTag { kStr, kNull, kBool, kInt, kFloat, kTimestamp };

// ResolvedScalar is the outcome of ResolvePlainScalar. value holds null, a bool, an int64 (or
// uint64 above INT64_MAX), a double (±inf/NaN for `.inf`/`.nan`) or, for kStr and kTimestamp,
// the text unchanged (timestamps stay strings when decoding into JSON, as in kubectl).
struct ResolvedScalar {
  YamlTag tag = YamlTag::kStr;
  Json value;
};

// ResolvePlainScalar types an unquoted scalar with YAML 1.1 rules as go-yaml v2 does:
// `true/yes/on/y` are booleans, `~`/`null`/empty are null, `0x1F`/`0o17`/`017`/`1_000` are ints,
// `1.5`/`1e3`/`.5` are floats, `2024-01-02` is a timestamp; everything else is a string.
// mirrors go-yaml v2 resolve.go resolve
ResolvedScalar ResolvePlainScalar(const std::string& plain);

// FormatGoFloat mirrors strconv.FormatFloat(v, 'g', -1, bits) with go-yaml's `.inf`/`.nan`
// spellings: the shortest text that reads back as v ("0.5", "1.5e+06", "1e-07").
// REQUIRES: bits is 32 or 64.
std::string FormatGoFloat(double v, int bits);

// IsValidUtf8 reports whether s is well-formed UTF-8 (no overlong forms, no surrogates). Both the
// YAML decoder and the emitter check it, because nlohmann's dump() rejects anything else.
bool IsValidUtf8(const std::string& s);

}  // namespace api
