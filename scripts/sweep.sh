#!/usr/bin/env bash
# Runs the invariant checker's seed sweep (issue 7): N random scenarios (default 200), every
# invariant of core/check checked after every scheduler step and after each run settles.
# Usage: scripts/sweep.sh [N] [--from S] [--steps M] [--keep-going]
# Failing seeds leave their replay scripts in build/sweep/sweep-seed-S.lab; replay one with
# `build/native/bin/rlab check build/sweep/sweep-seed-S.lab`. scripts/test.sh runs a bounded
# sweep through ctest (sweep_bounded); this is the long one.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seeds=200
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then seeds=$1; shift; fi
if [ ! -f build/native/build.ninja ]; then scripts/configure_native.sh; fi
cmake --build build/native --target rlab -j2
mkdir -p build/sweep
exec build/native/bin/rlab sweep --seeds "$seeds" --out build/sweep "$@"
