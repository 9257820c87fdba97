#!/usr/bin/env bash
# Where the heap goes: runs bench/heap_census.cc (a scale scenario on the C library's allocator)
# under valgrind's massif and prints the heap at its fullest grouped by the first project
# functions above each allocation. Figures only; not part of scripts/test.sh.
# Usage: scripts/heap_census.sh [SCENARIO [N [DEPTH]]]   (defaults: rayclusters 300 2; N=1000
#        takes about a minute). Needs valgrind (apt-get install valgrind). Output in build/census.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scenario=${1:-rayclusters}
n=${2:-300}
depth=${3:-2}
command -v valgrind >/dev/null || { echo "heap_census.sh: valgrind is not installed" >&2; exit 1; }
if [ ! -f build/native/build.ninja ]; then scripts/configure_native.sh; fi
cmake --build build/native --target heap_census
mkdir -p build/census
out="build/census/massif.$scenario.$n"
valgrind --tool=massif --depth=40 --threshold=0.2 --massif-out-file="$out" \
  build/native/bin/heap_census "$scenario" "$n"
git ls-files core cli | xargs -n1 basename | sort -u >build/census/project_files.txt
python3 - "$out" "$depth" build/census/project_files.txt <<'PY'
import collections, re, sys
path, depth, files = sys.argv[1], int(sys.argv[2]), sys.argv[3]
project = set(open(files).read().split())
# Allocation plumbing: the first project frames above it say who holds the memory.
plumbing = {"flat_object.h", "object.h", "trace_log.h", "key_set.h", "keyed_map.h",
            "string_index.h", "interned_key.h", "interned_key.cc", "key_pool.cc"}
lines = open(path).read().split("\n")
snapshots, heap = [], 0
for i, line in enumerate(lines):
    if line.startswith("mem_heap_B="):
        heap = int(line.split("=")[1])
    if line.startswith("heap_tree=") and line != "heap_tree=empty":
        snapshots.append((heap, i))
heap, at = max(snapshots)
print(f"heap at its fullest: {heap / 1e6:.1f} MB")
stack, leaves, i = [], [], at + 1
while i < len(lines) and lines[i].strip():
    m = re.match(r"(\s*)n(\d+): (\d+) (.*)", lines[i])
    i += 1
    if not m:
        break
    indent, children, size, desc = len(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)
    where = re.search(r"\(([^()]*):\d+\)$", desc)
    fn = re.sub(r"\s*\([^()]*:\d+\)$", "", re.sub(r"^0x[0-9A-F]+: ", "", desc))
    for _ in range(4):
        fn = re.sub(r"<[^<>]*>", "", fn)
    fn = re.sub(r"\(.*", "", fn)
    while stack and stack[-1][0] >= indent:
        stack.pop()
    stack.append((indent, fn, where.group(1) if where else ""))
    if children == 0:
        leaves.append((size, stack[1:]))
by_caller = collections.Counter()
for size, frames in leaves:
    ours = [fn for _, fn, f in frames if f in project and f not in plumbing]
    by_caller[" <- ".join(ours[:depth]) if ours else (frames[-1][1] if frames else "?")] += size
total = sum(by_caller.values())
for caller, size in by_caller.most_common(40):
    print(f"{size / 1e6:8.2f} MB {size / total * 100:5.1f} %  {caller[:200]}")
PY
