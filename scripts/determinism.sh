#!/usr/bin/env bash
# Runs every *.lab script under tests/scripts/ and examples/ with the native CLI and with the
# WebAssembly CLI under Node, and requires identical stdout, exit status and trace file (byte for
# byte), for `rlab bench rayclusters 30` both sides ready with the same trace hash (the
# WebAssembly side must allocate through the slab heap), for `rlab sweep --seeds 8` the same
# seed lines, and for `rlab js-sweep` (the JavaScript engine's Math, formatting, JSON, sort and
# runaway budgets: core/js/README.md) the same output. Outputs are kept in build/determinism/
# for inspection. Exit 1 on any difference.
#   RLAB_NATIVE  native binary   (default build/native/bin/rlab)
#   RLAB_WASM_JS wasm CLI        (default build/wasm-cli/rlab.js)
#   RLAB_DET_TIMEOUT seconds per run (default 300)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

NATIVE="${RLAB_NATIVE:-build/native/bin/rlab}"
WASM_JS="${RLAB_WASM_JS:-build/wasm-cli/rlab.js}"
TIMEOUT="${RLAB_DET_TIMEOUT:-300}"
OUT=build/determinism

for f in "$NATIVE" "$WASM_JS"; do
  [ -f "$f" ] || { echo "determinism.sh: $f missing (run scripts/build_native.sh and scripts/build_wasm_cli.sh)" >&2; exit 2; }
done

mapfile -t scripts < <(find tests/scripts examples -name '*.lab' -type f 2>/dev/null | LC_ALL=C sort)
rm -rf "$OUT" && mkdir -p "$OUT"

# check_one SCRIPT: runs SCRIPT with both CLIs and writes "ok" or "FAIL: why" (and the first
# differing lines) to its .result file.
check_one() {
  local s="$1" key rc_n rc_w
  key="$OUT/$(printf '%s' "${s%.lab}" | tr '/' '_')"
  timeout "$TIMEOUT" "$NATIVE" --trace "$key.native.trace" "$s" >"$key.native.out" 2>"$key.native.err"
  rc_n=$?
  timeout "$TIMEOUT" node --no-experimental-fetch "$WASM_JS" --trace "$key.wasm.trace" "$s" \
    >"$key.wasm.out" 2>"$key.wasm.err"
  rc_w=$?
  local why=()
  [ "$rc_n" -eq "$rc_w" ] || why+=("exit $rc_n vs $rc_w")
  cmp -s "$key.native.out" "$key.wasm.out" || why+=("stdout differs")
  if [ -f "$key.native.trace" ] || [ -f "$key.wasm.trace" ]; then
    if [ ! -f "$key.native.trace" ] || [ ! -f "$key.wasm.trace" ]; then
      why+=("trace written by one side only")
    elif ! cmp -s "$key.native.trace" "$key.wasm.trace"; then
      why+=("trace differs ($(cmp "$key.native.trace" "$key.wasm.trace" 2>&1 | head -1 | sed 's/.*: //'))")
    fi
  fi
  if [ "$rc_n" -eq 124 ] || [ "$rc_w" -eq 124 ]; then why+=("timed out"); fi
  if [ "${#why[@]}" -eq 0 ]; then
    printf 'ok    %s (exit %d)\n' "$s" "$rc_n" >"$key.result"
  else
    {
      printf 'FAIL  %s: %s\n' "$s" "$(IFS=';'; echo "${why[*]}" | sed 's/;/; /g')"
      if ! cmp -s "$key.native.out" "$key.wasm.out"; then
        diff "$key.native.out" "$key.wasm.out" | head -10 | sed 's/^/      /'
      fi
    } >"$key.result"
  fi
}

# One script per core at a time (RLAB_DET_JOBS overrides); results print in script order.
jobs="${RLAB_DET_JOBS:-$(nproc)}"
for s in "${scripts[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  check_one "$s" &
done
wait
passed=0 failed=0
for s in "${scripts[@]}"; do
  result="$OUT/$(printf '%s' "${s%.lab}" | tr '/' '_').result"
  if grep -qs '^ok ' "$result"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  cat "$result" 2>/dev/null || printf 'FAIL  %s: no result\n' "$s"
