// The README's embed snippet, as written, in a host page: README.md's ```html block is served
// next to build/web/dist (its `src="…/embed.js"` pointed at the dist folder's embed.js), the
// sandbox it mounts must become ready with the lesson it names, and its button must print the
// operator's answer into the page. Run by scripts/browser_test.sh with the other e2e*.js suites.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');
const { ROOT, serve, launch } = require('./harness');

const DIST = path.resolve(process.env.RLAB_DIST || path.join(ROOT, 'build/web/dist'));

const results = [];
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
function assert(cond, message) { if (!cond) throw new Error(message); }

// snippet is README.md's one ```html block.
function snippet() {
  const md = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const blocks = [...md.matchAll(/^```html\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  assert(blocks.length === 1, `README.md has ${blocks.length} html blocks, want 1`);
  return blocks[0];
}

async function main() {
  const html = snippet();
  const src = html.match(/<script src="([^"]*embed\.js)"><\/script>/);
  const dist = await serve(DIST);
  const distBase = `http://127.0.0.1:${dist.address().port}/`;
  // The host page lives on another origin, as a documentation site would.
  const page = '<!doctype html><meta charset="utf-8"><title>docs</title><body>\n' +
    (src ? html.replace(src[1], distBase + 'embed.js') : html) + '\n</body>';
  const host = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(page);
  });
  await new Promise((r) => host.listen(0, '127.0.0.1', r));
  const browser = await launch();
  try {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 800 }, deviceScaleFactor: 1 });
    const p = await ctx.newPage();
    const errors = [];
    p.on('pageerror', (e) => errors.push(e.message));

    await check('the snippet loads embed.js with one script tag', async () => {
      assert(src, 'no <script src="…/embed.js"> in the snippet:\n' + html);
      await p.goto(`http://127.0.0.1:${host.address().port}/`);
      await p.waitForFunction(() => window.ReconcileLab && typeof window.ReconcileLab.mount === 'function',
        null, { timeout: 10000 });
    });

    await check('the sandbox it mounts becomes ready, with the lesson it names open', async () => {
      const want = (html.match(/lesson: '([^']+)'/) || [])[1];
      assert(want, 'the snippet names no lesson');
      const frame = await (await p.waitForSelector('#lab iframe', { timeout: 10000 })).contentFrame();
      await frame.waitForFunction(() => window.rlab && window.rlab.ready === true, null, { timeout: 90000 });
      const st = await frame.waitForFunction(async () => {
        const s = await window.rlab.state();
        return s.lesson && s.lesson.id ? s : null;
      }, null, { timeout: 60000 }).then((h) => h.jsonValue());
      assert(st.lesson.id === want, 'lesson ' + JSON.stringify(st.lesson) + ', want ' + want);
      assert(errors.length === 0, 'page errors: ' + errors.join('; '));
    });

    await check('its button drives the sandbox and shows the answer in the host page', async () => {
      await p.click('#burst');
      const text = await p.waitForFunction(() => {
        const t = document.getElementById('out').textContent;
        return t.length > 0 ? t : null;
      }, null, { timeout: 60000 }).then((h) => h.jsonValue());
      // Four patches, all accepted, then the operator's log.
      const patched = (text.match(/inferenceservice\.inference\.io\/llama patched/g) || []).length;
      assert(patched === 4, 'want 4 patches in:\n' + text);
      assert(/reconcil/i.test(text.split('\n').slice(4).join('\n')), 'no operator log in:\n' + text);
      console.log(text);
      assert(errors.length === 0, 'page errors: ' + errors.join('; '));
    });
  } finally {
    await browser.close();
    dist.close();
    host.close();
  }
  console.log(results.join('\n'));
  process.exit(failures ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(1); });
