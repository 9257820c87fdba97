#!/usr/bin/env bash
# Builds the rlab CLI to WebAssembly for Node (build/wasm-cli/rlab.js + rlab.wasm), the same
# runner as build/native/bin/rlab. It compiles in build/web, the Emscripten build the browser
# page uses, so the core is compiled for WebAssembly once for both (same flags, same objects).
# Run it with: node --no-experimental-fetch build/wasm-cli/rlab.js SCRIPT
# RLAB_WASM_WITH_PAGE=1 (scripts/test.sh) builds the page's two builds in the same run: their
# files compile while the CLI's last files and its link would leave a core idle.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten needs node-acorn from here (link step too)
scripts/configure_web.sh
targets=(rlab)
[ "${RLAB_WASM_WITH_PAGE:-}" != 1 ] || targets+=(rlab_web rlab_web_js)
cmake --build build/web --target "${targets[@]}" -j2
mkdir -p build/wasm-cli
for f in rlab.js rlab.wasm; do
  [ -f "build/web/$f" ] || { echo "build_wasm_cli.sh: build/web/$f was not produced" >&2; exit 1; }
  cp -f "build/web/$f" build/wasm-cli/
done
