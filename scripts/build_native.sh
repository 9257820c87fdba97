#!/usr/bin/env bash
# Native build (the system's c++, RelWithDebInfo; clang -O1 -g0 under CI=true) into build/native; the CLI lands in
# build/native/bin/rlab. The configuration is scripts/configure_native.sh's.
# Extra arguments are passed to the CMake configure step (e.g. -DRLAB_BUILD_BENCH=OFF).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/configure_native.sh "$@"
cmake --build build/native
