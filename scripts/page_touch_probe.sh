#!/usr/bin/env bash
# What first-touching fresh memory costs on this machine, with and without huge pages: maps MB
# MiB, writes one byte per 4 KiB page, and prints the time, RUNS times each. On this VM the
# huge-page figure swings with how much free memory the host still backs (docs/performance.md,
# "The machine"). Figures only; not part of scripts/test.sh.
# Usage: scripts/page_touch_probe.sh [MB [RUNS]]   (defaults: 256 3). Needs cc.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mb=${1:-256}
runs=${2:-3}
mkdir -p build/probe
cat >build/probe/page_touch.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
int main(int argc, char** argv) {
  const size_t bytes = (size_t)atoi(argv[1]) << 20;
  const int huge = argc > 2;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  char* p = mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 1;
  madvise(p, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  for (size_t i = 0; i < bytes; i += 4096) p[i] = 1;
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("%s MiB, %s pages: %.1f ms\n", argv[1], huge ? "huge" : "4 KiB",
         (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);
  return 0;
}
C
cc -O2 -o build/probe/page_touch build/probe/page_touch.c
for _ in $(seq "$runs"); do
  build/probe/page_touch "$mb" huge
  build/probe/page_touch "$mb"
done
