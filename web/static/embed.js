// embed.js: put a Reconcile Lab sandbox in any page.
//   const lab = ReconcileLab.mount(element, {lesson, step, lang, script, select, panels, height,
//                                            readonly, allowOrigin});
//   await lab.ready;  await lab.command('get pods');  const s = await lab.state();
//   lab.on('ready' | 'error' | 'message', fn)
// The sandbox runs in an iframe (index.html?embed=1) and talks over postMessage with
// {source: "rlab", type, ...} messages (DESIGN.md "Embedding contract").
(function (global) {
  'use strict';
  const here = (document.currentScript && document.currentScript.src) || location.href;
  const base = here.replace(/[^/]*([?#].*)?$/, '');
  // The sandbox's origin: the only one whose messages are read and that commands are sent to.
  const sandboxOrigin = new URL(base, location.href).origin;

  function encodeScript(script) {
    const raw = new TextEncoder().encode(script);
    if (raw.length > 16 * 1024) return Promise.reject(new Error('script is larger than 16 KB'));
    const stream = new Blob([raw]).stream().pipeThrough(new CompressionStream('deflate-raw'));
    return new Response(stream).arrayBuffer().then((buf) => {
      const bytes = new Uint8Array(buf);
      let s = '';
      for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
      return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    });
  }

  function mount(el, options) {
    const opts = options || {};
    if (typeof el === 'string') el = document.querySelector(el);
    if (!el) throw new Error('ReconcileLab.mount: no element');
    const iframe = document.createElement('iframe');
    iframe.title = 'Reconcile Lab sandbox';
    iframe.style.cssText = 'width:100%;border:0;border-radius:6px;display:block;background:#17191f;height:' +
      (typeof opts.height === 'number' ? opts.height + 'px' : (opts.height || '480px'));
    iframe.setAttribute('allow', 'clipboard-write');
    const q = new URLSearchParams({ embed: '1' });
    if (opts.readonly) q.set('readonly', '1');
    if (opts.lesson) q.set('lesson', String(opts.lesson));
    if (opts.step) q.set('step', String(opts.step));
    if (opts.lang) q.set('lang', String(opts.lang));
    // The origin the sandbox takes commands from and answers to: this page's, unless named.
    q.set('hostOrigin', String(opts.allowOrigin || location.origin));
    // The view: the object shown in the Inspector ("Kind/namespace/name") and the open panels
    // (an array or a comma-separated string of panel ids).
    if (opts.select) q.set('select', String(opts.select));
    if (opts.panels) q.set('panels', Array.isArray(opts.panels) ? opts.panels.join(',') : String(opts.panels));

    const listeners = { ready: [], error: [], message: [] };
    const pending = new Map();
    let nextId = 1;
    let resolveReady, rejectReady;
    const ready = new Promise((res, rej) => { resolveReady = res; rejectReady = rej; });

    window.addEventListener('message', (e) => {
      if (e.source !== iframe.contentWindow || e.origin !== sandboxOrigin || !e.data || e.data.source !== 'rlab') return;
      const d = e.data;
      listeners.message.forEach((fn) => fn(d));
      if (d.type === 'ready') { resolveReady(d); listeners.ready.forEach((fn) => fn(d)); }
      if (d.type === 'error') { rejectReady(new Error(d.message)); listeners.error.forEach((fn) => fn(d)); }
      if (d.type === 'result' && pending.has(d.id)) {
        const p = pending.get(d.id);
        pending.delete(d.id);
        if (d.error) p.reject(new Error(d.error)); else p.resolve(d.state !== undefined ? d.state : d.output);
      }
    });

    function request(type, extra) {
      return ready.then(() => new Promise((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        iframe.contentWindow.postMessage(Object.assign({ source: 'rlab-host', type, id }, extra), sandboxOrigin);
      }));
    }

    const src = base + 'index.html?' + q.toString();
    (opts.script ? encodeScript(opts.script).then((f) => src + '#s=' + f) : Promise.resolve(src))
      .then((url) => { iframe.src = url; }, (err) => rejectReady(err));
    el.appendChild(iframe);

    return {
      iframe,
      ready,
      command: (text) => request('command', { text: String(text) }),
      state: () => request('state', {}),
      on(event, fn) { (listeners[event] || (listeners[event] = [])).push(fn); return this; },
    };
  }

  global.ReconcileLab = { mount };
})(window);
