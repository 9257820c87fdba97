#!/usr/bin/env bash
# The rlab CLI as WebAssembly for Node (emcc 3.1.6 from Debian) into build/wasm-cli:
#   node --no-experimental-fetch build/wasm-cli/rlab.js [--seed N] [--trace FILE] SCRIPT
# Needs scripts/setup.sh first (.deps/src/yaml-cpp, .deps/include/nlohmann).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten needs node-acorn from here
emcmake cmake -S . -B build/wasm-cli -G Ninja -DCMAKE_BUILD_TYPE=Release -DRLAB_WERROR=OFF -DRLAB_NO_PCH=ON "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" "$@" >/dev/null
cmake --build build/wasm-cli
if [ ! -f build/wasm-cli/rlab.js ]; then
  echo "build_wasm_cli.sh: build/wasm-cli/rlab.js was not produced (is cli/main.cc there?)" >&2
  exit 1
fi
