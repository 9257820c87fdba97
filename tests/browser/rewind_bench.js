// Rewind timing in the page (issue 7: any of the last 10,000 steps under 50 ms): a long session
// (a 60-replica Deployment scaled every 2 s), every checkpoint built, then RLAB_REWINDS random
// targets (default 30, a fixed LCG so runs are comparable) within the last 10,000 steps, taken
// from the newest back. Between two rewinds the checkpoints are rebuilt, as idle frames would.
// Per rewind: the core's rewind (page clock inside App::RewindTo), the whole call as JavaScript
// sees it (plus the App's bookkeeping), and the UI's next frame (the view rebuilt for the new Lab).
// Usage: node tests/browser/rewind_bench.js [DIST]   (default build/web/dist; prints JSON)
'use strict';
const path = require('path');
const { ROOT, serve, launch, waitReady, longSession } = require('./harness');

const DIST = path.resolve(process.argv[2] || path.join(ROOT, 'build/web/dist'));
const REWINDS = parseInt(process.env.RLAB_REWINDS || '30', 10);
// RLAB_REWIND_INTERVAL / RLAB_REWIND_BUDGET_MB: checkpoint spacing and budget (default: the page's).
const INTERVAL = parseInt(process.env.RLAB_REWIND_INTERVAL || '0', 10);
const BUDGET_MB = parseInt(process.env.RLAB_REWIND_BUDGET_MB || '384', 10);

async function main() {
  const server = await serve(DIST);
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
    await waitReady(page, 120000);
    const spaced = await page.evaluate(([interval, budgetMb]) => interval <= 0 ||
      !!(window.rlab.rewindOptions && window.rlab.rewindOptions(interval, budgetMb)),
    [INTERVAL, BUDGET_MB]);
    if (!spaced) throw new Error('this build cannot set the checkpoint spacing');
    const session = await page.evaluate(longSession, { steps: 12000, maxCommands: 4000 });
    const m = await page.evaluate(async ([rewinds, { total, sessionMs }]) => {
      const r = window.rlab;
      const frame = () => new Promise((ok) => requestAnimationFrame(() => ok()));
      const t1 = performance.now();
      const parked = await r.buildCheckpoints();
      const buildMs = performance.now() - t1;
      // Distinct random targets in [total - 10000, total - 1], newest first.
      let seed = 12345;
      const targets = new Set();
      while (targets.size < rewinds) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        targets.add(total - 1 - (seed % 10000));
      }
      const runs = [];
      let rebuildMs = 0;
      for (const target of [...targets].sort((a, b) => b - a)) {
        await frame();
        const a = performance.now();
        await r.rewind(target);
        const callMs = performance.now() - a;
        await frame();
        const stats = r.rewindStats();
        runs.push(Object.assign({ back: total - target, callMs: +callMs.toFixed(2),
                                  nextFrameMs: +r.frameMs().toFixed(2) }, stats));
        const b = performance.now();
        await r.buildCheckpoints();
        rebuildMs += performance.now() - b;
      }
      return { total, parked, sessionMs, buildMs, rebuildMs, runs };
    }, [REWINDS, session]);
    const stat = (k) => {
      const v = m.runs.map((x) => x[k]).filter((x) => typeof x === 'number').sort((a, b) => a - b);
      if (!v.length) return null;
      return { mean: +(v.reduce((s, x) => s + x, 0) / v.length).toFixed(1),
               p50: v[Math.floor(v.length / 2)], worst: v[v.length - 1] };
    };
    const out = { dist: DIST, sessionSteps: m.total, parked: m.parked,
                  sessionMs: Math.round(m.sessionMs), checkpointBuildMs: Math.round(m.buildMs),
                  rebuildBetweenRewindsMs: Math.round(m.rebuildMs), rewinds: m.runs.length,
                  rewindMs: stat('ms'), callMs: stat('callMs'), appMs: stat('appMs'),
                  nextFrameMs: stat('nextFrameMs'), replayedSteps: stat('replayed'),
                  parkedMiB: m.runs.length && m.runs[0].parkedBytes !== undefined
                    ? +(Math.max(...m.runs.map((x) => x.parkedBytes)) / (1 << 20)).toFixed(1) : null };
    if (process.env.RLAB_REWIND_RUNS) out.runs = m.runs;
    console.log(JSON.stringify(out));
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
