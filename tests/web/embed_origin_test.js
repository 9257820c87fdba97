// The postMessage contract of the embedded sandbox (docs/embedding.md, "postMessage protocol"):
// rlab-shell.js takes commands only from its parent window at the origin named by ?hostOrigin=
// and answers to that origin only; embed.js reads only its iframe's messages at the sandbox's
// origin and sends commands to that origin only. Runs both files in Node against a stub DOM.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const staticDir = path.join(__dirname, '..', '..', 'web', 'static');

// anything() stands in for every DOM object the page touches at load: each property is another
// stub and each call returns one.
function anything() {
  const f = function () { return anything(); };
  return new Proxy(f, {
    get: (t, k) => (k === Symbol.toPrimitive ? () => '' : k in t ? t[k] : (t[k] = anything())),
    set: (t, k, v) => { t[k] = v; return true; },
  });
}

async function shellTest() {
  const posted = [];
  const parent = { postMessage: (msg, origin) => posted.push({ msg, origin }) };
  const listeners = {};
  const window = {
    parent,
    addEventListener: (type, fn) => { listeners[type] = fn; },
  };
  const location = new URL('https://sandbox.example/rlab/index.html?embed=1&hostOrigin=https://docs.example');
  const ctx = {
    window, location, URLSearchParams, URL, TextEncoder, TextDecoder, performance, WebAssembly,
    console, setTimeout, clearTimeout, setInterval: () => 0,
    localStorage: { getItem: () => null, setItem: () => {} },
    document: anything(),
  };
  ctx.window.document = ctx.document;
  vm.createContext(ctx);
  vm.runInContext(fs.readFileSync(path.join(staticDir, 'rlab-shell.js'), 'utf8'), ctx);
  assert.ok(listeners.message, 'the shell listens for messages');
  window.rlab = { command: async (t) => 'ran: ' + t, state: async () => ({ time: '0s' }) };

  const command = (id) => ({ source: 'rlab-host', type: 'command', id, text: 'get pods' });
  const deliver = async (e) => { await listeners.message(e); await new Promise((r) => setImmediate(r)); };

  // Another origin, even from the parent: ignored.
  await deliver({ source: parent, origin: 'https://evil.example', data: command(1) });
  // Another window (a sibling frame, an opener) at the named origin: ignored.
  await deliver({ source: { postMessage: () => assert.fail('answered a stranger') },
                  origin: 'https://docs.example', data: command(2) });
  assert.deepStrictEqual(posted, [], 'nothing is answered to a stranger');

  // The parent at the named origin: run, and answered to that origin only.
  await deliver({ source: parent, origin: 'https://docs.example', data: command(3) });
  assert.strictEqual(posted.length, 1);
  assert.strictEqual(posted[0].origin, 'https://docs.example');
  assert.strictEqual(posted[0].msg.id, 3);
  assert.strictEqual(posted[0].msg.output, 'ran: get pods');
  await deliver({ source: parent, origin: 'https://docs.example',
                  data: { source: 'rlab-host', type: 'state', id: 4 } });
  assert.strictEqual(posted[1].origin, 'https://docs.example');
  assert.deepStrictEqual(posted[1].msg.state, { time: '0s' });
  for (const p of posted) assert.notStrictEqual(p.origin, '*');
}

async function embedTest() {
  const listeners = {};
  const sent = [];
  const iframeWindow = { postMessage: (msg, origin) => sent.push({ msg, origin }) };
  const iframe = anything();
  iframe.contentWindow = iframeWindow;
  const el = { appendChild: () => {} };
  const window = { addEventListener: (type, fn) => { listeners[type] = fn; } };
  const document = {
    currentScript: { src: 'https://sandbox.example/rlab/embed.js' },
    createElement: () => iframe,
    querySelector: () => el,
  };
  const ctx = { window, document, location: new URL('https://docs.example/guide.html'),
                URLSearchParams, URL, Promise, console };
  vm.createContext(ctx);
  vm.runInContext(fs.readFileSync(path.join(staticDir, 'embed.js'), 'utf8'), ctx);
  const lab = window.ReconcileLab.mount('#lab', {});
  await new Promise((r) => setImmediate(r));
  const src = new URL(iframe.src);
  assert.strictEqual(src.searchParams.get('hostOrigin'), 'https://docs.example',
                     'the sandbox is told the embedding page\'s origin');

  // A ready message from another origin or another window does not count.
  listeners.message({ source: iframeWindow, origin: 'https://evil.example', data: { source: 'rlab', type: 'ready' } });
  listeners.message({ source: {}, origin: 'https://sandbox.example', data: { source: 'rlab', type: 'ready' } });
  let ready = false;
  lab.ready.then(() => { ready = true; });
  await new Promise((r) => setImmediate(r));
  assert.strictEqual(ready, false, 'only the sandbox at its origin is heard');
  listeners.message({ source: iframeWindow, origin: 'https://sandbox.example', data: { source: 'rlab', type: 'ready' } });
  const out = lab.command('get pods');
  await new Promise((r) => setImmediate(r));
  assert.strictEqual(sent.length, 1);
  assert.strictEqual(sent[0].origin, 'https://sandbox.example', 'commands go to the sandbox\'s origin only');
  listeners.message({ source: iframeWindow, origin: 'https://sandbox.example',
                      data: { source: 'rlab', type: 'result', id: sent[0].msg.id, output: 'ok' } });
  assert.strictEqual(await out, 'ok');

  // allowOrigin names another origin for the sandbox to trust.
  window.ReconcileLab.mount('#lab', { allowOrigin: 'https://lessons.example' });
  await new Promise((r) => setImmediate(r));
  assert.strictEqual(new URL(iframe.src).searchParams.get('hostOrigin'), 'https://lessons.example');
}

(async () => {
  await shellTest();
  await embedTest();
  console.log('embed_origin_test: OK');
})().catch((e) => { console.error(e); process.exit(1); });
