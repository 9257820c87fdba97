#!/usr/bin/env bash
# Configures build/web (Emscripten 3.1.6, Release -O2, wasm exceptions for yaml-cpp only, Dear
# ImGui from .deps); the browser page (scripts/build_web.sh) and the Node CLI
# (scripts/build_wasm_cli.sh) both build there. -O2 rather than -Os and wasm exceptions rather
# than JavaScript ones: with both, the simulation runs ~1.7x native CPU under Node instead of
# ~5-17x, and the page stays under its 1.5 MB gzip budget; the core without exceptions, another
# ~13 % (docs/performance.md, "What each mechanism buys").
# A build/web configured earlier with other flags is reconfigured (and so fully rebuilt).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export NODE_PATH=/usr/share/nodejs   # Debian's emscripten needs node-acorn from here
flags="-O2 -DNDEBUG"
# Under CI=true, unity builds (CMakeLists.txt, RLAB_UNITY), as scripts/configure_native.sh.
if [ "${CI:-}" = true ]; then unity=ON; else unity=OFF; fi
# The Node CLI's link level (cli/CMakeLists.txt): -O2 unless RLAB_WASM_CLI_LINK_OPT says otherwise
# (scripts/test.sh: -O1). Changing it relinks the CLI only.
cli_link="${RLAB_WASM_CLI_LINK_OPT:--O2}"
if [ ! -f build/web/build.ninja ] ||
   ! grep -qxF "CMAKE_CXX_FLAGS_RELEASE:STRING=$flags" build/web/CMakeCache.txt ||
   ! grep -qxF "RLAB_WASM_EH:STRING=wasm" build/web/CMakeCache.txt ||
   ! grep -qxF "RLAB_WASM_CORE_EXCEPTIONS:BOOL=OFF" build/web/CMakeCache.txt ||
   ! grep -qxF "RLAB_UNITY:BOOL=$unity" build/web/CMakeCache.txt ||
   ! grep -qxF "RLAB_NO_PCH:BOOL=OFF" build/web/CMakeCache.txt ||
   ! grep -qxF "RLAB_WASM_CLI_LINK_OPT:STRING=$cli_link" build/web/CMakeCache.txt; then
  emcmake cmake -S . -B build/web -G Ninja -DCMAKE_BUILD_TYPE=Release -DRLAB_BUILD_WEB=ON \
    -DRLAB_WERROR=OFF -DRLAB_NO_PCH=OFF "-DCMAKE_CXX_FLAGS_RELEASE=$flags" -DRLAB_WASM_EH=wasm \
    -DRLAB_WASM_CORE_EXCEPTIONS=OFF "-DRLAB_UNITY=$unity" "-DRLAB_WASM_CLI_LINK_OPT=$cli_link" \
    "$@" >/dev/null
fi
