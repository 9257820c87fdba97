#pragma once
// FUZZ_CHECK: an invariant of a fuzz target. On failure it prints what broke and the values
// involved, then aborts, so libFuzzer saves the input as a crash (crash-<sha1>) to minimise.
// Test-only helper: fuzz/ is not part of the core and may abort; the core never does.

#include <cstdio>
#include <cstdlib>
#include <string>

#define FUZZ_CHECK(cond, detail)                                                   \
  do {                                                                             \
    if (!(cond)) {                                                                 \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n%s\n", __FILE__,       \
                   __LINE__, #cond, std::string(detail).c_str());                  \
      std::abort();                                                                \
    }                                                                              \
  } while (0)
