#!/usr/bin/env bash
# Configures the native build (the system's c++, RelWithDebInfo; clang -O1 -g0 under CI=true) in
# build/native, the one
# configuration scripts/build_native.sh, bench.sh, sweep.sh and heap_census.sh all build in.
# ccache is the compiler launcher only when it is installed (the set-up script does not install
# it, so a fresh machine has none). Extra arguments go to CMake (e.g. -DRLAB_BUILD_BENCH=OFF).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# CI=true selects the configuration CI's other builds share (scripts/test.sh itself builds no
# optimized native code: the sanitizer build's rlab is its native side; docs/development.md, "CI
# and its time budget"). scripts/bench.sh builds it with RLAB_NATIVE_OPT=-O2, the level every
# native figure is measured at; its default is -O1 (about a fifth less compile time, for local
# runs of scripts rather than figures). It is clang's, without debug info (-g0): about a fifth
# less time for a cold build than g++ -g1 (QuickJS alone compiles in less than half g++'s time).
# It compiles unity builds (CMakeLists.txt, RLAB_UNITY), which is how a file-local name that
# collides with another file's in the same batch shows up before CI's sanitizer build finds it,
# and no GoogleTest binaries (RLAB_TEST_BINARIES=OFF: the CLI, its ctest entries and the
# benchmarks). The test binaries' own code compiles at -O0 (tests/CMakeLists.txt). Developers
# keep their c++ (g++ on Debian), RelWithDebInfo's full -g and every test binary; the project
# builds with -Werror under both.
compilers=()
opt=-O2
if [ "${CI:-}" = true ]; then
  opt="${RLAB_NATIVE_OPT:--O1}"
  debug=-g0; unity=ON; test_flags="-O0 -g0"; test_binaries=OFF
  compilers=(-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang)
else
  debug=-g; unity=OFF; test_flags=-O0; test_binaries=ON
fi
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$opt $debug -DNDEBUG" "-DRLAB_UNITY=$unity" "-DRLAB_TEST_CXX_FLAGS=$test_flags" \
  "-DRLAB_TEST_BINARIES=$test_binaries" "${compilers[@]}" "${launcher[@]}" "$@" \
  >/dev/null
