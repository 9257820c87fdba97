// The README's pictures (docs/images/), made from the page in build/web/dist by a deterministic
// run at fixed viewports (the page 1280x800, the loop view's stills 1600x1000; device scale 1): a RayCluster is made ready, a worker Pod is
// killed, and the simulation is stepped one event at a time; the loop view is captured when the
// kill's watch event, the enqueue, the Reconcile and its end have each happened and the loop
// view's tokens have come to rest. Run by scripts/readme_images.sh (RLAB_DIST picks another
// dist folder; RLAB_IMAGES another output folder).
// Panels are found through the page's own item rectangles (window.rlab.itemRect), never by pixel
// position, so the script follows the page's layout: `panel.loop` when the layout records one,
// else the loop view's controller picker and canvas. A first-run welcome card is dismissed.
'use strict';
const fs = require('fs');
const path = require('path');
const { ROOT, serve, launch, waitReady } = require('./harness');

const DIST = path.resolve(process.env.RLAB_DIST || path.join(ROOT, 'build/web/dist'));
const OUT = path.resolve(process.env.RLAB_IMAGES || path.join(ROOT, 'docs/images'));
const PAGE_VIEWPORT = { width: 1280, height: 800 };
const STILL_VIEWPORT = { width: 1600, height: 1000 };

const frames = (page, n) => page.evaluate((n) => new Promise((r) => {
  let k = 0; const f = () => (++k >= n ? r() : requestAnimationFrame(f)); requestAnimationFrame(f);
}), n);
const state = (page) => page.evaluate(() => window.rlab.state());
const rect = (page, name) => page.evaluate((n) => window.rlab.itemRect(n), name);
const command = (page, text) => page.evaluate((t) => window.rlab.command(t), text);

async function click(page, r) {
  const x = r.x + r.w / 2, y = r.y + r.h / 2;
  await page.mouse.move(x, y);
  await frames(page, 2);
  await page.mouse.down();
  await frames(page, 2);
  await page.mouse.up();
  await frames(page, 2);
  await page.mouse.move(2, 2);  // no hover highlight or tooltip in the picture
  await frames(page, 3);
}

async function waitFor(fn, timeout, what) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting for ' + what);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// dismissWelcome closes a first-run card if the page shows one (its "Free play" choice, the one
// that leaves the sandbox as it is).
async function dismissWelcome(page) {
  await frames(page, 3);
  for (const name of ['welcome.free', 'welcome.close', 'welcome.dismiss']) {
    const r = await rect(page, name);
    if (r && r.w > 0) { await click(page, r); return; }
  }
}

// loopRect is the loop view's panel on screen.
async function loopRect(page) {
  const panel = await rect(page, 'panel.loop');
  if (panel && panel.w > 100) return panel;
  const top = await rect(page, 'loop.controller');
  const canvas = await rect(page, 'loop.canvas');
  if (!top || !canvas) throw new Error('the page records neither panel.loop nor loop.controller + loop.canvas');
  const pad = 6;
  const x = Math.min(top.x, canvas.x) - pad, y = top.y - pad;
  return { x, y, w: canvas.x + canvas.w - x + pad, h: canvas.y + canvas.h - y + pad };
}

function clamp(r, vp) {
  const x = Math.max(0, Math.floor(r.x)), y = Math.max(0, Math.floor(r.y));
  return { x, y, width: Math.min(vp.width - x, Math.ceil(r.w)), height: Math.min(vp.height - y, Math.ceil(r.h)) };
}

// settle waits until the loop view's tokens have arrived (the still shows where things are, not
// a token halfway along an edge).
async function settle(page) {
  await waitFor(async () => {
    const st = await state(page);
    return st.loop && !st.loop.tokens.some((t) => t.moving);
  }, 30000, 'the loop view\'s tokens to arrive');
  await frames(page, 6);
}

