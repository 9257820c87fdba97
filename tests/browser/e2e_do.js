// Browser tests of doing things from the page (issue 48, items 4–8): paste with the real
// clipboard, the Manifest box, the editor's PUT and its 409, the Scale and patch form, New and the
// scenarios, the first-run card, the keyboard shortcuts, Chinese everywhere (every label drawn in
// one frame is checked against the seeds' glossary), the layout at four sizes and hi-DPI (panel
// rectangles never overlap, no label is cut) and the view carried by the share link and embed.js.
// Real Chromium, real mouse and keyboard for the step under test; window.rlab only to set a scene
// up and to read state, item rectangles and the drawn strings. Screenshots go to
// build/web/screenshots/ (do-*.png). Run by scripts/browser_test.sh.
'use strict';
const fs = require('fs');
const path = require('path');
const { ROOT, serve, launch, waitReady } = require('./harness');
const { assert, frames, state, view, rect, click, reveal, key, settleInput, typeText, screenshot,
  newPage } = require('./drive');

const DIST = path.join(ROOT, 'build/web/dist');
const SHOTS = path.join(ROOT, 'build/web/screenshots');
const GLOSSARY = JSON.parse(fs.readFileSync(path.join(__dirname, 'zh_glossary.json'), 'utf8')).terms;

const results = [];
let failures = 0;
// RLAB_E2E_ONLY=TEXT runs only the checks whose name contains TEXT (the rest are skipped).
async function check(name, fn) {
  if (process.env.RLAB_E2E_ONLY && !name.includes(process.env.RLAB_E2E_ONLY)) {
    results.push(`skip  ${name}`);
    return;
  }
  const t = Date.now();
  try {
    await fn();
    results.push(`ok    ${name} (${Date.now() - t} ms)`);
  } catch (e) {
    failures++;
    results.push(`FAIL  ${name}: ${e.message}`);
  }
}

const manifest = (name, replicas) =>
  'apiVersion: ray.io/v1\nkind: RayCluster\nmetadata:\n  name: ' + name + '\nspec:\n  rayVersion: "2.52.0"\n' +
  '  headGroupSpec:\n    rayStartParams: {}\n    template:\n      spec:\n        containers:\n' +
  '        - name: ray-head\n          image: rayproject/ray:2.52.0\n  workerGroupSpecs:\n' +
  '  - groupName: cpu\n    replicas: ' + replicas + '\n    minReplicas: 0\n    maxReplicas: 8\n' +
  '    rayStartParams: {}\n    template:\n      spec:\n        containers:\n' +
  '        - name: ray-worker\n          image: rayproject/ray:2.52.0\n';
const workers = (st, cluster) => st.objects.filter((o) => o.kind === 'Pod' &&
  o.name.startsWith(cluster + '-cpu-worker-') && o.health !== 'deleting');

// writeClipboard puts text on the system clipboard from inside the page (permission granted).
const writeClipboard = (page, text) => page.evaluate((t) => navigator.clipboard.writeText(t), text);

// ---- the language check ----------------------------------------------------------------------
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const GLOSSARY_RE = new RegExp('(^|[^A-Za-z])(' + GLOSSARY.slice().sort((a, b) => b.length - a.length)
  .map(escapeRe).join('|') + ')(?![A-Za-z])', 'g');
// latinOnly: a label with Latin letters left once glossary terms, numbers with units and
// placeholders are removed, and no Chinese character.
function latinOnly(text) {
  if (/[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]/.test(text)) return false;
  const rest = text.replace(GLOSSARY_RE, '$1').replace(/\b\d+(\.\d+)?(ns|us|µs|ms|s|m|h|x|%)?\b/g, '')
    .replace(/[0-9]+(\.[0-9]+)?(ms|s|m|h)[0-9.smh]*/g, '');
  return /[A-Za-z]{2,}/.test(rest);
}

