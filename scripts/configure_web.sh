#!/usr/bin/env bash
# Configures build/web (Emscripten 3.1.6, Release -Os, Dear ImGui from .deps) once; the browser
# page (scripts/build_web.sh) and the Node CLI (scripts/build_wasm_cli.sh) both build there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten needs node-acorn from here
if [ ! -f build/web/build.ninja ]; then
  emcmake cmake -S . -B build/web -G Ninja -DCMAKE_BUILD_TYPE=Release -DRLAB_BUILD_WEB=ON \
    -DRLAB_WERROR=OFF -DRLAB_NO_PCH=ON "-DCMAKE_CXX_FLAGS_RELEASE=-Os -DNDEBUG" "$@" >/dev/null
fi
