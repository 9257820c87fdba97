// Browser test of the Code pane (issue 53): the learner's reconciler in JavaScript, run in the
// page. The start build has no JavaScript engine (its files are checked); opening the Code pane
// with the mouse switches to the engine build, which replays the session (a ConfigMap made
// before stays, its selection too). The ConfigMap mirror starter is picked and Run; a ConfigMap
// gets its mirror. Then a small change typed with real keystrokes (the mirror's name suffix) and
// Reload change what the controller does; a syntax error typed in (Tab inserting two spaces)
// marks its line, Ctrl+Enter's reload is refused and the old code keeps running. Then a fresh start-build page answers a
// typed `operator load` with a clear message, switches, and runs it there. Last, lesson 20 (the learner
// writes the reconciler) opens on the engine build from its address, its setup loads the starter, which
// the Code pane then holds; "Do it for me" meets step 1's checks, and step 2's reference module, opened
// from the solution in the Code pane and reloaded there, meets step 2's. Screenshots of the
// pane in English and Chinese go to build/web/screenshots/ (code-*.png).
// Run by scripts/browser_test.sh.
'use strict';
const fs = require('fs');
const path = require('path');
const { ROOT, serve, launch, waitReady } = require('./harness');
const { assert, frames, state, view, rect, click, key, reveal, settleInput, typeText, screenshot,
  newPage } = require('./drive');

const DIST = path.join(ROOT, 'build/web/dist');
const SHOTS = path.join(ROOT, 'build/web/screenshots');
const STARTER = 'configmap-mirror';
const LESSON = '20-your-first-reconciler';
const AUTHORED = JSON.parse(fs.readFileSync(path.join(ROOT, 'lessons', LESSON, 'lesson.json'), 'utf8'));

const shot = (page, name) => screenshot(page, path.join(SHOTS, name));
const code = async (page) => (await view(page)).code;
const objectNames = (st, kind) => st.objects.filter((o) => o.kind === kind).map((o) => o.name);
const command = (page, text) => page.evaluate((t) => window.rlab.command(t), text);

// until polls fn(page) until pred holds (the page runs between frames).
async function until(page, fn, pred, what, tries = 60) {
  let last;
  for (let i = 0; i < tries; i++) {
    last = await fn(page);
    if (pred(last)) return last;
    await frames(page, 2);
  }
  throw new Error('timed out waiting for ' + what + ': ' + JSON.stringify(last).slice(0, 600));
}

// engineSwitch waits for the page to reopen on the engine build and be ready.
async function engineSwitch(page) {
  await page.waitForURL(/engine=1/, { timeout: 30000 });
  await waitReady(page);
  await frames(page, 3);
  assert(await page.evaluate(() => window.rlab.engine()), 'the page is not the engine build');
}

const configMap = (name, extra = '') =>
  `apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: default\n` +
  `  labels: {mirror: "true"}\ndata: {colour: blue${extra}}\nEOF\n`;