// ---- the layout check -------------------------------------------------------------------------
// Panels sharing a region (tabs) share its rectangle: compare regions.
function regions(rects) {
  const out = [];
  for (const [name, r] of Object.entries(rects)) {
    if (!name.startsWith('panel.')) continue;
    const same = out.find((o) => Math.abs(o.x - r.x) < 0.5 && Math.abs(o.y - r.y) < 0.5 &&
                                 Math.abs(o.w - r.w) < 0.5 && Math.abs(o.h - r.h) < 0.5);
    if (same) same.names.push(name); else out.push(Object.assign({ names: [name] }, r));
  }
  return out;
}
function overlaps(a, b) {
  const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return dx > 0.5 && dy > 0.5;
}
// clipped: a label cut by its clip rectangle where the learner cannot scroll to the rest.
function clipped(d) {
  if (d.data || d.w <= 0) return false;
  const cutX = d.x < d.cx0 - 1 || d.x + d.w > d.cx1 + 1;
  const cutY = d.y < d.cy0 - 1 || d.y + d.h > d.cy1 + 1;
  const visible = d.x < d.cx1 && d.x + d.w > d.cx0 && d.y < d.cy1 && d.y + d.h > d.cy0;
  return visible && ((cutX && !d.sx) || (cutY && !d.sy));
}

// overlappingLabels: pairs of the page's own labels drawn over each other in one window (the part
// of each inside its clip rectangle, so text scrolled out of view does not count).
function overlappingLabels(texts) {
  const seen = texts.filter((d) => !d.data && d.w > 0).map((d) => {
    const x0 = Math.max(d.x, d.cx0), y0 = Math.max(d.y, d.cy0);
    const x1 = Math.min(d.x + d.w, d.cx1), y1 = Math.min(d.y + d.h, d.cy1);
    return Object.assign({}, d, { x: x0, y: y0, w: x1 - x0, h: y1 - y0 });
  }).filter((d) => d.w > 0 && d.h > 0);
  const pairs = [];
  for (let i = 0; i < seen.length; i++) {
    for (let j = i + 1; j < seen.length; j++) {
      const a = seen[i], b = seen[j];
      if (a.win !== b.win) continue;
      const dx = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (dx > 1 && dy > 1) pairs.push([a, b]);
    }
  }
  return pairs;
}

const shot = (page, name) => screenshot(page, path.join(SHOTS, name));

