#!/usr/bin/env python3
"""Size report of what the English page loads at start, raw and gzip (level 9).

Usage: size_report.py DIST_DIR [--budget BYTES]
Writes DIST_DIR/rlab.wasm.size and rlab-js.wasm.size (raw bytes, read by the loading bar) and
DIST_DIR/size-report.txt, prints the report, and exits 1 when the gzip total is over the budget
(default 1.5 MB). Fonts are compiled into rlab.wasm, so they are counted there. What the page
fetches only when needed (the engine build, the Chinese font, lesson bundles, starter operators)
is listed after the budget line, outside the total. The engine build replaces the start build's
rlab.js and rlab.wasm when it loads (web/src/engine.h), so its line is its own two files.
"""
import gzip
import os
import sys

START_FILES = ["index.html", "rlab-shell.js", "rlab.js", "rlab.wasm"]


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    dist = args[0]
    budget = int(1.5 * 1000 * 1000)
    if "--budget" in args:
        budget = int(args[args.index("--budget") + 1])
    for build in ("rlab", "rlab-js"):
        wasm = os.path.join(dist, build + ".wasm")
        if os.path.isfile(wasm):
            with open(wasm + ".size", "w") as f:
                f.write("%d\n" % os.path.getsize(wasm))
    lines = ["%-16s %12s %12s" % ("file", "raw bytes", "gzip -9")]
    raw_total = gz_total = 0
    for name in START_FILES:
        data = open(os.path.join(dist, name), "rb").read()
        gz = len(gzip.compress(data, 9))
        raw_total += len(data)
        gz_total += gz
        lines.append("%-16s %12d %12d" % (name, len(data), gz))
    lines.append("%-16s %12d %12d" % ("total", raw_total, gz_total))
    verdict = "within" if gz_total <= budget else "OVER"
    lines.append("budget %d bytes gzip: %s (%.0f%%)" % (budget, verdict, 100.0 * gz_total / budget))
    on_demand = [("engine build", [os.path.join(dist, "rlab-js.js"), os.path.join(dist, "rlab-js.wasm")]),
                 ("fonts/cjk-sc.otf", [os.path.join(dist, "fonts", "cjk-sc.otf")])]
    lessons_dir = os.path.join(dist, "lessons")
    if os.path.isdir(lessons_dir):
        on_demand.append(("lessons/ (all)", [os.path.join(lessons_dir, n)
                                             for n in sorted(os.listdir(lessons_dir))]))
    operators_dir = os.path.join(dist, "operators")
    if os.path.isdir(operators_dir):
        on_demand.append(("operators/ (all)", [os.path.join(operators_dir, n)
                                               for n in sorted(os.listdir(operators_dir))]))
    lines.append("loaded only when needed:")
    for label, paths in on_demand:
        paths = [p for p in paths if os.path.isfile(p)]
        if not paths:
            continue
        raw = sum(os.path.getsize(p) for p in paths)
        gz = sum(len(gzip.compress(open(p, "rb").read(), 9)) for p in paths)
        lines.append("%-16s %12d %12d" % (label, raw, gz))
    report = "\n".join(lines) + "\n"
    with open(os.path.join(dist, "size-report.txt"), "w") as f:
        f.write(report)
    sys.stdout.write(report)
    sys.exit(0 if gz_total <= budget else 1)


if __name__ == "__main__":
    main()
