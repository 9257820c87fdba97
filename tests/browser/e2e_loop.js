// Browser end-to-end tests of the teaching panels (the loop view, the why pane, the cluster
// picture) in build/web/dist, with playwright-core and Debian's chromium (headless, SwiftShader
// WebGL2). Run by scripts/browser_test.sh with the other tests/browser/e2e*.js suites.
// The steps under test use the real mouse on ImGui's drawing, found by the item rectangles the
// page records (window.rlab.itemRect); window.rlab.command only sets scenes up and checks facts.
// RLAB_E2E_PODS=1000 adds the frame-time budget: the frame's CPU time (simulation + UI, median
// of 300 frames, Loop, Cluster, Objects and Timeline open) with 1,000 Pods against 10 Pods.
'use strict';
const fs = require('fs');
const path = require('path');
const { ROOT, serve, launch, waitReady } = require('./harness');
const { assert, frames, reveal } = require('./drive');

const DIST = path.join(ROOT, 'build/web/dist');
const SHOTS = path.join(ROOT, 'build/web/screenshots');

const results = [];
const figures = {};
let failures = 0;
async function check(name, fn) {
  const t = Date.now();
  try {
    await fn();
    results.push(`ok    ${name} (${Date.now() - t} ms)`);
  } catch (e) {
    failures++;
    results.push(`FAIL  ${name}: ${e.stack || e.message}`);
  }
}

const state = (page) => page.evaluate(() => window.rlab.state());
const rect = (page, name) => page.evaluate((n) => window.rlab.itemRect(n), name);
const centre = (r) => ({ x: r.x + r.w / 2, y: r.y + r.h / 2 });

// click presses and releases the real mouse over a rectangle, a frame apart (ImGui sees the
// press and the release in different frames, as from a person).
async function click(page, r) {
  const c = centre(r);
  await page.mouse.move(c.x, c.y);
  await frames(page, 2);
  await page.mouse.down();
  await frames(page, 2);
  await page.mouse.up();
  await frames(page, 2);
}

// waitFor polls fn (in Node) until it returns a truthy value or timeout ms pass.
async function waitFor(fn, timeout, what) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting for ' + what);
    await new Promise((r) => setTimeout(r, 30));
  }
}

function inside(inner, outer, slack = 0.5) {
  return inner.x >= outer.x - slack && inner.y >= outer.y - slack &&
         inner.x + inner.w <= outer.x + outer.w + slack && inner.y + inner.h <= outer.y + outer.h + slack;
}

const kRayCluster = `wait --for=condition=Available deploy/kuberay-operator --timeout=30s
apply -f - <<EOF
apiVersion: ray.io/v1
kind: RayCluster
metadata:
  name: hello
spec:
  rayVersion: "2.52.0"
  headGroupSpec:
    rayStartParams: {}
    template:
      spec:
        containers:
        - name: ray-head
          image: rayproject/ray:2.52.0
  workerGroupSpecs:
  - groupName: cpu
    replicas: 2
    minReplicas: 1
    maxReplicas: 4
    rayStartParams: {}
    template:
      spec:
        containers:
        - name: ray-worker
          image: rayproject/ray:2.52.0
EOF
wait --for=jsonpath='{.status.state}'=ready raycluster/hello --timeout=120s
run 3s
`;

async function shot(page, name) {
  await page.screenshot({ path: path.join(SHOTS, name) });
}