const kSetup = `wait --for=condition=Available deploy/kuberay-operator --timeout=30s
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

// The four moments, in order: each the first record since the kill that matches. One step (one
// scheduler event) may write several records: the informer's delivery runs the handler, which
// enqueues, in the same step.
const kStills = [
  { file: 'loop-1-write.png', what: 'the kubelet writes the killed Pod\'s status',
    match: (e) => e.type === 'api.request' && e.kind === 'Pod' },
  { file: 'loop-2-enqueue.png', what: 'the informer hears it; the handler enqueues the RayCluster',
    match: (e) => e.type === 'queue.add' && e.controller === 'raycluster' },
  { file: 'loop-3-reconcile.png', what: 'a worker runs Reconcile',
    match: (e) => e.type === 'reconcile.start' && e.controller === 'raycluster' },
  { file: 'loop-4-requeue.png', what: 'Reconcile ends',
    match: (e) => e.type === 'reconcile.end' && e.controller === 'raycluster' },
];

// scene opens the page at a viewport, makes the RayCluster ready and kills its first worker
// (the names come from the seed, so every run is the same).
async function scene(browser, base, viewport) {
  const ctx = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(base + 'index.html?lang=en');
  await waitReady(page);
  await dismissWelcome(page);
  const out = await command(page, kSetup);
  if (!/raycluster.ray.io\/hello created/.test(out)) throw new Error('setup: ' + out);
  const fast = await rect(page, 'loop.speed.fast');
  if (fast) await click(page, fast);
  await settle(page);
  const st = await state(page);
  const worker = st.objects.filter((o) => o.kind === 'Pod' && /^hello-cpu-worker-/.test(o.name))
    .map((o) => o.name).sort()[0];
  if (!worker) throw new Error('no worker Pod: ' + JSON.stringify(st.objects.map((o) => o.name)));
  await command(page, 'mark readme-kill\nkill pod ' + worker);
  return { ctx, page, errors };
}

// stepUntil steps the simulation one event at a time until a record since the kill matches.
async function stepUntil(page, match, what) {
  for (let i = 0; i < 400; ++i) {
    const trace = (await command(page, 'trace -o json --since=readme-kill')).trim().split('\n')
      .filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    const hit = trace.find(match);
    if (hit) { await settle(page); return hit; }
    await command(page, 'step');
  }
  throw new Error('never reached: ' + what);
}

async function main() {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) throw new Error('no page in ' + DIST + ' (scripts/build_web.sh)');
  fs.mkdirSync(OUT, { recursive: true });
  const server = await serve(DIST);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launch();
  const made = [];
  try {
    // The page: the Reconcile the kill caused, its last record selected (the Why pane tells the
    // chain from the kill), and the same chain asked for in the Console.
    {
      const { ctx, page, errors } = await scene(browser, base, PAGE_VIEWPORT);
      await stepUntil(page, kStills[2].match, kStills[2].what);
      await command(page, 'why reconcile default/hello --controller raycluster');
      const dot = await rect(page, 'timeline.dot.last');
      if (dot) await click(page, dot);
      await frames(page, 6);
      await page.screenshot({ path: path.join(OUT, 'page.png') });
      made.push(['page.png', `the page, ${PAGE_VIEWPORT.width}x${PAGE_VIEWPORT.height}, at the Reconcile the kill caused`]);
      if (errors.length) throw new Error('page errors: ' + errors.join('; '));
      await ctx.close();
    }
    // The loop view at four successive moments, in a larger window so its labels fit.
    {
      const { ctx, page, errors } = await scene(browser, base, STILL_VIEWPORT);
      for (const still of kStills) {
        const hit = await stepUntil(page, still.match, still.what);
        await page.screenshot({ path: path.join(OUT, still.file), clip: clamp(await loopRect(page), STILL_VIEWPORT) });
        made.push([still.file, `${still.what} (seq ${hit.seq}; loop view: ${(await state(page)).loop.controller})`]);
      }
      if (errors.length) throw new Error('page errors: ' + errors.join('; '));
      await ctx.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  for (const [file, what] of made) {
    console.log(`${file.padEnd(20)} ${String(fs.statSync(path.join(OUT, file)).size).padStart(7)} bytes  ${what}`);
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
