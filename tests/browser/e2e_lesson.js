// Browser test of a lesson played as a level (issue 51): lesson 1 from the picker to its recap with
// real clicks and typing only — a hint, a wrong answer marked, the console refusing to run before
// the question is answered, Next locked until the checklist holds, "Show me" selecting the proof,
// Back rewinding the simulation (object count and time as when the step began), and the picker
// showing the lesson completed with a star, also after a reload. window.rlab is only read (state,
// view, item rectangles). Screenshots go to build/web/screenshots/ (lesson-*.png).
// Run by scripts/browser_test.sh.
'use strict';
const fs = require('fs');
const path = require('path');
const { ROOT, serve, launch, waitReady } = require('./harness');
const { assert, frames, state, view, rect, click, reveal, key, typeText, screenshot, newPage } = require('./drive');

const DIST = path.join(ROOT, 'build/web/dist');
const SHOTS = path.join(ROOT, 'build/web/screenshots');
const LESSON = '01-hello-raycluster';
const AUTHORED = JSON.parse(fs.readFileSync(path.join(ROOT, 'lessons', LESSON, 'lesson.json'), 'utf8'));

const shot = (page, name) => screenshot(page, path.join(SHOTS, name));
const lesson = async (page) => (await state(page)).lesson;

// until polls the page's state until pred holds (the page runs between frames).
async function until(page, pred, what, tries = 120) {
  for (let i = 0; i < tries; i++) {
    const st = await state(page);
    if (pred(st)) return st;
    await frames(page, 3);
  }
  throw new Error('timed out waiting for ' + what + ': ' + JSON.stringify((await state(page)).lesson));
}

// pick clicks the shown option that holds authored option `want` (or any other when wrong=true).
async function pick(page, wrong) {
  const l = await lesson(page);
  const answer = AUTHORED.steps[l.step - 1].quiz.answer;
  const k = l.order.findIndex((authored) => (wrong ? authored !== answer : authored === answer));
  await reveal(page, 'lesson.option.' + k, 'lesson.body');
  await click(page, 'lesson.option.' + k);
  await reveal(page, 'lesson.answer', 'lesson.body');
  await click(page, 'lesson.answer');
  const after = await lesson(page);
  assert(after.answered === true, 'the answer was not taken: ' + JSON.stringify(after));
  return after;
}

// type runs a command in the console with the keyboard. ImGui takes typed characters a frame
// at a time (its input queue trickles), so Enter waits until they are all in.
async function type(page, command) {
  await click(page, 'console.input');
  await typeText(page, command);
  await key(page, 'Enter');
}

