// Rewind timing in the page (issue 7: any of the last 10,000 steps under 50 ms): a long session
// (a 60-replica Deployment scaled every 2 s), every checkpoint built, then RLAB_REWINDS random
// targets (default 30, a fixed LCG so runs are comparable) within the last 10,000 steps, taken
// from the newest back. Between two rewinds the checkpoints are rebuilt, as idle frames would.
// Per rewind: the core's rewind (page clock inside App::RewindTo), the whole call as JavaScript
// sees it (plus the App's bookkeeping), and the UI's next frame (the view rebuilt for the new Lab).
// Usage: node tests/browser/rewind_bench.js [DIST]   (default build/web/dist; prints JSON)
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');

const ROOT = path.resolve(__dirname, '../..');
const DIST = path.resolve(process.argv[2] || path.join(ROOT, 'build/web/dist'));
const { chromium } = require(path.join(ROOT, '.deps/npm/node_modules/playwright-core'));
const REWINDS = parseInt(process.env.RLAB_REWINDS || '30', 10);
// RLAB_REWIND_INTERVAL / RLAB_REWIND_BUDGET_MB: checkpoint spacing and budget (default: the page's).
const INTERVAL = parseInt(process.env.RLAB_REWIND_INTERVAL || '0', 10);
const BUDGET_MB = parseInt(process.env.RLAB_REWIND_BUDGET_MB || '384', 10);

function serve() {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url.split('?')[0].split('#')[0]);
    const file = path.join(DIST, url.endsWith('/') ? url + 'index.html' : url);
    if (!file.startsWith(DIST) || !fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function main() {
  const server = await serve();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox',
           '--disable-background-networking', '--disable-component-update', '--disable-sync',
           '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
    await page.waitForFunction(() => window.rlab && window.rlab.ready === true, null, { timeout: 120000 });
    const m = await page.evaluate(async ([rewinds, interval, budgetMb]) => {
      const r = window.rlab;
      if (interval > 0 && !(r.rewindOptions && r.rewindOptions(interval, budgetMb))) {
        throw new Error('this build cannot set the checkpoint spacing');
      }
      const frame = () => new Promise((ok) => requestAnimationFrame(() => ok()));
      await r.command('wait --for=condition=Available deploy/inference-operator --timeout=30s\n' +
        'apply -f - <<EOF\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n' +
        '  replicas: 60\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n' +
        '    spec: {containers: [{name: web, image: nginx}]}\nEOF\n');
      const t0 = performance.now();
      for (let i = 0; (await r.state()).steps < 12000 && i < 4000; ++i) {
        await r.command(i % 40 === 0 ? 'scale deploy web --replicas=' + (30 + i % 80) : 'run 50ms');
      }
      const sessionMs = performance.now() - t0;
      const total = (await r.state()).steps;
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
    }, [REWINDS, INTERVAL, BUDGET_MB]);
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
