#!/usr/bin/env bash
# Configures the native build (the system's c++, RelWithDebInfo; clang -O1 -g0 under CI=true) in
# build/native, the one
# configuration scripts/build_native.sh, bench.sh, sweep.sh and heap_census.sh all build in.
# ccache is the compiler launcher only when it is installed (the set-up script does not install
# it, so a fresh machine has none). Extra arguments go to CMake (e.g. -DRLAB_BUILD_BENCH=OFF).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Under CI=true (scripts/test.sh in CI) the build is clang's, without debug info (-g0): at -O2,
# about a fifth less time for a cold build than g++ -g1 (QuickJS alone compiles in less
# than half g++'s time), and nothing in CI reads native debug info (the sanitizer build, whose
# reports do, keeps line tables). docs/development.md, "Build time". Developers keep their c++
# (g++ on Debian) and RelWithDebInfo's full -g; the project builds with -Werror under both.
# CI also compiles unity builds (CMakeLists.txt, RLAB_UNITY): fewer, larger translation units.
# The test binaries' own code compiles at -O0 (tests/CMakeLists.txt). CI builds the GoogleTest
# binaries once, in the ASan/UBSan build (scripts/build_asan.sh), and runs every suite there; this
# build keeps the `rlab` CLI, its ctest entries (lab scripts, lessons, bench smoke runs) and the
# benchmarks. Developers build both.
# CI's build is -O1 (about a fifth less compile time than -O2; its tests run scripts, not figures);
# scripts/bench.sh sets RLAB_NATIVE_OPT=-O2, the level every native figure is measured at.
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
