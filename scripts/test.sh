#!/usr/bin/env bash
# Everything CI runs, in order, with a timing per phase:
#   setup, layer check, the ASan/UBSan build + ctest (every GoogleTest suite and every test of
#   the `rlab` CLI: lab scripts, lessons, bench smoke runs), the WebAssembly build (the Node CLI
#   and, in the same run, the page), native-vs-wasm determinism and every lesson checked natively
#   and under Node (the native side is the sanitizer build's `rlab`), and (when the scripts
#   exist) browser end-to-end tests and a short fuzz run. The core compiles twice, once with the
#   sanitizers and once for WebAssembly; the optimized native build (scripts/build_native.sh) is
#   for figures and developers (docs/development.md, "CI and its time budget"). A failed build
#   skips the phases that need it; the exit status is non-zero if any phase failed. Runs from any
#   directory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

declare -A STATUS=()
ORDER=()
T_START=$SECONDS

phase() {  # phase NAME COMMAND...: runs COMMAND, records ok/FAILED and the time it took
  local name="$1"; shift
  local t0=$SECONDS rc=0
  printf '\n=== %s\n' "$name"
  "$@" || rc=$?
  local dt=$((SECONDS - t0))
  ORDER+=("$name")
  if [ "$rc" -eq 0 ]; then STATUS[$name]="ok      ${dt}s"; else STATUS[$name]="FAILED  ${dt}s (exit $rc)"; fi
  printf '=== %s: %s\n' "$name" "${STATUS[$name]}"
  return 0
}
ok() { [[ "${STATUS[$1]:-}" == ok* ]]; }
skip() { ORDER+=("$1"); STATUS[$1]="skipped (needs $2)"; printf '\n=== %s: skipped (needs %s)\n' "$1" "$2"; }

# sanitized CMD...: runs CMD with the sanitizers' options. LeakSanitizer does not work everywhere
# (e.g. under ptrace); it is probed once and the run says so.
LEAKS=""
sanitized() {
  if [ -z "$LEAKS" ]; then
    local probe=build/asan/lsan_probe
    mkdir -p build/asan
    printf 'int main() { return 0; }\n' > build/asan/lsan_probe.cc
    LEAKS=1
    if ! { clang++ -fsanitize=address build/asan/lsan_probe.cc -o "$probe" &&
           ASAN_OPTIONS=detect_leaks=1 "$probe"; } >/dev/null 2>&1; then
      LEAKS=0
      echo "note: LeakSanitizer unavailable here; running with detect_leaks=0"
    fi
  fi
  ASAN_OPTIONS="detect_leaks=$LEAKS:abort_on_error=1" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" "$@"
}

phase setup scripts/setup.sh
if ! ok setup; then
  echo "setup failed; stopping"; exit 1
fi
phase check_layers python3 scripts/check_layers.py

phase build_asan scripts/build_asan.sh
if ok build_asan; then
  phase ctest_asan sanitized ctest --test-dir build/asan --output-on-failure -j2
else skip ctest_asan build_asan; fi

# The page's two builds are linked at -O2 (their size is a budget); the Node CLI at -O1 (cli/CMakeLists.txt).
phase build_wasm_cli env RLAB_WASM_WITH_PAGE=1 RLAB_WASM_CLI_LINK_OPT=-O1 scripts/build_wasm_cli.sh
export RLAB_NATIVE=build/asan/bin/rlab   # determinism.sh's and lessons_check.sh's native side
if ok build_asan && ok build_wasm_cli; then
  phase determinism sanitized scripts/determinism.sh
else skip determinism "build_asan and build_wasm_cli"; fi
if ok build_asan && ok build_wasm_cli; then
  phase lessons sanitized scripts/lessons_check.sh
else skip lessons "build_asan and build_wasm_cli"; fi

if [ -x scripts/browser_test.sh ]; then phase browser_test scripts/browser_test.sh; fi
if [ -x scripts/fuzz.sh ]; then phase fuzz scripts/fuzz.sh 10; fi

total=$((SECONDS - T_START))
budget="${RLAB_CI_BUDGET_S:-1200}"   # docs/development.md, "CI and its time budget"
printf '\n=== summary (%ss total)\n' "$total"
failed=0
for name in "${ORDER[@]}"; do
  printf '  %-16s %s\n' "$name" "${STATUS[$name]}"
  [[ "${STATUS[$name]}" != FAILED* ]] || failed=1
done
if [ "$total" -le "$budget" ]; then
  printf '  total %ss of the %ss budget (%s%%)\n' "$total" "$budget" "$((100 * total / budget))"
else
  printf '  total %ss: OVER the %ss budget by %ss (on a loaded machine this may be the load)\n' \
    "$total" "$budget" "$((total - budget))"
fi
exit "$failed"
