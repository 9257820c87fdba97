#!/usr/bin/env bash
# Sanitizer build (clang, ASan+UBSan, Debug, no benchmarks) into build/asan. The same folder is
# used for libFuzzer targets: pass -DRLAB_BUILD_FUZZ=ON (extra arguments go to CMake configure).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cmake -S . -B build/asan -G Ninja \
  -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=Debug \
  -DRLAB_SANITIZE=ON -DRLAB_WERROR=OFF \
  -DRLAB_BUILD_BENCH=OFF "$@" >/dev/null
cmake --build build/asan
