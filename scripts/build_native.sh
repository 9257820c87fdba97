#!/usr/bin/env bash
# Native build (g++, RelWithDebInfo; -g1 under CI=true) into build/native; the CLI lands in
# build/native/bin/rlab.
# Extra arguments are passed to the CMake configure step (e.g. -DRLAB_BUILD_BENCH=OFF).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Under CI=true (scripts/test.sh in CI) the debug info is line tables only (-g1): the code is the
# same -O2 code, backtraces keep file:line, and the cold build needs about a third less CPU
# (docs/performance.md, "Build and CI time"). Developers keep RelWithDebInfo's full -g.
if [ "${CI:-}" = true ]; then debug=-g1; else debug=-g; fi
cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 $debug -DNDEBUG" "$@" >/dev/null
cmake --build build/native