// frameCost measures the median CPU time of simulation + UI over n frames while the simulation
// plays (window.rlab.frameParts: the page's own per-part timings).
async function frameCost(page, n) {
  await page.evaluate(() => window.rlab.play(true));
  const m = await page.evaluate((n) => new Promise((resolve) => {
    const app = []; let k = 0;
    const f = () => {
      const p = window.rlab.frameParts();
      app.push(p.sim + p.ui);
      if (++k < n + 10) requestAnimationFrame(f); else resolve(app.slice(10));
    };
    requestAnimationFrame(f);
  }), n);
  await page.evaluate(() => window.rlab.play(false));
  const sorted = m.slice().sort((a, b) => a - b);
  return +sorted[Math.floor(sorted.length / 2)].toFixed(3);
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const server = await serve(DIST);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launch();
  try {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(base + 'index.html');
    await waitReady(page);

    await check('the loop view, the why pane and the cluster picture are open at start', async () => {
      await frames(page, 3);
      for (const name of ['loop.controller', 'why.clip', 'cluster.clip']) {
        const r = await rect(page, name);
        assert(r && r.w > 20 && r.h > 10, `no ${name}: ${JSON.stringify(r)}`);
      }
      assert(errors.length === 0, 'page errors: ' + errors.join('; '));
    });

    let worker = '';
    let killSeq = 0;
    let startSeq = 0;
    await check('a Pod tile clicked and killed with the mouse; Step to reconcile reaches the reconcile it causes', async () => {
      const out = await page.evaluate((s) => window.rlab.command(s), kRayCluster);
      assert(/raycluster.ray.io\/hello created/.test(out), out);
      await frames(page, 4);
      await shot(page, 'loop-ready.png');
      const st = await state(page);
      const workers = st.objects.filter((o) => o.kind === 'Pod' && /^hello-cpu-worker-/.test(o.name));
      assert(workers.length === 2, 'workers: ' + JSON.stringify(workers));
      // A worker tile the Cluster panel shows whole.
      const clip = await rect(page, 'cluster.clip');
      for (const w of workers) {
        const r = await rect(page, 'cluster.pod.default/' + w.name);
        if (r && inside(r, clip)) { worker = w.name; break; }
      }
      assert(worker, 'no worker tile fully visible in the Cluster panel');
      await click(page, await rect(page, 'cluster.pod.default/' + worker));
      const sel = await state(page);
      assert(sel.selectedObject === 'Pod/default/' + worker, 'tile click selected ' + sel.selectedObject);
      const before = (await state(page)).traceEvents;
      await click(page, await rect(page, 'cluster.kill'));
      const log = await page.evaluate(() => window.rlab.shareScript());
      assert(new RegExp('^kill pod ' + worker + ' -n default$', 'm').test(log), 'kill not in the log: ' + log);
      // The kill is the learner's command: the kubelet's record of the exit has cause 0.
      const trace = (await page.evaluate((n) => window.rlab.command('trace -o json'), 0))
        .trim().split('\n').map((l) => JSON.parse(l));
      const exit = trace.find((e) => e.seq > before && e.type === 'kubelet.pod' && e.pod === 'default/' + worker);
      assert(exit && exit.cause === 0, 'no kubelet.pod for the kill: ' + JSON.stringify(exit));
      killSeq = exit.seq;
      // Step to reconcile (the real button) until the reconcile the kill caused has started.
      const bySeq = (events) => new Map(events.map((e) => [e.seq, e]));
      for (let i = 0; i < 8 && !startSeq; ++i) {
        await click(page, await rect(page, 'Step to reconcile'));
        const all = (await page.evaluate(() => window.rlab.command('trace -o json')))
          .trim().split('\n').map((l) => JSON.parse(l));
        const m = bySeq(all);
        for (const e of all) {
          if (e.seq <= killSeq || e.type !== 'reconcile.start' || e.controller !== 'raycluster') continue;
          let c = e.cause;
          for (let hops = 0; c > 0 && hops < 40; ++hops) {
            if (c === killSeq) { startSeq = e.seq; break; }
            c = m.get(c).cause;
          }
          if (startSeq) break;
        }
      }
      assert(startSeq > 0, 'no raycluster reconcile caused by the kill after stepping');
    });

    await check('the loop view\'s token for that reconcile moves along its edge; clicking it selects its record', async () => {
      assert(startSeq > 0, 'no reconcile to look for');
      // Slow animation, and the controller's last tokens replayed (the toolbar's buttons): the
      // test's own round trips must not let the trip finish unseen.
      await click(page, await rect(page, 'loop.speed.slow'));
      await click(page, await rect(page, 'loop.replay'));
      const name = 'loop.token.' + startSeq;
      // Two frames of the token on its trip: it has moved along the worker → Reconcile edge.
      const a = await waitFor(async () => {
        const st = await state(page);
        const t = st.loop.tokens.find((x) => x.seq === startSeq);
        return t && t.moving && t.progress < 0.7 ? { t, r: await rect(page, name) } : null;
      }, 20000, 'the reconcile.start token to travel').catch(async (e) => {
        const st = await state(page);
        throw new Error(e.message + ': loop ' + JSON.stringify(st.loop) + ' want seq ' + startSeq);
      });
      await frames(page, 2);
      const st2 = await state(page);
      const t2 = st2.loop.tokens.find((x) => x.seq === startSeq);
      const r2 = await rect(page, name);
      assert(a.t.type === 'reconcile.start' && a.t.edge === 'start', 'token: ' + JSON.stringify(a.t));
      assert(st2.loop.controller === 'raycluster', 'loop shows ' + st2.loop.controller);
      assert(t2 && t2.progress > a.t.progress, `progress ${a.t.progress} -> ${t2 && t2.progress}`);
      const moved = Math.hypot(r2.x - a.r.x, r2.y - a.r.y);
      assert(moved > 1, `the token did not move: ${JSON.stringify(a.r)} -> ${JSON.stringify(r2)}`);
      // The worker → Reconcile edge runs right to left.
      assert(r2.x < a.r.x, `the token moved the wrong way: x ${a.r.x} -> ${r2.x}`);
      figures.tokenMovedPx = +moved.toFixed(1);
      // Rest the mouse on it (the animation holds while the mouse is on a token), then click.
      await page.mouse.move(centre(r2).x, centre(r2).y);
      await frames(page, 3);
      const held = await rect(page, name);
      assert(held, 'the token vanished under the mouse');
      await click(page, held);
      const st3 = await state(page);
      assert(st3.selectedSeq === startSeq, `selected ${st3.selectedSeq} (${st3.selectedType}), want ${startSeq}`);
      assert(st3.selectedType === 'reconcile.start', st3.selectedType);
      await page.mouse.move(5, 5);
      await frames(page, 3);
    });

    await check('the informer\'s DeltaFIFO: a pop token travels along the informer, left to right', async () => {
      await click(page, await rect(page, 'loop.replay'));
      const a = await waitFor(async () => {
        const st = await state(page);
        const t = st.loop.tokens.find((x) => x.type === 'informer.pop' && x.moving && x.progress < 0.6);
        return t || null;
      }, 20000, 'an informer.pop token to travel');
      await frames(page, 2);
      const b = (await state(page)).loop.tokens.find((x) => x.seq === a.seq);
      assert(a.edge === 'pop', 'the pop travels the ' + a.edge + ' edge');
      assert(b && b.x > a.x && Math.abs(b.y - a.y) < 1, `the pop token did not move along the floor: ${JSON.stringify(a)} -> ${JSON.stringify(b)}`);
      const texts = (await page.evaluate(() => window.rlab.textProbe())).map((d) => d.t);
      assert(texts.some((t) => t.includes('DeltaFIFO')), 'the informer station does not name its DeltaFIFO');
      await page.mouse.move(5, 5);
    });

    await check('its "why" text tells the chain from the kill, unclipped inside the viewport', async () => {
      const st = await state(page);
      const text = st.why.text;
      assert(st.why.seq === startSeq, 'why explains ' + st.why.seq);
      assert(text.includes(worker) && /reconcile #\d+ of default\/hello by worker \d/.test(text), text);
      assert(/container exited \(Error\)|kubelet status write/.test(text), text);
      assert(/after your command/.test(text), 'the root should be the learner\'s kill: ' + text);
      const r = await rect(page, 'why.text');
      const clip = await rect(page, 'why.clip');
      const vp = page.viewportSize();
      assert(r && r.w > 50 && r.h > 30, 'why.text rect: ' + JSON.stringify(r));
      assert(inside(r, { x: 0, y: 0, w: vp.width, h: vp.height }), 'why text outside the viewport: ' + JSON.stringify(r));
      assert(inside(r, clip), `why text clipped by its pane: ${JSON.stringify(r)} in ${JSON.stringify(clip)}`);
      // The same chain under the Timeline.
      const tr = await rect(page, 'timeline.why.text');
      assert(tr && tr.h > 10, 'no why strip in the Timeline: ' + JSON.stringify(tr));
      await shot(page, 'loop-why.png');
    });

    await check('clicking a Timeline dot selects its record', async () => {
      await frames(page, 2);
      const dot = await rect(page, 'timeline.dot.last');
      assert(dot, 'no timeline.dot.last');
      const want = (await state(page)).traceEvents;
      await click(page, dot);
      const st = await state(page);
      assert(st.selectedSeq === want, `Timeline click selected ${st.selectedSeq}, want ${want}`);
      await page.mouse.move(5, 5);
      await frames(page, 2);
    });

    await check('an operator whose Pod cache cannot sync crash-loops, and the cluster picture shows it', async () => {
      const out = await page.evaluate(() => window.rlab.command(
        'operator rbac deny list pods\noperator restart\nrun 5m'));
      assert(!/^error/m.test(out), out);
      const pods = await page.evaluate(() => window.rlab.command('get pods -l app.kubernetes.io/name=kuberay-operator'));
      const row = pods.split('\n').find((l) => /^kuberay-operator-/.test(l)) || '';
      const restarts = Number((row.trim().split(/\s+/)[3] || '0'));
      assert(restarts >= 1, 'the operator Pod did not restart: ' + pods);
      // The operator's own tile, scrolled into the Cluster panel, shows its status and restarts.
      const tileName = 'cluster.pod.default/' + row.trim().split(/\s+/)[0];
      const tile = await reveal(page, tileName, 'cluster.clip');
      const drawn = (await page.evaluate(() => window.rlab.textProbe()))
        .filter((d) => inside({ x: d.x, y: d.y, w: d.w, h: d.h }, tile, 2));
      assert(drawn.some((d) => /(CrashLoopBackOff|Error|Running) \(\d+\u00d7\)/.test(d.t)),
             'the operator tile shows no restarts: ' + drawn.map((d) => d.t).join(' | '));
      await shot(page, 'loop-operator-crashloop.png');
      await page.evaluate(() => window.rlab.command('operator rbac reset\nrun 60s'));
    });

    await check('a Chinese page explains in Chinese', async () => {
      await page.evaluate((s) => window.rlab.command('why ' + s + ' --lang zh'), startSeq);
      const zh = await page.evaluate((s) => window.rlab.command('why ' + s + ' --lang zh'), startSeq);
      assert(/次协调/.test(zh) && /根源/.test(zh), zh);
    });

    await check('in Chinese, a waiting chip clicked in the loop view is explained in Chinese', async () => {
      const p = await ctx.newPage();
      await p.goto(base + 'index.html?lang=zh');
      await waitReady(p);
      // The Chinese font arrives after the page is ready and re-lays the panels out: wait for it,
      // so the chip found below is where the click lands.
      await p.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /cjk-sc\.otf$/.test(e.name)));
      await frames(p, 6);
      await p.evaluate((s) => window.rlab.command(s), kRayCluster);
      // The RayCluster's RequeueAfter waits in the queue: its chip selects the add that put it there.
      const chip = await waitFor(() => rect(p, 'loop.chip.waiting.default/hello'), 20000, 'the waiting chip');
      await click(p, chip);
      const st = await state(p);
      assert(st.selectedType === 'queue.add_after', 'the chip selected ' + st.selectedType);
      assert(st.why.lang === 'zh' && /协调/.test(st.why.text) && /RequeueAfter/.test(st.why.text), st.why.text);
      const r = await rect(p, 'why.text');
      assert(r && inside(r, await rect(p, 'why.clip')), 'why text clipped: ' + JSON.stringify(r));
      await p.mouse.move(5, 5);
      await frames(p, 6);
      await shot(p, 'loop-zh.png');
      await p.close();
    });

    const podsWanted = parseInt(process.env.RLAB_E2E_PODS || '0', 10);
    if (!podsWanted) results.push('skip  frame-time budget, 10 vs 1,000 Pods (set RLAB_E2E_PODS=1000)');
    if (podsWanted) await check(`frame time with ${podsWanted} Pods against 10 Pods (Loop, Cluster, Objects, Timeline open)`, async () => {
      const p = await ctx.newPage();
      await p.goto(base + 'index.html');
      await waitReady(p);
      const deploy = (n) => 'apply -f - <<EOF\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: many\nspec:\n' +
        '  replicas: ' + n + '\n  selector:\n    matchLabels: {app: many}\n  template:\n    metadata:\n      labels: {app: many}\n' +
        '    spec:\n      containers:\n      - name: c\n        image: pause:3.9\nEOF\nrun 30s\n';
      await p.evaluate((s) => window.rlab.command(s), kRayCluster.replace('run 3s', 'run 1s'));
      await p.evaluate((s) => window.rlab.command(s), deploy(10));
      for (const n of ['loop.controller', 'cluster.clip', 'why.clip']) assert(await rect(p, n), n + ' not drawn');
      const st10 = await state(p);
      figures.pods10 = st10.objects.filter((o) => o.kind === 'Pod').length;
      figures.frameAppMedianMs10Pods = await frameCost(p, 300);
      await shot(p, 'loop-10-pods.png');
      await p.evaluate((s) => window.rlab.command(s), deploy(podsWanted).replace('run 30s', 'run 60s'));
      const st1k = await state(p);
      figures.pods1000 = st1k.objects.filter((o) => o.kind === 'Pod').length;
      assert(figures.pods1000 >= podsWanted, 'only ' + figures.pods1000 + ' Pods');
      figures.frameAppMedianMs1000Pods = await frameCost(p, 300);
      figures.frameRatio1000To10 = +(figures.frameAppMedianMs1000Pods / figures.frameAppMedianMs10Pods).toFixed(2);
      await shot(p, 'loop-1000-pods.png');
      await p.close();
    });
  } finally {
    await browser.close();
    server.close();
  }
  console.log(results.join('\n'));
  console.log('figures: ' + JSON.stringify(figures));
  fs.writeFileSync(path.join(SHOTS, 'figures-loop.json'), JSON.stringify(figures, null, 1) + '\n');
  process.exit(failures ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
