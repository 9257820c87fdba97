// The real mouse and keyboard on the page, for the browser suites: wait frames, read
// window.rlab's state and recorded item rectangles, click a recorded ImGui item as a person would
// (hover, press, release in separate frames), scroll a panel until an item is inside it, and open
// the page in a fresh context, type into the focused field. Only reading goes through window.rlab;
// acting is done with input.
'use strict';
const { waitReady } = require('./harness');

function assert(cond, message) { if (!cond) throw new Error(message); }

const frames = (page, n) => page.evaluate((n) => new Promise((r) => {
  let k = 0; const f = () => (++k >= n ? r() : requestAnimationFrame(f)); requestAnimationFrame(f);
}), n);
const state = (page) => page.evaluate(() => window.rlab.state());
const view = (page) => page.evaluate(() => window.rlab.view());
const rect = (page, name) => page.evaluate((n) => window.rlab.itemRect(n), name);

// click moves the real mouse onto a recorded item and clicks it (ImGui sees hover, press, release
// in separate frames, as from a person), then lets `settle` frames pass (0 for a click that
// reopens the page, which is gone by then).
async function click(page, name, { settle = 3 } = {}) {
  await frames(page, 2);
  const box = await rect(page, name);
  assert(box && box.w > 2 && box.h > 2, `no item ${name}: ${JSON.stringify(box)}`);
  await page.mouse.move(box.x + box.w / 2, box.y + box.h / 2);
  await frames(page, 2);
  await page.mouse.down();
  await frames(page, 2);
  await page.mouse.up();
  if (settle > 0) await frames(page, settle);
  return box;
}
// reveal scrolls a panel with the mouse wheel until a recorded item is inside it. `panel` is a
// panel's id ("lesson": panel.lesson) or a recorded scrolling region ("lesson.body").
async function reveal(page, name, panel) {
  const region = panel.includes('.') ? panel : 'panel.' + panel;
  for (let i = 0; i < 30; i++) {
    await frames(page, 2);
    const r = await rect(page, name);
    const p = await rect(page, region);
    assert(r && p, `no ${name} or panel ${panel}`);
    if (r.y >= p.y && r.y + r.h <= p.y + p.h) return r;
    await page.mouse.move(p.x + p.w / 2, p.y + p.h / 2);
    await page.mouse.wheel(0, r.y + r.h > p.y + p.h ? 80 : -80);
  }
  throw new Error(`${name} never came into view in ${panel}`);
}
async function key(page, k) {
  await page.keyboard.press(k);
  await settleInput(page);
}
// settleInput lets frames pass until the UI has taken every input event the browser delivered
// (Dear ImGui takes a few a frame), then one more so what they did is drawn.
async function settleInput(page) {
  for (let i = 0; i < 600 && (await page.evaluate(() => window.rlab.inputQueued())) > 0; i++) {
    await frames(page, 1);
  }
  await frames(page, 2);
}
// typeText types with the real keyboard into the focused field and waits until all of it is in.
async function typeText(page, text) {
  await page.keyboard.type(text);
  await settleInput(page);
}

async function screenshot(page, file) {
  await frames(page, 3);
  await page.screenshot({ path: file });
}

// newPage opens the page in a context with the clipboard granted; welcome=false marks the
// first-run card as seen (localStorage) so it does not cover the panels.
async function newPage(browser, base, { width = 1280, height = 720, dpr = 1, welcome = false, query = '' } = {}) {
  const ctx = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: dpr });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base.replace(/\/$/, '') });
  if (!welcome) await ctx.addInitScript(() => localStorage.setItem('rlab.welcome', 'free'));
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.errors = errors;
  await page.goto(base + 'index.html' + query);
  await waitReady(page);
  await frames(page, 3);
  return page;
}

module.exports = { assert, frames, state, view, rect, click, reveal, key, settleInput, typeText, screenshot,
                   newPage };
