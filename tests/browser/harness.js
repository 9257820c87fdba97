// Shared by the browser checks (e2e.js) and the page benchmarks (rewind_bench.js): a static server
// for a dist/ folder, Debian's Chromium launched as this machine needs it headless (SwiftShader
// WebGL2, no background network services, no browser download), the page's readiness wait, and
// the long session both rewind measurements replay.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');

const ROOT = path.resolve(__dirname, '../..');
const { chromium } = require(path.join(ROOT, '.deps/npm/node_modules/playwright-core'));

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm',
                '.txt': 'text/plain', '.size': 'text/plain' };

// serve resolves to an http.Server for dist on a free localhost port (the folder must work from
// any web server, so nothing here is specific to the page).
function serve(dist) {
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url.split('?')[0].split('#')[0]);
    const file = path.join(dist, url.endsWith('/') ? url + 'index.html' : url);
    if (!file.startsWith(dist) || !fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// --disable-gpu-compositing: Chromium composites the page in software; WebGL still draws through
// SwiftShader. On two cores the suites take about an eighth less time (e2e_do.js 121 s against 138 s
// in one run), and screenshots are the same pictures.
function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox',
           '--disable-gpu-compositing',
           '--disable-background-networking', '--disable-component-update', '--disable-sync',
           '--no-first-run'],
  });
}

async function waitReady(page, timeout = 90000) {
  await page.waitForFunction(() => window.rlab && window.rlab.ready === true, null, { timeout });
}

// longSession runs inside the page (pass it to page.evaluate): a 60-replica Deployment, scaled
// every 40th command and otherwise advanced 50 ms at a time, until the session has `steps` steps
// or `maxCommands` commands ran. Resolves to the session's steps and its wall time.
async function longSession({ steps, maxCommands }) {
  const r = window.rlab;
  await r.command('wait --for=condition=Available deploy/inference-operator --timeout=30s\n' +
    'apply -f - <<EOF\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n' +
    '  replicas: 60\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n' +
    '    spec: {containers: [{name: web, image: nginx}]}\nEOF\n');
  const t0 = performance.now();
  for (let i = 0; (await r.state()).steps < steps && i < maxCommands; ++i) {
    await r.command(i % 40 === 0 ? 'scale deploy web --replicas=' + (30 + i % 80) : 'run 50ms');
  }
  return { total: (await r.state()).steps, sessionMs: performance.now() - t0 };
}

module.exports = { ROOT, serve, launch, waitReady, longSession };
