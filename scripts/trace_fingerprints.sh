#!/usr/bin/env bash
# trace_fingerprints.sh RLAB OUT: one line per lab script, lesson and scale scenario with a
# fingerprint of what RLAB printed and traced, so two builds (a refactoring's start and end) can be
# compared with `diff`: every *.lab under tests/scripts/ and examples/ (exit status, stdout, the
# --trace file, the trace hash rlab prints), every lesson's `lesson check --mutate` output, the
# scale scenarios' trace hashes, and `rlab explore examples/race_stale_cache.lab`'s report.
# The budget scripts are fingerprinted by their printed trace hash only (their trace files hold
# millions of records). Not part of scripts/test.sh.
#   scripts/trace_fingerprints.sh /tmp/rlab.before before.txt
#   scripts/trace_fingerprints.sh build/native/bin/rlab after.txt && diff before.txt after.txt
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ $# -eq 2 ] || { echo "usage: scripts/trace_fingerprints.sh RLAB OUT" >&2; exit 2; }
RLAB=$(realpath "$1")
OUT=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fingerprint() { sha256sum <"$1" | cut -c1-16; }
: >"$OUT"
mapfile -t scripts < <(find tests/scripts examples -name '*.lab' -type f | LC_ALL=C sort)
for s in "${scripts[@]}"; do
  case "$s" in */budget_*) trace=();; *) trace=(--trace "$tmp/trace");; esac
  : >"$tmp/trace"
  timeout 600 "$RLAB" "${trace[@]}" "$s" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  echo "$s rc=$rc out=$(fingerprint "$tmp/out") trace=$(fingerprint "$tmp/trace")" \
    "$(grep -o 'trace [0-9a-f]*' "$tmp/err" | tail -1)" >>"$OUT"
done
for lesson in lessons/*/; do
  [ -f "$lesson/lesson.json" ] || continue
  timeout 300 "$RLAB" lesson check --mutate "$lesson" >"$tmp/out" 2>&1
  echo "$lesson rc=$? out=$(fingerprint "$tmp/out")" >>"$OUT"
done
for scenario in "rayclusters 30" "deployment 200" "rewind 300" "rewind-checkpoints 600"; do
  # shellcheck disable=SC2086
  "$RLAB" bench $scenario >"$tmp/out" 2>&1
  echo "bench $scenario rc=$? $(grep -o '"trace_hash":"[^"]*"' "$tmp/out")" \
    "$(grep -o '"ready":[0-9]*' "$tmp/out")" >>"$OUT"
done
# The explorer's report without its wall-clock line.
"$RLAB" explore examples/race_stale_cache.lab 2>&1 | grep -v '(wall)' >"$tmp/out"
echo "explore race_stale_cache rc=${PIPESTATUS[0]} out=$(fingerprint "$tmp/out")" >>"$OUT"
echo "$(wc -l <"$OUT") fingerprints in $OUT"