const counts = (st) => ({ time: st.timeMs, objects: st.objects.length });

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const server = await serve(DIST);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launch();
  const results = [];
  let failed = false;
  const page = await newPage(browser, base, { width: 1440, height: 900 });
  const step = async (name, fn) => {
    if (failed) { results.push(`skip  ${name}`); return; }
    const t = Date.now();
    try {
      await fn();
      results.push(`ok    ${name} (${Date.now() - t} ms)`);
    } catch (e) {
      failed = true;
      results.push(`FAIL  ${name}: ${e.message}`);
      await shot(page, 'lesson-failure.png').catch(() => {});
    }
  };
  let step2Start = null;
  try {
    await step('the picker groups the lessons into tracks, each with its goal', async () => {
      await click(page, 'Lessons');
      await until(page, () => true, 'the pane');
      await frames(page, 10);
      for (let i = 0; i < 40 && !(await rect(page, 'lesson.entry.' + LESSON)); i++) await frames(page, 3);
      for (const track of ['kuberay', 'machinery', 'inferenceservice']) {
        assert(await rect(page, 'lesson.track.' + track), 'no track ' + track);
      }
      await reveal(page, 'lesson.entry.' + LESSON, 'lesson.body');
      const texts = (await page.evaluate(() => window.rlab.textProbe())).map((d) => d.t);
      assert(texts.some((t) => /^KubeRay {2}· {2}0 of 7 completed/.test(t)), 'the KubeRay track heading: ' +
             texts.filter((t) => /completed/.test(t)).join(' | '));
      assert(texts.some((t) => t.startsWith('what the KubeRay operator does')),
             'lesson 1 shows no goal');
      await shot(page, 'lesson-picker.png');
      await click(page, 'lesson.entry.' + LESSON);
      const st = await until(page, (s) => s.lesson && s.lesson.id === LESSON, 'lesson 1 to open');
      assert(st.lesson.step === 1 && st.lesson.next === false, 'lesson 1 opened as ' + JSON.stringify(st.lesson));
    });

    await step('step 1: a hint, then a wrong answer is marked wrong and explained', async () => {
      await reveal(page, 'lesson.hint', 'lesson.body');
      await click(page, 'lesson.hint');
      assert((await lesson(page)).hints === 1, 'the hint was not shown');
      const l = await pick(page, /*wrong=*/true);
      assert(l.correct === false && l.done === true && l.next === true, 'after a wrong answer: ' + JSON.stringify(l));
      const texts = (await page.evaluate(() => window.rlab.textProbe())).map((d) => d.t);
      assert(texts.some((t) => t.includes('Not quite')), 'the wrong answer is not marked');
      assert(texts.some((t) => t.startsWith('An operator is a client like any other')), 'no explanation');
      await shot(page, 'lesson-wrong-answer.png');
      await click(page, 'lesson.next');
      step2Start = counts(await until(page, (s) => s.lesson.step === 2, 'step 2'));
    });

    await step('step 2: the console waits for the answer; Next stays locked until the checklist holds', async () => {
      await type(page, 'apply -f raycluster.yaml');
      let st = await state(page);
      assert(!st.objects.some((o) => o.kind === 'RayCluster'), 'apply ran before the question was answered');
      assert(st.lastOk === false, 'the refused command reported success');
      await type(page, 'get pods -A');
      assert((await state(page)).lastOk === true, 'a reading command was refused');
      await click(page, 'lesson.next');
      assert((await lesson(page)).step === 2, 'Next moved on with the checklist unmet');
      await pick(page, /*wrong=*/false);
      await type(page, 'apply -f raycluster.yaml');
      st = await state(page);
      assert(st.objects.some((o) => o.kind === 'RayCluster'), 'apply did not run after the answer');
      assert(st.lesson.next === false, 'Next opened before time passed: ' + JSON.stringify(st.lesson));
      await type(page, 'run 1s');
      st = await until(page, (s) => s.lesson.done, 'step 2 checks');
      assert(st.lesson.checks.every(Boolean) && st.lesson.correct === true && st.lesson.proofSeq > 0,
             'step 2 after the run: ' + JSON.stringify(st.lesson));
      const drawn = (await page.evaluate(() => window.rlab.textProbe())).map((d) => d.t);
      assert(drawn.some((t) => t.includes('$ run 1s')), 'the console does not show the typed command');
      assert(!drawn.some((t) => /\$ expect |expect trace /.test(t)), 'checks were printed into the console');
      await reveal(page, 'lesson.showme', 'lesson.body');
      await click(page, 'lesson.showme');
      st = await state(page);
      assert(st.selectedSeq === st.lesson.proofSeq && st.selectedType === 'reconcile.end',
             `Show me selected ${st.selectedSeq} (${st.selectedType}), want ${st.lesson.proofSeq}`);
      await shot(page, 'lesson-show-me.png');
      await click(page, 'lesson.next');
      await until(page, (s) => s.lesson.step === 3, 'step 3');
    });

    await step('step 3: Back rewinds the simulation to where step 2 began', async () => {
      await pick(page, /*wrong=*/false);
      await type(page, "wait --for=jsonpath='{.status.state}'=ready raycluster/hello --timeout=60s");
      const moved = await state(page);
      assert(moved.objects.length > step2Start.objects && moved.timeMs > step2Start.time, 'step 3 changed nothing');
      await click(page, 'lesson.back');
      const back = await until(page, (s) => s.lesson.step === 2, 'Back to step 2');
      assert(back.timeMs === step2Start.time && back.objects.length === step2Start.objects,
             `after Back: t=${back.timeMs} ms, ${back.objects.length} objects; step 2 began at t=${step2Start.time} ms, ${step2Start.objects} objects`);
      assert(back.lesson.done === false && back.lesson.answered === false, 'step 2 is not fresh: ' + JSON.stringify(back.lesson));
      await shot(page, 'lesson-back.png');
    });

    await step('the rest of the lesson, typed; the recap offers the next lesson', async () => {
      await pick(page, false);
      await type(page, 'apply -f raycluster.yaml');
      await type(page, 'run 1s');
      await until(page, (s) => s.lesson.done, 'step 2 again');
      await click(page, 'lesson.next');
      await until(page, (s) => s.lesson.step === 3, 'step 3 again');
      await pick(page, false);
      await type(page, "wait --for=jsonpath='{.status.state}'=ready raycluster/hello --timeout=60s");
      await until(page, (s) => s.lesson.done, 'step 3 checks');
      await click(page, 'lesson.next');
      await until(page, (s) => s.lesson.step === 4, 'step 4');
      await pick(page, false);
      await click(page, 'lesson.next');
      const st = await until(page, (s) => s.lesson.step === 5, 'the recap');
      assert(st.lesson.star === true, 'solved without the solution but no star');
      assert(await rect(page, 'lesson.next_lesson'), 'the recap has no Next lesson button');
      await shot(page, 'lesson-recap.png');
    });

    await step('the picker shows lesson 1 completed with a star, also after a reload', async () => {
      await click(page, 'lesson.all');
      await frames(page, 5);
      assert((await view(page)).completed[LESSON] === 'star', 'picker: ' + JSON.stringify((await view(page)).completed));
      await shot(page, 'lesson-picker-done.png');
      await page.reload();
      await waitReady(page);
      await frames(page, 3);
      await click(page, 'Lessons');
      for (let i = 0; i < 40 && !(await view(page)).completed[LESSON]; i++) await frames(page, 3);
      assert((await view(page)).completed[LESSON] === 'star', 'after a reload: ' + JSON.stringify((await view(page)).completed));
    });
    assert(page.errors.length === 0, 'page errors: ' + page.errors.join('; '));
  } finally {
    await browser.close();
    server.close();
  }
  for (const r of results) console.log(r);
  if (failed) process.exit(1);
  console.log('e2e_lesson: all ok');
}

main().catch((e) => { console.error(e); process.exit(1); });
