#!/usr/bin/env bash
# Regenerates the README's pictures in docs/images/ from the page (build/web/dist, built first
# when needed) with tests/browser/readme_images.js: a deterministic run (seed 1, a RayCluster, a
# worker killed, the simulation stepped one event at a time) at fixed viewports, panels found by
# the page's own item rectangles, so the pictures follow the page's layout.
# RLAB_DIST=DIR uses another built dist folder (no build); RLAB_IMAGES=DIR writes elsewhere.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ -x /usr/bin/chromium ] || { echo "readme_images.sh: /usr/bin/chromium missing (run scripts/setup.sh)" >&2; exit 1; }
[ -n "${RLAB_DIST:-}" ] || scripts/build_web.sh >/dev/null
timeout 300 node tests/browser/readme_images.js
du -cb "${RLAB_IMAGES:-docs/images}"/*.png | tail -1
