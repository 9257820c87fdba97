#!/usr/bin/env bash
# Plays every lesson listed in lessons/index.json with `rlab lesson check -v --mutate` (the
# reference solution, its checks and proofs, then every step again without its solution), natively
# and with the WebAssembly CLI under Node, and requires both to pass with identical output (byte
# for byte), then checks the questions' fairness over all lessons. Outputs are kept in
# build/lessons/. Exit 1 on any miss.
#   RLAB_NATIVE  native binary   (default build/native/bin/rlab)
#   RLAB_WASM_JS wasm CLI        (default build/wasm-cli/rlab.js; RLAB_SKIP_WASM=1 skips Node)
#   RLAB_LESSON_TIMEOUT seconds per run (default 300)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

NATIVE="${RLAB_NATIVE:-build/native/bin/rlab}"
WASM_JS="${RLAB_WASM_JS:-build/wasm-cli/rlab.js}"
TIMEOUT="${RLAB_LESSON_TIMEOUT:-300}"
SKIP_WASM="${RLAB_SKIP_WASM:-0}"
OUT=build/lessons

[ -f "$NATIVE" ] || { echo "lessons_check.sh: $NATIVE missing (run scripts/build_native.sh)" >&2; exit 2; }
if [ "$SKIP_WASM" != 1 ] && [ ! -f "$WASM_JS" ]; then
  echo "lessons_check.sh: $WASM_JS missing (run scripts/build_wasm_cli.sh, or RLAB_SKIP_WASM=1)" >&2
  exit 2
fi

mapfile -t lessons < <(python3 -c 'import json; print("\n".join(json.load(open("lessons/index.json"))["lessons"]))')
[ "${#lessons[@]}" -gt 0 ] || { echo "lessons_check.sh: lessons/index.json lists no lessons" >&2; exit 2; }
rm -rf "$OUT" && mkdir -p "$OUT"

passed=0 failed=0
for l in "${lessons[@]}"; do
  key="$OUT/$l"
  timeout "$TIMEOUT" "$NATIVE" lesson check -v --mutate "lessons/$l" >"$key.native.out" 2>"$key.native.err"
  rc_n=$?
  why=()
  [ "$rc_n" -eq 0 ] || why+=("native exit $rc_n: $(head -1 "$key.native.err")")
  if [ "$SKIP_WASM" != 1 ]; then
    timeout "$TIMEOUT" node --no-experimental-fetch "$WASM_JS" lesson check -v --mutate "lessons/$l" \
      >"$key.wasm.out" 2>"$key.wasm.err"
    rc_w=$?
    [ "$rc_w" -eq 0 ] || why+=("node exit $rc_w: $(head -1 "$key.wasm.err")")
    cmp -s "$key.native.out" "$key.wasm.out" || why+=("native and node output differ")
  fi
  if [ "${#why[@]}" -eq 0 ]; then
    passed=$((passed + 1))
    printf 'ok    %s\n' "$l"
  else
    failed=$((failed + 1))
    printf 'FAIL  %s: %s\n' "$l" "$(IFS=';'; echo "${why[*]}" | sed 's/;/; /g')"
  fi
done
if "$NATIVE" lesson fairness lessons >"$OUT/fairness.out" 2>&1; then
  printf 'ok    fairness (%s)\n' "$(head -1 "$OUT/fairness.out")"
else
  failed=$((failed + 1))
  printf 'FAIL  fairness: %s\n' "$(grep unfair "$OUT/fairness.out" | head -3 | tr '\n' ';')"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
