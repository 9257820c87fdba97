#!/usr/bin/env python3
"""Renders scripts/bench.sh's report (build/bench/report.json) as the Markdown tables of
docs/performance.md's "Current figures": the budgets with their verdicts, the 11,000-Pod
scenario, the Deployment sizes, the queue, API server and watch rates, the rewinds and the
bundle, and, for a run against a baseline (RLAB_BENCH_BASELINE), each interleaved scale figure
beside the baseline's. A figure the report lacks (a skipped platform, a quick run) prints as
"n/a".

Usage: scripts/bench_summary.py [REPORT]   (default build/bench/report.json; Markdown on stdout)
"""
import json
import sys

NA = "n/a"


def num(value, digits=0, unit=""):
    """A figure with thousands separators, or n/a when the report has none."""
    if value is None:
        return NA
    text = f"{value:,.{digits}f}"
    return f"{text} {unit}".rstrip()


def runs(values, digits=0):
    return NA if not values else " / ".join(num(v, digits) for v in values)


def verdict(met):
    return "not measured" if met is None else ("**met**" if met else "**NOT met**")


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def budgets(report):
    rows = [[b["what"], num(b["target"], unit=b["unit"]),
             num(b["measured"], 2 if b["unit"] == "x" or (b["unit"] == "ms wall" and (b["measured"] or 0) < 100) else 0,
                 b["unit"]),
             verdict(b["met"])]
            for b in report.get("budgets", [])]
    return table(["budget", "target", "measured", "verdict"], rows)


def memory(s):
    if s is None:
        return NA
    text = num(s.get("peak_rss_mb"), 0, "MB")
    if s.get("wasm_heap_mb") is not None:
        text += f" (wasm heap {num(s['wasm_heap_mb'], 0, 'MB')})"
    return text


def scale(report):
    rows = []
    for platform, s in (report.get("rayclusters_1000") or {}).items():
        if s is None:
            rows.append([platform] + [NA] * 7)
            continue
        rows.append([
            platform,
            num(s.get("wall_ms"), 0, "ms"),
            runs(s.get("wall_ms_runs") or ([s["wall_ms"]] if s.get("wall_ms") is not None else [])),
            runs(s.get("warmup_wall_ms_runs")),
            f"{num(s.get('user_ms'), 0)} / {num(s.get('sys_ms'), 0)} ms",
            memory(s),
            f"{num(s.get('api_writes'))} writes, {num(s.get('reconciles'))} reconciles, "
            f"{num(s.get('trace_events'))} trace records, {num(s.get('virtual_ms'), 0)} ms virtual",
            f"`{s.get('trace_hash', NA)}`",
        ])
    return table(["platform", "median wall", "measured runs (ms)", "warm-up (ms)",
                  "median run user / sys", "peak memory", "work", "trace hash"], rows)


def deployments(report):
    rows = []
    for n, by_platform in sorted((report.get("deployment") or {}).items(), key=lambda kv: int(kv[0])):
        native = by_platform.get("native") or {}
        node = by_platform.get("wasm-node") or {}
        either = native or node  # the same simulation on both platforms
        rows.append([
            num(int(n)), num(either.get("virtual_ms"), 0, "ms"), num(either.get("api_writes")),
            num(native.get("wall_ms"), 1, "ms"), memory(by_platform.get("native")),
            num(node.get("wall_ms"), 1, "ms"), memory(by_platform.get("wasm-node")),
        ])
    return table(["replicas", "virtual time to all Ready", "API writes", "native wall",
                  "native peak", "Node wall", "Node peak"], rows)


def rates(report):
    q = report.get("queue_ops_per_s") or {}
    rows = []
    for label, key in [("Add → Get → Done → Forget", "add_get_done_forget_per_s"),
                       ("coalesced Adds (10 per key)", "coalesced_adds_per_s"),
                       ("rate-limited retry through virtual time", "rate_limited_retry_per_s")]:
        rows.append([f"queue: {label}", num((q.get("classic") or {}).get(key), unit="/s"),
                     num((q.get("priority") or {}).get(key), unit="/s")])
    api = report.get("api_writes_per_s") or {}
    rows.append(["API server creates (10,000 ConfigMaps, 20 watchers)",
                 num(api.get("create"), unit="/s"), ""])
    rows.append(["API server merge patches (same)", num(api.get("merge_patch"), unit="/s"), ""])
    rows.append(["watch deliveries", num(report.get("watch_deliveries_per_s"), unit="/s"), ""])
    return table(["Google Benchmark (per CPU second)", "classic queue / figure", "priority queue"],
                 rows)


