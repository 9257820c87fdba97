#!/usr/bin/env bash
# Native build (g++, RelWithDebInfo) into build/native; the CLI lands in build/native/bin/rlab.
# Extra arguments are passed to the CMake configure step (e.g. -DRLAB_BUILD_BENCH=OFF).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build build/native