done
BENCH_N=30
# Both sides at once: each is one process on its own core.
timeout "$TIMEOUT" "$NATIVE" bench rayclusters "$BENCH_N" >"$OUT/bench.native" 2>&1 &
timeout "$TIMEOUT" node --no-experimental-fetch "$WASM_JS" bench rayclusters "$BENCH_N" \
  >"$OUT/bench.wasm" 2>&1 &
wait
bench_n=$(cat "$OUT/bench.native")
bench_w=$(cat "$OUT/bench.wasm")
hash_of() { grep -o '"trace_hash":"[0-9a-f]*"' <<<"$1"; }
why=()
grep -q '"ok":true' <<<"$bench_n" || why+=("native run not ready: ${bench_n:0:200}")
grep -q '"ok":true' <<<"$bench_w" || why+=("Node run not ready: ${bench_w:0:200}")
[ -n "$(hash_of "$bench_n")" ] && [ "$(hash_of "$bench_n")" = "$(hash_of "$bench_w")" ] ||
  why+=("trace hash $(hash_of "$bench_n") vs $(hash_of "$bench_w")")
allocator_w=$(grep -o '"allocator":"[^"]*"' <<<"$bench_w")
[ "$allocator_w" = '"allocator":"dlmalloc+slabs"' ] ||
  why+=("the WebAssembly build's operator new is not the slab heap ($allocator_w)")
if [ "${#why[@]}" -eq 0 ]; then
  passed=$((passed + 1))
  printf 'ok    bench rayclusters %s (ready; %s, slab heap under Node)\n' "$BENCH_N" \
    "$(hash_of "$bench_n")"
else
  failed=$((failed + 1))
  printf 'FAIL  bench rayclusters %s: %s\n' "$BENCH_N" \
    "$(IFS=';'; echo "${why[*]}" | sed 's/;/; /g')"
fi
# The invariant sweep: a seed must be the same random scenario, run the same way, on both sides
# (the seed lines carry each run's trace hash; the summary line's wall time is left out).
SWEEP_SEEDS=8
timeout "$TIMEOUT" "$NATIVE" sweep --seeds "$SWEEP_SEEDS" >"$OUT/sweep.native" 2>&1 &
timeout "$TIMEOUT" node --no-experimental-fetch "$WASM_JS" sweep --seeds "$SWEEP_SEEDS" \
  >"$OUT/sweep.wasm" 2>&1 &
wait
sweep_n=$(grep '^seed ' "$OUT/sweep.native")
sweep_w=$(grep '^seed ' "$OUT/sweep.wasm")
if [ "$(grep -c ': ok ' <<<"$sweep_n")" -eq "$SWEEP_SEEDS" ] && [ "$sweep_n" = "$sweep_w" ]; then
  passed=$((passed + 1))
  printf 'ok    sweep --seeds %s (the same scenarios and trace hashes)\n' "$SWEEP_SEEDS"
else
  failed=$((failed + 1))
  printf 'FAIL  sweep --seeds %s: the seed lines differ (or a seed failed)\n' "$SWEEP_SEEDS"
  diff <(echo "$sweep_n") <(echo "$sweep_w") | head -6 | sed 's/^/      /'
fi
# The embedded JavaScript engine: the same bits from Math, the same formatting, and each runaway
# program stopped with the same error at the same step on both sides.
timeout "$TIMEOUT" "$NATIVE" js-sweep >"$OUT/js-sweep.native" 2>&1 &
timeout "$TIMEOUT" node --no-experimental-fetch "$WASM_JS" js-sweep >"$OUT/js-sweep.wasm" 2>&1 &
wait
if [ -s "$OUT/js-sweep.native" ] && cmp -s "$OUT/js-sweep.native" "$OUT/js-sweep.wasm" &&
   ! grep -q '^sweep[A-Za-z]*: [^o]' "$OUT/js-sweep.native"; then
  passed=$((passed + 1))
  printf 'ok    js-sweep (%s lines, byte for byte)\n' "$(wc -l <"$OUT/js-sweep.native")"
else
  failed=$((failed + 1))
  printf 'FAIL  js-sweep: the outputs differ (or a part failed)\n'
  diff "$OUT/js-sweep.native" "$OUT/js-sweep.wasm" | cut -c1-200 | head -8 | sed 's/^/      /'
fi
[ "${#scripts[@]}" -gt 0 ] || echo "determinism.sh: no .lab scripts under tests/scripts/ or examples/"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
