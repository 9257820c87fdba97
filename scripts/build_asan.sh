#!/usr/bin/env bash
# Sanitizer build (clang, ASan+UBSan, Debug at -O1, -Werror) into build/asan: every test binary, the
# `rlab` CLI (scripts/test.sh's native side of determinism and lessons), the libFuzzer targets
# (fuzz/, -DRLAB_BUILD_FUZZ=ON; scripts/fuzz.sh runs them) and the Google Benchmark binaries
# (compiled, so CI sees them build; their figures come from scripts/bench.sh's native build).
# Extra arguments go to CMake configure; RLAB_ASAN_TARGETS="a b" builds only those targets
# (default: all).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Under CI=true, unity builds (CMakeLists.txt, RLAB_UNITY), as scripts/configure_native.sh.
if [ "${CI:-}" = true ]; then unity=ON; debug_info=-g1; else unity=OFF; debug_info=-g; fi
# -O1, as the sanitizers' own documentation advises: -O0 code under ASan runs a scheduler event
# about 60x slower than the native build, -O1 about 17x (docs/development.md, "Build time").
cmake -S . -B build/asan -G Ninja \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
  -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=$debug_info -O1" \
  -DRLAB_SANITIZE=ON -DRLAB_WERROR=ON \
  -DRLAB_BUILD_BENCH=ON -DRLAB_BUILD_FUZZ=ON "-DRLAB_UNITY=$unity" "$@" >/dev/null
# shellcheck disable=SC2086  # the target list is split on purpose
cmake --build build/asan -j2 ${RLAB_ASAN_TARGETS:+--target $RLAB_ASAN_TARGETS}
