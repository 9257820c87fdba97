#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS seconds each (default 10), after replaying the saved
# regressions (fuzz/regressions/<target>/*) once. Seeds are generated from the repository's lab
# scripts, manifests and fuzz/seeds/ into build/fuzz/seeds/<target>; runs of 60 s or more grow
# build/fuzz/corpus/<target> across runs, shorter ones start from the seeds alone;
# crashes land in build/fuzz/artifacts/<target>/. Uses the sanitizer build in build/asan and builds
# the fuzz targets there only when one is missing. Prints executions per target; exit status is
# non-zero if a regression or a fuzz run failed. Runs from any directory.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     e.g. scripts/fuzz.sh 120 manifest
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SECS="${1:-10}"
shift || true
TARGETS=("$@")
# The console target first: replaying its seed scripts alone takes longer than its seconds.
[ "${#TARGETS[@]}" -gt 0 ] || TARGETS=(console module manifest patch selector script)
BIN=build/asan/bin
OUT=build/fuzz

missing=()
for t in "${TARGETS[@]}"; do [ -x "$BIN/fuzz_$t" ] || missing+=("fuzz_$t"); done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "building ${missing[*]} in build/asan"
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  RLAB_ASAN_TARGETS="${missing[*]}" scripts/build_asan.sh "${launcher[@]}"
fi

# Seeds are rebuilt each run. Long runs (>= 60 s) keep what they learn in $OUT/corpus; short
# runs (scripts/test.sh) start from the seeds alone, so their start-up stays a few seconds.
rm -rf "$OUT/seeds" "$OUT/short"
python3 fuzz/make_corpus.py . "$OUT/seeds"

# LeakSanitizer does not work under ptrace (some sandboxes); probe once, as scripts/test.sh does.
leaks=1
mkdir -p "$OUT"
printf 'int main() { return 0; }\n' > "$OUT/lsan_probe.cc"
if ! { clang++ -fsanitize=address "$OUT/lsan_probe.cc" -o "$OUT/lsan_probe" &&
       ASAN_OPTIONS=detect_leaks=1 "$OUT/lsan_probe"; } >/dev/null 2>&1; then
  leaks=0
  echo "note: LeakSanitizer unavailable here; fuzzing with detect_leaks=0"
fi
export ASAN_OPTIONS="detect_leaks=$leaks"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

# fuzz_one TARGET: replays the target's saved crashes, then fuzzes it for SECS seconds; writes
# its summary line to $OUT/TARGET.summary and exits non-zero on a failure.
fuzz_one() {
  local t="$1" exe="$BIN/fuzz_$1" log="$OUT/$1.log"
  mkdir -p "$OUT/artifacts/$t"
  # 1. Replay every saved crash: each must now run clean.
  local regs=(fuzz/regressions/"$t"/*)
  if [ -e "${regs[0]}" ]; then
    if ! "$exe" -detect_leaks="$leaks" "${regs[@]}" >"$OUT/$t.regressions.log" 2>&1; then
      echo "FAILED: a saved regression of $t crashes again; see $OUT/$t.regressions.log"
      tail -30 "$OUT/$t.regressions.log"
      printf '%-9s regressions FAILED\n' "$t" >"$OUT/$t.summary"
      return 1
    fi
  fi
  # 2. Fuzz for SECS seconds. A slow input (>10 s) or more than 2 GB counts as a failure.
  local dict=() rc=0 corpus_dir
  [ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict")
  if [ "$SECS" -ge 60 ]; then corpus_dir="$OUT/corpus/$t"; else corpus_dir="$OUT/short/$t"; fi
  mkdir -p "$corpus_dir"
  "$exe" "$corpus_dir" "$OUT/seeds/$t" "${dict[@]}" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
    -max_len=16384 -detect_leaks="$leaks" -print_final_stats=1 \
    -artifact_prefix="$OUT/artifacts/$t/" >"$log" 2>&1 || rc=$?
  local execs corpus
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  corpus=$(find "$corpus_dir" "$OUT/seeds/$t" -type f | wc -l)
  if [ "$rc" -ne 0 ]; then
    echo "FAILED: fuzz_$t (exit $rc); input in $OUT/artifacts/$t/, log $log"
    grep -m1 -A25 -E 'ERROR: |FUZZ_CHECK|runtime error' "$log" || tail -30 "$log"
    printf '%-9s FAILED after %s execs (%ss), corpus %s\n' "$t" "${execs:-?}" "$SECS" "$corpus" \
      >"$OUT/$t.summary"
    return 1
  fi
  printf '%-9s ok  %9s execs in %ss, corpus %s\n' "$t" "${execs:-?}" "$SECS" "$corpus" >"$OUT/$t.summary"
}

# One fuzzer per core at a time (RLAB_FUZZ_JOBS overrides): each still gets its SECS seconds.
jobs="${RLAB_FUZZ_JOBS:-$(nproc)}"
for t in "${TARGETS[@]}"; do
  rm -f "$OUT/$t.summary"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_one "$t" &
done
wait
failed=0
for t in "${TARGETS[@]}"; do grep -qs ' ok ' "$OUT/$t.summary" || failed=1; done

printf '\nfuzz summary (%ss per target)\n' "$SECS"
for t in "${TARGETS[@]}"; do printf '  %s' "$(cat "$OUT/$t.summary" 2>/dev/null || echo "$t no summary")"; echo; done
exit "$failed"