async function layoutCheck(page, label, viewport) {
  await frames(page, 4);
  const v = await view(page);
  const rects = await page.evaluate(() => window.rlab.itemRects());
  const regs = regions(rects);
  assert(regs.length >= (v.narrow ? 2 : 4), `${label}: only ${regs.length} panel regions`);
  const problems = [];
  for (let i = 0; i < regs.length; i++) {
    for (let j = i + 1; j < regs.length; j++) {
      if (overlaps(regs[i], regs[j])) problems.push(`overlap ${regs[i].names} / ${regs[j].names}`);
    }
    const r = regs[i];
    // In the one-column mode the stack scrolls; elsewhere every panel is inside the viewport.
    if (!v.narrow && (r.x < -0.5 || r.y < -0.5 || r.x + r.w > viewport.width + 0.5 || r.y + r.h > viewport.height + 0.5)) {
      problems.push(`outside the viewport: ${r.names} ${JSON.stringify([r.x, r.y, r.w, r.h])}`);
    }
  }
  const texts = await page.evaluate(() => window.rlab.textProbe());
  for (const d of texts) if (clipped(d)) problems.push(`cut label "${d.t}" in ${d.win}`);
  for (const [a, b] of overlappingLabels(texts)) problems.push(`label "${a.t}" drawn over "${b.t}" in ${a.win}`);
  assert(problems.length === 0, `${label}: ${problems.slice(0, 8).join('; ')}`);
  return { regions: regs.length, texts: texts.length };
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const server = await serve(DIST);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launch();
  try {
    await check('first run: the welcome card offers three choices, and the choice is remembered', async () => {
      const page = await newPage(browser, base, { welcome: true });
      let v = await view(page);
      assert(v.welcome === true, 'no welcome card on a first visit');
      for (const id of ['lesson', 'raycluster', 'free']) assert(await rect(page, 'welcome.' + id), 'no choice ' + id);
      await shot(page, 'do-welcome-en.png');
      await click(page, 'welcome.raycluster');
      v = await view(page);
      const st = await state(page);
      assert(v.welcome === false, 'the card stayed');
      assert(st.objects.some((o) => o.kind === 'RayCluster' && o.name === 'hello'), 'Try a RayCluster applied nothing');
      assert(v.selected === 'RayCluster/default/hello' && st.playing, 'not selected and playing: ' + JSON.stringify(v));
      assert(await page.evaluate(() => localStorage.getItem('rlab.welcome')) === 'raycluster', 'choice not remembered');
      await page.reload();
      await waitReady(page);
      await frames(page, 3);
      assert((await view(page)).welcome === false, 'the card came back after the choice');
      await page.context().close();
    });

    await check('keyboard shortcuts: ? . Space r / act only when no text field has the keyboard', async () => {
      const page = await newPage(browser, base);
      await page.mouse.click(640, 400);  // the canvas has the keyboard
      await frames(page, 2);
      await key(page, '?');
      assert((await view(page)).shortcuts === true, '? did not open the list');
      await shot(page, 'do-shortcuts-en.png');
      await key(page, 'Escape');
      assert((await view(page)).shortcuts === false, 'Esc did not close the list');
      const s0 = (await state(page)).steps;
      await key(page, '.');
      const s1 = (await state(page)).steps;
      assert(s1 === s0 + 1, `. did not step (${s0} -> ${s1} steps)`);
      await key(page, ' ');
      assert((await state(page)).playing === true, 'Space did not play');
      await key(page, ' ');
      assert((await state(page)).playing === false, 'Space did not pause');
      // With a RayCluster applied, r stops at its first Reconcile.
      await page.evaluate((m) => window.rlab.command('apply -f - <<EOF\n' + m + 'EOF\n'), manifest('keys', 1));
      const before_r = (await state(page)).steps;
      await key(page, 'r');
      const after_r = (await state(page)).steps;
      assert(after_r > before_r && after_r - before_r < 5000, `r stepped ${after_r - before_r} times`);
      const seen = await page.evaluate(() => window.rlab.command('expect trace reconcile.start controller=raycluster key=default/keys --min 1'));
      assert(!/error/.test(seen), 'r did not reach a Reconcile: ' + seen);
      await key(page, '/');
      const before = (await state(page)).steps;
      await typeText(page, 'get namespaces.');  // '.' is text now, not a step
      assert((await state(page)).steps === before, 'a shortcut fired while typing');
      await key(page, 'Backspace');
      await key(page, 'Enter');
      assert(/^get namespaces$/m.test(await page.evaluate(() => window.rlab.shareScript())), 'the typed command did not run');
      await page.context().close();
    });

    const page = await newPage(browser, base);
    await page.evaluate(() => window.rlab.command('wait --for=condition=Available deploy/kuberay-operator --timeout=60s'));

    await check('paste a multi-line RayCluster (real clipboard, Ctrl+V) into the console: one heredoc command', async () => {
      const heredoc = 'apply -f - <<EOF\n' + manifest('pasted', 1) + 'EOF';
      await writeClipboard(page, heredoc);
      await click(page, 'console.input');
      await key(page, 'Control+V');
      const box = await rect(page, 'console.input');
      assert(box.h > 40, 'the console field did not turn multi-line: ' + JSON.stringify(box));
      await shot(page, 'do-console-paste.png');
      await key(page, 'Enter');
      const st = await state(page);
      assert(st.lastOk && st.objects.some((o) => o.kind === 'RayCluster' && o.name === 'pasted'), 'not applied: ' + st.lastOk);
      const log = await page.evaluate(() => window.rlab.shareScript());
      assert(/apply -f - <<'?RLAB_EOF'?\napiVersion: ray\.io\/v1\nkind: RayCluster\nmetadata:\n {2}name: pasted\n/.test(log),
             'the log lacks the heredoc as one command: ' + log.slice(0, 300));
    });

    await check('paste a manifest into the Manifest box (real clipboard, Ctrl+V) and Apply', async () => {
      await writeClipboard(page, manifest('boxed', 2));
      await click(page, 'manifest.text');
      await key(page, 'Control+V');
      await click(page, 'manifest.apply');
      const st = await state(page);
      assert(st.lastOk && st.objects.some((o) => o.kind === 'RayCluster' && o.name === 'boxed'), 'Apply created nothing');
      await page.evaluate(() => window.rlab.command('wait --for=jsonpath={.status.state}=ready raycluster/boxed --timeout=120s'));
      assert(workers(await state(page), 'boxed').length === 2, 'boxed has not two workers');
      await shot(page, 'do-manifest-applied.png');
    });

    // editReplicas edits the workers' `replicas:` line of the open editor with the keyboard.
    async function editReplicas(from, to) {
      const text = (await view(page)).editor.text;
      const lines = text.split('\n');
      const at = lines.findIndex((l, i) => /^ {2}- /.test(l) && lines.slice(0, i).some((x) => x === '  workerGroupSpecs:'));
      let line = -1;
      for (let i = Math.max(at, 0); i < lines.length; i++) if (lines[i] === '    replicas: ' + from) { line = i; break; }
      assert(line >= 0, 'no worker replicas line in the editor: ' + text.slice(0, 400));
      await click(page, 'editor.text');
      await page.keyboard.press('Control+Home');
      for (let i = 0; i < line; i++) await page.keyboard.press('ArrowDown');
      // ImGui takes one change of a key per frame: a burst of presses drains over many frames.
      // Then the cursor's line is read back and corrected with single presses, so a press lost or
      // repeated on a loaded machine does not move the edit to another line.
      await settleInput(page);
      for (let tries = 0; tries < 4; tries++) {
        const e = (await view(page)).editor;
        const at = e.cursor < 0 ? -1 : e.text.slice(0, e.cursor).split('\n').length - 1;
        if (at === line) break;
        if (at < 0) {
          await click(page, 'editor.text');
          await page.keyboard.press('Control+Home');
          for (let i = 0; i < line; i++) await page.keyboard.press('ArrowDown');
          await settleInput(page);
          continue;
        }
        const key = at < line ? 'ArrowDown' : 'ArrowUp';
        for (let i = 0; i < Math.abs(line - at); i++) await page.keyboard.press(key);
        await settleInput(page);
      }
      await page.keyboard.press('End');
      await page.keyboard.press('Backspace');
      await typeText(page, String(to));
      const edited = (await view(page)).editor.text.split('\n')[line];
      assert(edited === '    replicas: ' + to, 'the edit landed elsewhere: ' + JSON.stringify(edited));
    }

    await check('the editor: replicas 2 -> 3 sent as a PUT with its resourceVersion; a new worker appears', async () => {
      assert(await page.evaluate(() => window.rlab.select('RayCluster/default/boxed')), 'cannot select boxed');
      await reveal(page, 'inspector.edit', 'inspector');
      await click(page, 'inspector.edit');
      const v = await view(page);
      assert(v.editor && v.editor.ref === 'RayCluster/default/boxed' && v.editor.baseRv, 'no editor: ' + JSON.stringify(v.editor));
      await editReplicas(2, 3);
      await shot(page, 'do-editor.png');
      await click(page, 'editor.replace');
      const log = await page.evaluate(() => window.rlab.shareScript());
      assert(/^replace -f - <</m.test(log), 'no replace in the log');
      assert((await view(page)).editor === null, 'the editor stayed open after a successful replace');
      await page.evaluate(() => window.rlab.command('run 10s'));
      assert(workers(await state(page), 'boxed').length === 3, 'no third worker');
    });

    await check('the editor: a concurrent change first gets the real 409, offered for reload', async () => {
      await reveal(page, 'inspector.edit', 'inspector');
      await click(page, 'inspector.edit');
      await editReplicas(3, 4);
      await page.evaluate(() => window.rlab.command('label raycluster boxed touched=yes'));  // someone else writes
      await frames(page, 3);
      await click(page, 'editor.replace');
      const v = await view(page);
      assert(v.editor && v.editor.conflict === true, 'no conflict shown: ' + JSON.stringify(v.editor && v.editor.conflict));
      const st = await state(page);
      assert(st.lastOk === false, 'the replace did not fail');
      assert(await rect(page, 'editor.conflict.reload'), 'no reload offered');
      await shot(page, 'do-editor-409.png');
      const oldRv = v.editor.baseRv;
      await click(page, 'editor.conflict.reload');
      const v2 = await view(page);
      assert(v2.editor && !v2.editor.conflict && v2.editor.baseRv !== oldRv, 'reload did not read the latest: ' + JSON.stringify(v2.editor && v2.editor.baseRv));
      await editReplicas(3, 4);
      await click(page, 'editor.replace');
      assert((await view(page)).editor === null, 'the second replace failed');
      await page.evaluate(() => window.rlab.command('run 10s'));
      assert(workers(await state(page), 'boxed').length === 4, 'no fourth worker');
    });

    await check('the Scale and patch form: workers and suspend as patch commands', async () => {
      const field = await reveal(page, 'quick.replicas.0', 'inspector');
      await page.mouse.click(field.x + field.w / 3, field.y + field.h / 2);
      await frames(page, 2);
      await key(page, 'Control+A');
      await typeText(page, '1');
      await reveal(page, 'quick.replicas.apply.0', 'inspector');
      await click(page, 'quick.replicas.apply.0');
      const log = await page.evaluate(() => window.rlab.shareScript());
      assert(/^patch raycluster boxed --type json -p '\[\{"op":"replace","path":"\/spec\/workerGroupSpecs\/0\/replicas","value":1\}\]'$/m.test(log),
             'no json patch in the log: ' + log.split('\n').slice(-4).join(' | '));
      await page.evaluate(() => window.rlab.command('run 15s'));
      assert(workers(await state(page), 'boxed').length === 1, 'workers not scaled to 1');
    });

    await check('New fills the Manifest box; a scenario applies, selects and plays', async () => {
      await click(page, 'New');
      await click(page, 'new.rayjob');
      const filled = await page.evaluate(() => window.rlab.textProbe());
      assert(filled.some((d) => d.data && /kind: RayJob/.test(d.t)), 'New did not fill the Manifest box');
      await click(page, 'manifest.apply');
      let st = await state(page);
      if (!st.objects.some((o) => o.kind === 'RayJob' && o.name === 'sample-job')) {
        await shot(page, 'do-new-apply-failed.png');
        const drawn = (await page.evaluate(() => window.rlab.textProbe())).filter((d) => /manifest|result/.test(d.win)).map((d) => d.t.slice(0, 80));
        throw new Error('New + Apply made no RayJob; lastOk=' + st.lastOk + '; manifest panel shows ' + JSON.stringify(drawn.slice(0, 6)));
      }
      await click(page, 'Scenario');
      await click(page, 'scenario.rayservice');
      st = await state(page);
      const v = await view(page);
      assert(st.objects.some((o) => o.kind === 'RayService' && o.name === 'fruit'), 'no RayService');
      assert(v.selected === 'RayService/default/fruit' && st.playing, 'scenario did not select and play');
      await page.evaluate(() => window.rlab.play(false));
    });

    await check('lesson 1 step 2: Show solution shows its manifest, which opens in the Manifest box', async () => {
      const p2 = await newPage(browser, base, { query: '?lesson=01-hello-raycluster&step=2&lang=en' });
      const hidden = await p2.evaluate(() => window.rlab.textProbe());
      assert(!hidden.some((d) => /kind: RayCluster/.test(d.t)), 'the solution shows before it is asked for');
      await reveal(p2, 'lesson.solution', 'lesson.body');
      await click(p2, 'lesson.solution');
      await reveal(p2, 'lesson.manifest.0', 'lesson.body');
      await shot(p2, 'do-lesson-solution.png');
      const texts = await p2.evaluate(() => window.rlab.textProbe());
      assert(texts.some((d) => /kind: RayCluster/.test(d.t)), 'the lesson does not show the manifest');
      await click(p2, 'lesson.manifest.0');
      const probe = await p2.evaluate(() => window.rlab.textProbe());
      assert(probe.some((d) => d.data && /name: hello/.test(d.t) && /##manifest/.test(d.win)), 'the Manifest box was not filled');
      await shot(p2, 'do-lesson-manifest.png');
      await p2.context().close();
    });

    await check('Chinese: the language button, then no Latin-only label in any drawn frame', async () => {
      const btn = await rect(page, 'lang');
      assert(btn, 'no language button');
      const en = await page.evaluate(() => window.rlab.textProbe());
      assert(en.some((d) => d.t === '中文'), 'the English page does not draw 中文 on its button');
      await click(page, 'lang');
      for (let i = 0; i < 60 && (await view(page)).lang !== 'zh'; i++) await frames(page, 2);
      assert((await view(page)).lang === 'zh', 'not Chinese');
      assert(/[?&]lang=zh/.test(await page.evaluate(() => location.search)), 'lang=zh not in the URL');
      assert(await page.evaluate(() => localStorage.getItem('rlab.lang')) === 'zh', 'the language is not remembered');
      await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /cjk-sc\.otf$/.test(e.name)));
      await frames(page, 6);
      const offenders = new Map();
      const probe = async (what) => {
        const list = await page.evaluate(() => window.rlab.textProbe());
        for (const d of list) if (!d.data && latinOnly(d.t)) offenders.set(d.t, what + ' / ' + d.win);
        return list;
      };
      await page.evaluate(() => window.rlab.select('RayCluster/default/boxed'));
      const main = await probe('main view');
      assert(main.some((d) => d.t === 'English'), 'the Chinese page does not draw English on its button');
      await shot(page, 'do-zh-main.png');
      for (const menu of ['Scenario', 'New', 'Faults', 'View']) {
        await click(page, menu);
        await probe('menu ' + menu);
        if (menu === 'Faults') await shot(page, 'do-zh-faults.png');
        await key(page, 'Escape');
      }
      await reveal(page, 'inspector.edit', 'inspector');
      await click(page, 'inspector.edit');
      await probe('editor');
      await shot(page, 'do-zh-editor.png');
      await click(page, 'editor.cancel');
      await page.mouse.click(640, 400);
      await key(page, '?');
      await probe('shortcuts');
      await shot(page, 'do-zh-shortcuts.png');
      await key(page, 'Escape');
      await click(page, 'Lessons');
      await probe('lesson list');
      await click(page, 'Lessons');
      assert(offenders.size === 0, 'Latin-only labels in Chinese: ' +
             [...offenders].slice(0, 12).map(([t, w]) => JSON.stringify(t) + ' (' + w + ')').join(', '));
    });

    await check('the share link carries the view (selection, panels, language, lesson step)', async () => {
      await page.evaluate(() => window.rlab.select('RayCluster/default/boxed'));
      const link = await page.evaluate(() => window.rlab.shareLink());
      const url = new URL(link);
      assert(url.searchParams.get('select') === 'RayCluster/default/boxed', 'no select= in ' + link.slice(0, 200));
      assert(url.searchParams.get('lang') === 'zh', 'no lang=zh');
      assert(/manifest/.test(url.searchParams.get('panels') || ''), 'no panels=');
      const p3 = await newPage(browser, base, { query: url.search + url.hash });
      const v3 = await view(p3);
      assert(v3.selected === 'RayCluster/default/boxed' && v3.lang === 'zh', 'the view did not come back: ' + JSON.stringify(v3));
      assert(JSON.stringify(v3.panels) === JSON.stringify((await view(page)).panels), 'panels differ');
      await p3.context().close();
      // A lesson's step travels too, with the session replayed inside the lesson.
      const p4 = await newPage(browser, base, { query: '?lesson=01-hello-raycluster&step=1&lang=en' });
      assert(await p4.evaluate(() => window.rlab.lessonDo()), 'lesson step 1 not met');
      await p4.evaluate(() => window.rlab.lessonStep(2));
      assert(await p4.evaluate(() => window.rlab.lessonDo()), 'lesson step 2 not met');
      const st4 = await state(p4);
      const link4 = new URL(await p4.evaluate(() => window.rlab.shareLink()));
      assert(link4.searchParams.get('lesson') === '01-hello-raycluster' && link4.searchParams.get('step') === '2', 'lesson not in ' + link4.search);
      const p5 = await newPage(browser, base, { query: link4.search + link4.hash });
      const st5 = await state(p5);
      assert(st5.lesson && st5.lesson.step === 2, 'lesson step not restored: ' + JSON.stringify(st5.lesson));
      assert(JSON.stringify(st5.objects) === JSON.stringify(st4.objects) && st5.traceEvents === st4.traceEvents,
             `the lesson session differs: ${st5.traceEvents} vs ${st4.traceEvents} trace events`);
      await p5.context().close();
      await p4.context().close();
    });

    await check('embed.js passes the view (select, panels, lang) to the sandbox', async () => {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const p6 = await ctx.newPage();
      await p6.goto(base + 'examples/embed.html');
      await p6.evaluate(() => {
        const host = document.createElement('div');
        document.body.appendChild(host);
        const lab = window.ReconcileLab.mount(host, { lang: 'zh', select: 'Deployment/default/kuberay-operator',
                                                      panels: ['objects', 'inspector'], script: 'run 1s\n' });
        window.lab6 = lab;
      });
      // The iframe's address is set once the script is compressed (asynchronously).
      await p6.waitForFunction(() => window.lab6.iframe.src !== '', null, { timeout: 20000 });
      const src = await p6.evaluate(() => window.lab6.iframe.src);
      const q = new URL(src).searchParams;
      assert(q.get('lang') === 'zh' && q.get('select') === 'Deployment/default/kuberay-operator' && q.get('panels') === 'objects,inspector',
             'embed URL: ' + src);
      await p6.evaluate(() => window.lab6.ready);
      const frame = p6.frames().find((f) => f.url() === src || f.url().startsWith(src.split('#')[0]));
      assert(frame, 'no sandbox frame');
      const v = await frame.evaluate(() => window.rlab.view());
      assert(v.selected === 'Deployment/default/kuberay-operator' && v.lang === 'zh' &&
             JSON.stringify(v.panels) === '["objects","inspector"]', 'sandbox view: ' + JSON.stringify(v));
      await ctx.close();
    });
    await page.context().close();

    // Layout: each size in both languages, with a busy scene (a lesson open, a RayCluster running).
    const sizes = [
      { width: 1280, height: 720, dpr: 1 }, { width: 1366, height: 768, dpr: 1 },
      { width: 1920, height: 1080, dpr: 1 }, { width: 1280, height: 720, dpr: 2 },
      { width: 1024, height: 768, dpr: 1 },
    ];
    const figures = {};
    for (const dpr of [1, 2]) {
      const group = sizes.filter((s) => s.dpr === dpr);
      const lp = await newPage(browser, base, Object.assign({}, group[0], { query: '?lesson=01-hello-raycluster&step=2&lang=en' }));
      await lp.evaluate(() => window.rlab.command('run 3s'));
      await lp.evaluate(() => window.rlab.select('RayCluster/default/hello'));
      for (const lang of ['en', 'zh']) {
        await lp.evaluate((l) => window.rlab.lang(l), lang);
        if (lang === 'zh') await lp.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /cjk-sc\.otf$/.test(e.name)));
        for (const size of group) {
          const label = `${size.width}x${size.height}${dpr === 2 ? '@2x' : ''} ${lang}`;
          await check(`layout ${label}: no panels overlap, no label is cut`, async () => {
            await lp.setViewportSize({ width: size.width, height: size.height });
            await frames(lp, 6);
            const v = await view(lp);
            assert(v.narrow === (size.width < 1100), `narrow=${v.narrow} at ${size.width}`);
            figures[label] = await layoutCheck(lp, label, size);
            await shot(lp, `do-layout-${size.width}x${size.height}${dpr === 2 ? '@2x' : ''}-${lang}.png`);
          });
        }
      }
      await lp.context().close();
    }
    console.log('layout figures: ' + JSON.stringify(figures));

    await check('panels close and the layout resets', async () => {
      const p7 = await newPage(browser, base);
      const before = (await view(p7)).panels;
      await frames(p7, 2);
      const tab = await rect(p7, 'tab.metrics');
      assert(tab, 'no Metrics tab');
      // The tab's close button appears on hover, at its right end.
      await p7.mouse.move(tab.x + tab.w / 2, tab.y + tab.h / 2);
      await frames(p7, 3);
      // The close button: one font size wide, a frame padding (6) from the tab's right end.
      await p7.mouse.move(tab.x + tab.w - 13.5, tab.y + tab.h / 2);
      await frames(p7, 3);
      await p7.mouse.down();
      await frames(p7, 2);
      await p7.mouse.up();
      await frames(p7, 3);
      const closed = (await view(p7)).panels;
      assert(!closed.includes('metrics') && before.includes('metrics'), 'Metrics did not close: ' + closed);
      const rects = await p7.evaluate(() => window.rlab.itemRects());
      assert(!rects['panel.metrics'], 'a closed panel still has a rectangle');
      await layoutCheck(p7, 'after closing Metrics', { width: 1280, height: 720 });
      await shot(p7, 'do-layout-closed-metrics.png');
      await click(p7, 'View');
      await click(p7, 'view.reset');
      assert(JSON.stringify((await view(p7)).panels) === JSON.stringify(before), 'reset did not restore the panels');
      assert(p7.errors.length === 0, 'page errors: ' + p7.errors.join('; '));
      await p7.context().close();
    });
  } finally {
    await browser.close();
    server.close();
  }
  console.log(results.join('\n'));
  process.exit(failures ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
