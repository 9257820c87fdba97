#pragma once
// Flags: a kubectl-style command-line flag parser, so lab commands accept exactly the flag
// spellings (and print exactly the errors) that kubectl does.
// Mirrors: spf13/pflag flag.go (parseArgs, parseLongArg, parseSingleShortArg, FlagSet.Set) with
// interspersed flags and cobra's ArgsLenAtDash, as kubectl configures them.
// Simplified: five value types; ints are decimal only (Go's ParseInt base 0 also takes 0x, 0o,
// 0b and `_`); no `--help`, no flag-name normalization (kubectl maps `_` to `-` with a warning),
// no deprecation notices; `%q` quoting escapes control bytes only (non-ASCII bytes pass through).
// Single-threaded; no time.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/time.h"

namespace kubectl {

// FlagSpec declares one flag a command accepts.
struct FlagSpec {
  // Type decides how values are checked and how the typed getters read them.
  enum Type { kString, kBool, kInt, kDuration, kStringArray };

  // name is the long name, without dashes ("namespace").
  std::string name;
  // shorthand is the one-letter form ('n'), or 0 when there is none.
  char shorthand = 0;
  // type defaults to kString. A kBool flag takes no separate argument (`--wait`, `--wait=false`);
  // a kStringArray flag collects every occurrence.
  Type type = kString;
  // default_value is what Get returns when the flag is absent. Defaults to "" (the type's zero).
  std::string default_value;
};

// ParsedFlags is the result of ParseFlags. Intentionally copyable.
struct ParsedFlags {
  // positional holds the non-flag arguments in order (interspersed with flags or after `--`).
  std::vector<std::string> positional;
  // args_len_at_dash is how many positional arguments came before `--`, or -1 without one
  // (cobra's ArgsLenAtDash).
  int args_len_at_dash = -1;
  // values holds, per long name, every value the user gave, in order. Bool values are
  // normalized to "true"/"false" and int values to decimal; others are kept as typed.
  std::map<std::string, std::vector<std::string>> values;
  // specs holds the declared flags by long name.
  std::map<std::string, FlagSpec> specs;

  // Has reports whether the user set the flag (pflag's Changed). REQUIRES: name is declared.
  bool Has(const std::string& name) const;
  // Get returns the last value given, else the default. REQUIRES: name is declared.
  std::string Get(const std::string& name) const;
  // GetAll returns every value given; when none, the default as one element (none if the default
  // is empty), like pflag's StringArray. REQUIRES: name is declared.
  std::vector<std::string> GetAll(const std::string& name) const;
  // GetBool, GetInt and GetDuration read Get(name) as their type; an empty default reads as the
  // zero value. REQUIRES: name is declared with that type.
  bool GetBool(const std::string& name) const;
  int64_t GetInt(const std::string& name) const;
  base::Duration GetDuration(const std::string& name) const;

 private:
  const FlagSpec& Spec(const std::string& name) const;
};

// ParseFlags splits args into flags and positional arguments, as pflag does for kubectl:
// `--name=value`, `--name value`, `-n value`, `-nvalue`, `-n=value`, grouped bool shorthands
// (`-wA`), `--flag` / `--flag=false` for bools, a lone `-` is positional, `--` ends the flags.
// A non-bool flag takes the next argument even when it starts with '-' (`--times -1`).
// Errors carry kubectl's text, e.g. "error: unknown flag: --foo",
// "error: unknown shorthand flag: 'x' in -x", "error: flag needs an argument: --namespace",
// "error: invalid argument \"abc\" for \"--times\" flag: strconv.ParseInt: parsing \"abc\":
// invalid syntax". Code kBadRequest.
// REQUIRES: specs have distinct names and shorthands, and defaults valid for their types.
base::StatusOr<ParsedFlags> ParseFlags(const std::vector<std::string>& args,
                                       const std::vector<FlagSpec>& specs);

}  // namespace kubectl