def rewind_heading(report):
    steps = [c.get("session_steps") for c in (report.get("rewind_through_checkpoints") or {}).values()
             if c]
    return f"Rewinds (a session of {num(steps[0]) if steps else NA} steps):"


def rewinds(report):
    rows = []
    replay = report.get("rewind_replay_10000_steps") or {}
    through = report.get("rewind_through_checkpoints") or {}
    for platform in ("native", "wasm-node"):
        r = replay.get(platform) or {}
        c = through.get(platform) or {}
        times = [c.get(k) for k in ("rewind_mean_ms", "rewind_median_ms", "rewind_worst_ms")]
        rows.append([
            platform, num(r.get("wall_ms"), 1, "ms"),
            NA if None in times else " / ".join(num(t, 2) for t in times) + " ms",
            num(c.get("rewinds")), num(c.get("most_replayed_steps")),
        ])
    return table(["platform", "replay 10,000 steps from the start",
                  "rewind through checkpoints: mean / median / worst", "rewinds probed",
                  "most steps replayed"], rows)


def bundle(report):
    b = report.get("bundle")
    if not b or b.get("start_gzip9_total") is None:
        return "Page bundle loaded at start: n/a (build/web/dist held no page when the report was written)."
    start_files = b.get("start_files", [])  # the files bench.sh summed into the total
    files = b.get("files", {})
    listed = ", ".join(f"{name} {num(files[name]['gzip9'])} B" for name in start_files
                       if name in files)
    others = ", ".join(f"{name} {num(v['gzip9'])} B" for name, v in files.items()
                       if name not in start_files)
    text = f"Page bundle loaded at start, gzip -9: **{num(b['start_gzip9_total'])} B** ({listed})."
    return text + (f" Also in the page's folder, loaded only when used: {others}." if others else "")


def ratio(value):
    return NA if value is None else f"{value:.3f}x"


def against_baseline(report):
    b = report.get("baseline")
    if not b:
        return None
    rows = []
    for c in b.get("comparison", []):
        same = c.get("trace_hash") == c.get("baseline_trace_hash") and c.get("trace_hash")
        rows.append([
            f"{c['scenario']} {num(c['n'])}", c["platform"],
            f"{num(c.get('wall_ms'), 1, 'ms')} ({num(c.get('runs'))})",
            f"{num(c.get('baseline_wall_ms'), 1, 'ms')} ({num(c.get('baseline_runs'))})",
            ratio(c.get("wall_ratio")), ratio(c.get("user_ratio")),
            "same" if same else f"`{c.get('trace_hash', NA)}` / `{c.get('baseline_trace_hash', NA)}`",
        ])
    heading = (f"Against the baseline {b.get('commit') or b.get('path') or NA}, runs interleaved "
               f"(this build, then the baseline); medians by wall time, runs in brackets:")
    return heading + "\n\n" + table(
        ["scenario", "platform", "this build", "baseline", "wall ratio", "user CPU ratio",
         "trace hash"], rows)


def machine(report):
    m = report.get("machine") or {}
    at = f" at {report['commit']}" if report.get("commit") else ""
    return (f"Machine: {m.get('cpu') or NA}, {m.get('cores') or NA} cores, load "
            f"{num(m.get('load_avg_1m'), 2)} (1 min) when the report{at} was written, "
            f"Node {m.get('node') or NA}.")


def main(argv):
    path = argv[1] if len(argv) > 1 else "build/bench/report.json"
    try:
        with open(path) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        print(f"bench_summary.py: cannot read {path}: {e}", file=sys.stderr)
        return 1
    parts = [budgets(report), "The 11,000-Pod scenario (`rayclusters 1000`), apply to all ready:",
             scale(report), "One Deployment of N replicas, apply to all Pods Ready:",
             deployments(report), rates(report), rewind_heading(report),
             rewinds(report), bundle(report), against_baseline(report), machine(report)]
    print("\n\n".join(p for p in parts if p is not None))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