// moveTo puts the editor's cursor at byte offset `target` of its text as a person would: the
// mouse wheel scrolls the field until the line shows, a click past the line's end puts the
// cursor there, and Left moves it back to the spot. It checks where the cursor landed.
async function moveTo(page, target) {
  const text = (await code(page)).text;
  const line = text.slice(0, target).split('\n').length - 1;
  const lineEnd = text.indexOf('\n', target) < 0 ? text.length : text.indexOf('\n', target);
  for (let i = 0; i < 20; i++) {
    const first = await rect(page, 'code.line1');
    const field = await rect(page, 'code.text');
    const y = first.y + (line + 0.5) * first.h;
    if (y > field.y + first.h && y < field.y + field.h - 2 * first.h) {
      await page.mouse.move(field.x + field.w - 24, y);
      await frames(page, 2);
      await page.mouse.down();
      await frames(page, 2);
      await page.mouse.up();
      await frames(page, 2);
      break;
    }
    await page.mouse.move(field.x + field.w / 2, field.y + field.h / 2);
    await page.mouse.wheel(0, y - (field.y + field.h / 2));
    await frames(page, 3);
  }
  await until(page, code, (x) => x.cursor === lineEnd, 'the cursor at the end of line ' + (line + 1), 20);
  for (let i = 0; i < lineEnd - target; i++) await page.keyboard.press('ArrowLeft');
  return until(page, code, (x) => x.cursor === target, 'the cursor at ' + target, 40);
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const server = await serve(DIST);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launch();
  const results = [];
  let failed = false;
  let page = null;
  const step = async (name, fn) => {
    if (failed) { results.push(`skip  ${name}`); return; }
    const t = Date.now();
    try {
      await fn();
      results.push(`ok    ${name} (${Date.now() - t} ms)`);
    } catch (e) {
      failed = true;
      results.push(`FAIL  ${name}: ${e.message}`);
      if (page) await shot(page, 'code-failure.png').catch(() => {});
    }
  };
  try {
    await step('the start build loads without the engine', async () => {
      page = await newPage(browser, base, { width: 1440, height: 900 });
      assert(!(await page.evaluate(() => window.rlab.engine())), 'the start page has the engine');
      const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
      assert(loaded.some((u) => u.endsWith('/rlab.wasm')), 'rlab.wasm not loaded: ' + loaded.join(' '));
      assert(!loaded.some((u) => u.includes('rlab-js')), 'the engine build loaded at start');
      const report = fs.readFileSync(path.join(DIST, 'size-report.txt'), 'utf8');
      assert(/budget \d+ bytes gzip: within/.test(report), 'start bundle over budget:\n' + report);
      assert(/^engine build\s+\d+\s+\d+$/m.test(report), 'the size report lists no engine build:\n' + report);
      const out = await command(page, configMap('settings'));
      assert(/created/.test(out), out);
      assert(await page.evaluate(() => window.rlab.select('ConfigMap/default/settings')), 'select');
    });

    await step('opening the Code pane with the mouse switches to the engine build, session kept', async () => {
      await page.evaluate(() => window.rlab.speed(4));
      await click(page, 'View');
      await click(page, 'view.code', { settle: 0 });
      await engineSwitch(page);
      const v = await view(page);
      assert(v.panels.includes('code'), 'the Code pane is not open: ' + v.panels);
      assert(v.speed === 4, 'the playback speed was not handed over: ' + v.speed);
      // Writing code takes the larger share of the centre column; the loop view stays above.
      await frames(page, 3);
      const pane = await rect(page, 'panel.code'), loop = await rect(page, 'panel.loop');
      assert(pane && loop && pane.h > 1.5 * loop.h && loop.h > 100,
             'the Code pane is not the taller one: ' + JSON.stringify({ pane, loop }));
      assert(v.selected === 'ConfigMap/default/settings', 'selection lost: ' + v.selected);
      const st = await state(page);
      assert(objectNames(st, 'ConfigMap').includes('settings'), 'the session was not replayed');
    });

    await step('the ConfigMap mirror starter runs and mirrors a ConfigMap', async () => {
      await click(page, 'code.starter');
      await click(page, 'code.starter.' + STARTER);
      const c = await until(page, code, (x) => x.starter === STARTER && x.text.includes('reconcile'), 'the starter');
      assert(c.name === STARTER && !c.loaded, JSON.stringify(c).slice(0, 300));
      await click(page, 'code.run');
      const ran = await until(page, code, (x) => x.loaded, 'operator load');
      assert(ran.resultOk && ran.errorLine === 0, 'Run failed: ' + ran.result);
      const log = await page.evaluate(() => window.rlab.shareScript());
      assert(log.includes(`operator load ${STARTER} -`) && log.includes("source.metadata.name + '-mirror'"),
             'the command log does not carry the code:\n' + log.slice(0, 400));
      await command(page, 'run 10s');
      const st = await state(page);
      assert(objectNames(st, 'ConfigMap').includes('settings-mirror'), 'no mirror: ' + objectNames(st, 'ConfigMap'));
      assert(st.loop && st.loop.controller === STARTER, 'the loop view does not show the learner\'s controller: ' +
             JSON.stringify(st.loop && st.loop.controller));
      await shot(page, 'code-run.png');
    });

    await step('a change typed with real keystrokes and Reload changes the behaviour', async () => {
      const c = await code(page);
      const at = c.text.indexOf("'-mirror'");
      assert(at > 0, 'the starter has no -mirror suffix');
      await moveTo(page, at + "'-mirror".length);
      for (let i = 0; i < 'mirror'.length; i++) await page.keyboard.press('Backspace');
      await settleInput(page);
      await typeText(page, 'copy');
      const edited = await until(page, code, (x) => x.text.includes("'-copy'"), 'the typed change');
      assert(!edited.text.includes("'-mirror'"), 'the old suffix is still there');
      await click(page, 'code.reload');
      const reloaded = await until(page, code, (x) => /reloaded/.test(x.result), 'operator reload');
      assert(reloaded.resultOk, reloaded.result);
      await command(page, 'mark reloaded');
      await command(page, configMap('colours'));
      await command(page, 'run 10s');
      const names = objectNames(await state(page), 'ConfigMap');
      assert(names.includes('colours-copy') && !names.includes('colours-mirror'),
             'the new code did not run: ' + names);
      // The trace shows the learner's controller writing the new name (its ServiceAccount).
      const seen = await command(page, `expect trace api.request verb=create kind=ConfigMap name=colours-copy --since reloaded --min 1`);
      assert(!/error/.test(seen), 'no create of colours-copy in the trace: ' + seen);
    });

    await step('a syntax error marks its line; Ctrl+Enter is refused and the old code runs on', async () => {
      const c = await code(page);
      const lines = c.text.split('\n');
      const k = lines.findIndex((l) => l.includes("'-copy'"));
      assert(k >= 0, 'the edited line is gone');
      const at = lines.slice(0, k + 1).join('\n').length;
      const expected = c.text.slice(0, at) + ' +\n)  ' + c.text.slice(at);  // Tab: two spaces
      await moveTo(page, at);
      await typeText(page, ' +');  // `... + '-copy'; +` : the statement never ends
      await key(page, 'Enter');
      await typeText(page, ')');
      await key(page, 'Tab');
      await key(page, 'Control+Enter');
      const bad = await until(page, code, (x) => !x.resultOk && x.errorLine > 0, 'the syntax error');
      assert(bad.errorLine >= k + 1 && bad.errorLine <= k + 2, `error on line ${bad.errorLine}, typed on ${k + 1}: ${bad.result}`);
      assert(/SyntaxError/.test(bad.result), bad.result);
      assert(bad.text === expected, 'the text is not what was typed (did Ctrl+Enter add a newline?)');
      const gutter = await rect(page, 'code.line1');
      assert(gutter && gutter.h > 4, 'no line geometry');
      await command(page, configMap('after-error'));
      await command(page, 'run 10s');
      const names = objectNames(await state(page), 'ConfigMap');
      assert(names.includes('after-error-copy'), 'the old code stopped: ' + names);
      await shot(page, 'code-error-en.png');
    });

    await step('the pane in Chinese', async () => {
      await page.evaluate(() => window.rlab.lang('zh'));
      await frames(page, 4);
      const probe = await page.evaluate(() => window.rlab.textProbe());
      const labels = probe.filter((d) => !d.data).map((d) => d.t);
      assert(labels.includes('运行') && labels.includes('重新加载'), 'no Chinese Run/Reload: ' + labels.slice(0, 40));
      assert(!labels.includes('Run'), 'English label left: Run');
      await shot(page, 'code-error-zh.png');
      await page.evaluate(() => window.rlab.lang('en'));
    });

    await step('a share link of the session opens on the engine build and replays the code', async () => {
      const link = await page.evaluate(() => window.rlab.shareLink());
      const other = await newPage(browser, base, { width: 1280, height: 720, query: link.slice(link.indexOf('?')) });
      try {
        const loaded = await other.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
        assert(loaded.some((u) => u.endsWith('/rlab-js.wasm')) && !loaded.some((u) => u.endsWith('/rlab.wasm')),
               'not loaded as the engine build: ' + loaded.filter((u) => u.includes('wasm')).join(' '));
        const st = await until(other, state, (x) => !x.replay.active, 'the replay');
        const names = objectNames(st, 'ConfigMap');
        assert(names.includes('colours-copy') && names.includes('after-error-copy') && names.includes('settings-mirror'),
               'the replayed session differs: ' + names);
      } finally {
        await other.context().close();
      }
    });

    await step('the start build answers operator load clearly, then runs it in the engine build', async () => {
      await page.context().close();
      page = await newPage(browser, base, { width: 1280, height: 720 });
      assert(!(await page.evaluate(() => window.rlab.engine())), 'fresh page is the engine build');
      const module = fs.readFileSync(path.join(ROOT, 'examples/operators', STARTER + '.js'), 'utf8');
      const out = await command(page, `operator load m2 - <<'EOF'\n${module}EOF\n`);
      assert(/JavaScript engine/.test(out), 'unclear answer: ' + out);
      await engineSwitch(page);
      const st = await until(page, state, (s) => s.objects.some((o) => o.kind === 'Deployment' && o.name === 'm2'),
                             'the pending operator load');
      assert(st, 'no m2');
    });

    await step('lesson 20 opens on the engine build with its starter in the Code pane; Do it for me and Reload meet its steps', async () => {
      await page.context().close();
      page = await newPage(browser, base, { width: 1440, height: 900, query: `?lesson=${LESSON}&lang=en` });
      const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
      assert(loaded.some((u) => u.endsWith('/rlab-js.wasm')) && !loaded.some((u) => u.endsWith('/rlab.wasm')),
             'the lesson did not open on the engine build: ' + loaded.filter((u) => u.includes('wasm')).join(' '));
      let st = await until(page, state, (s) => s.lesson && s.lesson.id === LESSON && s.lesson.step === 1, 'the lesson');
      assert(objectNames(st, 'ConfigMap').includes('settings-mirror'), 'the setup\'s starter made no mirror: ' +
             objectNames(st, 'ConfigMap'));
      assert(st.loop && st.loop.controller === 'configmap-mirror', 'the loop view is not on the learner\'s controller');
      // The Code pane holds the module the setup loaded, under its operator's name: Reload swaps it.
      const c = await code(page);
      const starter = fs.readFileSync(path.join(ROOT, 'lessons', LESSON, 'starter.js'), 'utf8');
      assert(c.name === 'configmap-mirror' && c.text === starter && c.loaded,
             'the Code pane does not hold the lesson\'s starter: ' + JSON.stringify(c).slice(0, 300));
      // answer locks in the right option of step n.
      const answer = async (n) => {
        const l = (await state(page)).lesson;
        assert(l.step === n && !l.done, `step ${n} is not fresh: ` + JSON.stringify(l));
        const k = l.order.indexOf(AUTHORED.steps[n - 1].quiz.answer);
        await reveal(page, 'lesson.option.' + k, 'lesson.body');
        await click(page, 'lesson.option.' + k);
        await reveal(page, 'lesson.answer', 'lesson.body');
        await click(page, 'lesson.answer');
      };
      const met = async (n) => {
        const s = await until(page, state, (x) => x.lesson.done, `step ${n}'s checks`);
        assert(s.lesson.checks.every(Boolean) && s.lesson.correct === true && s.lesson.proofSeq > 0,
               `step ${n}: ` + JSON.stringify(s.lesson));
        await click(page, 'lesson.next');
      };
      // Step 1: "Do it for me".
      await answer(1);
      await reveal(page, 'lesson.solution', 'lesson.body');
      await click(page, 'lesson.solution');
      await reveal(page, 'lesson.do', 'lesson.body');
      await click(page, 'lesson.do');
      await met(1);
      // Step 2: the reference module, opened from the solution in the Code pane and reloaded there.
      await answer(2);
      await reveal(page, 'lesson.solution', 'lesson.body');
      await click(page, 'lesson.solution');
      await reveal(page, 'lesson.code.0', 'lesson.body');
      await shot(page, 'code-lesson20-solution.png');
      await click(page, 'lesson.code.0');
      const opened = await until(page, code, (x) => x.text.includes('ctx.client.update(mirror)'), 'the module in the Code pane');
      assert(opened.name === 'configmap-mirror' && opened.loaded, 'not the running operator: ' + opened.name);
      await click(page, 'code.reload');
      const reloaded = await until(page, code, (x) => /reloaded/.test(x.result), 'the Code pane\'s Reload');
      assert(reloaded.resultOk, reloaded.result);
      await command(page, 'run 5s');
      await met(2);
      // The reloaded module, running in the page, wrote the mirror as its ServiceAccount.
      const seen = await command(page, 'expect trace api.request verb=update kind=ConfigMap name=settings-mirror ' +
                                 'user=system:serviceaccount:default:configmap-mirror code=200 --since fixed --min 1');
      assert(!/error/.test(seen), 'no update by the reloaded module: ' + seen);
      await shot(page, 'code-lesson20.png');
      // Opened at step 3, the steps before are played with their solutions: the Code pane then
      // holds the module step 2's solution reloaded, not the starter.
      await page.context().close();
      page = await newPage(browser, base, { width: 1280, height: 720, query: `?lesson=${LESSON}&step=3&lang=en` });
      await until(page, state, (s) => s.lesson && s.lesson.id === LESSON && s.lesson.step === 3, 'step 3');
      const later = await until(page, code, (x) => x.text.includes('ctx.client.update(mirror)'), 'the solution\'s module');
      assert(later.name === 'configmap-mirror' && later.loaded, 'not the running operator: ' + later.name);
    });
  } finally {
    if (page) await page.context().close().catch(() => {});
    await browser.close();
    server.close();
  }
  for (const r of results) console.log(r);
  if (failed) process.exit(1);
}

main().catch((e) => { console.error(e); process.exit(1); });
