#!/usr/bin/env bash
# The browser sandbox into build/web/dist/ (emcc 3.1.6 from Debian, Dear ImGui from Debian's
# source package, GLFW from Emscripten, WebGL2): index.html, rlab-shell.js, rlab.js, rlab.wasm,
# the engine build rlab-js.js and rlab-js.wasm (loaded only when the session needs JavaScript),
# embed.js, examples/, operators/, and size-report.txt (raw + gzip of what the page loads at
# start, and of the engine build; the build fails when the start's gzip total is over 1.5 MB).
# Needs scripts/setup.sh first (.deps/src/{imgui,yaml-cpp}, .deps/include/nlohmann).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten needs node-acorn from here
scripts/configure_web.sh "$@"
cmake --build build/web --target rlab_web rlab_web_js -j2
[ -f build/web/dist/index.html ] && [ -f build/web/dist/rlab.wasm ] && [ -f build/web/dist/rlab-js.wasm ] || {
  echo "build_web.sh: build/web/dist is incomplete" >&2; exit 1; }
