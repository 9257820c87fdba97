#!/usr/bin/env bash
# One command to see Reconcile Lab in a browser: set-up, the WebAssembly build into
# build/web/dist/ (scripts/build_web.sh), then serve that folder on http://127.0.0.1:$PORT/
# (PORT defaults to 8080), printing the URL. --no-serve stops after the build.
# The folder is static: any web server can host it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SERVE=1
for arg in "$@"; do
  case "$arg" in
    --no-serve) SERVE=0 ;;
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: scripts/run.sh [--no-serve]   (env PORT, default 8080)" >&2; exit 2 ;;
  esac
done
PORT="${PORT:-8080}"

scripts/setup.sh
scripts/build_web.sh
if [ "$SERVE" -eq 0 ]; then
  echo "built build/web/dist/ (not serving: --no-serve)"
  exit 0
fi
echo "Reconcile Lab: http://127.0.0.1:$PORT/  (serving build/web/dist/; Ctrl-C to stop)"
exec python3 -m http.server --bind 127.0.0.1 --directory build/web/dist "$PORT"
