#!/usr/bin/env bash
# Counts the instructions of one scale scenario's measured phase (bench::ScaleRun::Measure, what
# `rlab bench` times) under valgrind's callgrind: the figure this shared machine's load does not
# move, where wall time swings by a quarter. The native runner as built (jemalloc and the slab
# heap included), so an allocator change counts too. Figures only; not part of scripts/test.sh.
# Usage: scripts/count_instructions.sh [SCENARIO [N]]   (default rayclusters 300: a few minutes)
# Environment: RLAB_BENCH_BASELINE=DIR counts DIR/build/native/bin/rlab too (built there
#              beforehand) and prints the ratio of the two counts.
# Output: one line per build (instructions, trace hash); callgrind's files in build/callgrind/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scenario=${1:-rayclusters}
n=${2:-300}
command -v valgrind >/dev/null || { echo "count_instructions.sh: valgrind is not installed" >&2; exit 1; }
if [ ! -f build/native/build.ninja ]; then scripts/configure_native.sh; fi
cmake --build build/native --target rlab
mkdir -p build/callgrind

# count LABEL RLAB: prints "LABEL: I instructions, trace hash H" and sets $counted to I.
count() {
  local label=$1 rlab=$2 out="build/callgrind/$1.$scenario.$n" line
  line=$(valgrind --tool=callgrind --callgrind-out-file="$out" \
    --toggle-collect='*ScaleRun::Measure*' "$rlab" bench "$scenario" "$n" 2>/dev/null)
  counted=$(awk '/^(summary|totals):/ {print $2; exit}' "$out")
  echo "$label: $(printf "%'d" "$counted") instructions, trace hash $(grep -o '"trace_hash":"[0-9a-f]*"' <<<"$line" | cut -d'"' -f4)"
}
count this build/native/bin/rlab
this=$counted
if [ -n "${RLAB_BENCH_BASELINE:-}" ]; then
  count baseline "$RLAB_BENCH_BASELINE/build/native/bin/rlab"
  awk -v a="$this" -v b="$counted" 'BEGIN { printf "ratio: %.4fx\n", a / b }'
fi
