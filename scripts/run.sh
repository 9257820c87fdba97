#!/usr/bin/env bash
# One command to see Reconcile Lab.
#   Web mode (once web/CMakeLists.txt exists): set-up, WebAssembly build into build/web, then serve
#   build/web/dist on http://127.0.0.1:$PORT/ (PORT defaults to 8080); --no-serve stops after the
#   build.
#   Until then: set-up, native build, and run examples/demo.lab with the native CLI, writing its
#   trace to build/demo-trace.jsonl.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SERVE=1
for arg in "$@"; do
  case "$arg" in
    --no-serve) SERVE=0 ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: scripts/run.sh [--no-serve]   (env PORT, default 8080)" >&2; exit 2 ;;
  esac
done
PORT="${PORT:-8080}"

scripts/setup.sh

if [ -f web/CMakeLists.txt ]; then
  export NODE_PATH=/usr/share/nodejs
  emcmake cmake -S . -B build/web -G Ninja -DCMAKE_BUILD_TYPE=Release -DRLAB_BUILD_WEB=ON >/dev/null
  cmake --build build/web
  [ -f build/web/dist/index.html ] || { echo "run.sh: build/web/dist/index.html was not produced" >&2; exit 1; }
  if [ "$SERVE" -eq 0 ]; then
    echo "built build/web/dist/ (not serving: --no-serve)"
    exit 0
  fi
  echo "serving build/web/dist/ at http://127.0.0.1:$PORT/  (Ctrl-C to stop)"
  exec python3 -m http.server --bind 127.0.0.1 --directory build/web/dist "$PORT"
fi

scripts/build_native.sh
if [ ! -f examples/demo.lab ]; then
  echo "run.sh: examples/demo.lab not found; built build/native/bin/rlab" >&2
  exit 1
fi
echo "--- build/native/bin/rlab --trace build/demo-trace.jsonl examples/demo.lab"
rc=0
build/native/bin/rlab --trace build/demo-trace.jsonl examples/demo.lab || rc=$?
echo "---"
echo "trace written to $PWD/build/demo-trace.jsonl (exit status $rc)"
echo "(the web app is not built yet: web/CMakeLists.txt is missing)"
exit "$rc"
