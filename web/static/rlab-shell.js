// The page around the WebAssembly app: loading bar, capability checks, window.rlab (DESIGN.md
// "Embedding contract"), URL parameters (the view: lesson and step, language, selected object,
// open panels), the #s= share fragment, postMessage for embed.js, localStorage for layout,
// language and the first-run card, the clipboard bridge, and which build to load: the start
// build (rlab.js) or the engine build (rlab-js.js, with the JavaScript engine), switching to the
// latter when the session needs it (web/README.md, "The engine build").
'use strict';
(function () {
  const params = new URLSearchParams(location.search);
  // localStorage throws in some sandboxed iframes and private modes: then nothing is kept.
  const store = {
    get: (k) => { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set: (k, v) => { try { localStorage.setItem(k, v); } catch (e) { /* not kept */ } },
  };
  const opts = {
    embed: params.get('embed') === '1',
    readonly: params.get('readonly') === '1',
    lesson: params.get('lesson') || '',
    step: parseInt(params.get('step') || '0', 10) || 0,
    lang: params.get('lang') || store.get('rlab.lang') || 'en',
    // The one origin whose parent window may drive this sandbox over postMessage, and the only one
    // it answers to: embed.js names it (its allowOrigin option); without it, this page's own.
    hostOrigin: params.get('hostOrigin') || location.origin,
    select: params.get('select') || '',   // Kind/namespace/name shown in the Inspector
    panels: params.get('panels') || '',   // the open panels, comma-separated
  };
  const MAX_SCRIPT_BYTES = 16 * 1024;
  // A session that loads or reloads a JavaScript operator needs the engine build.
  const ENGINE_COMMAND = /^\s*(kubectl\s+)?operator\s+(load|reload)\b/m;
  const HANDOFF_KEY = 'rlab.handoff';
  const layoutKey = 'rlab.layout' + (opts.embed ? '.embed' : '');
  const t0 = performance.now();
  const $ = (id) => document.getElementById(id);

  function fail(message) {
    const e = $('error');
    e.textContent = message;
    e.style.display = 'block';
    document.querySelector('.card p').textContent = 'Reconcile Lab cannot start here.';
    post({ type: 'error', message });
  }
  function toast(text) {
    const t = $('toast');
    t.textContent = text;
    t.classList.add('show');
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => t.classList.remove('show'), 2200);
  }
  function post(msg) {
    if (window.parent === window) return;
    // An origin that cannot be named (a file:// host's "null") throws: then nothing is posted.
    try { window.parent.postMessage(Object.assign({ source: 'rlab' }, msg), opts.hostOrigin); } catch (e) { /* not posted */ }
  }

  // ---- capability checks -------------------------------------------------------------------
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    fail('This browser does not run WebAssembly, which Reconcile Lab needs. Try a current Firefox, Chrome, Edge or Safari.');
    return;
  }
  if (!document.createElement('canvas').getContext('webgl2')) {
    fail('WebGL2 is not available (it may be switched off, or the graphics driver is blocked). Reconcile Lab draws with WebGL2; try another browser or enable hardware acceleration.');
    return;
  }

  // ---- share fragment: #s=<base64url(deflate-raw(script))> ----------------------------------
  function b64url(bytes) {
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  function unb64url(text) {
    const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  async function pipe(bytes, stream) {
    const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
    return new Uint8Array(await out.arrayBuffer());
  }
  async function encodeScript(script) {
    const raw = new TextEncoder().encode(script);
    if (raw.length > MAX_SCRIPT_BYTES) throw new Error('the session script is ' + raw.length + ' bytes; a share link holds at most 16 KB');
    return b64url(await pipe(raw, new CompressionStream('deflate-raw')));
  }
  async function decodeScript(fragment) {
    // Read at most 16 KB of decompressed text, so a hostile link cannot exhaust memory.
    const stream = new Blob([unb64url(fragment)]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    const reader = stream.getReader();
    const chunks = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > MAX_SCRIPT_BYTES) { reader.cancel(); throw new Error('the shared script is larger than 16 KB'); }
      chunks.push(value);
    }
    const all = new Uint8Array(total);
    let off = 0;
    for (const c of chunks) { all.set(c, off); off += c.length; }
    return new TextDecoder().decode(all);
  }
  window.rlabCodec = { encodeScript, decodeScript };

  // ---- the module ------------------------------------------------------------------------------
  function setProgress(loaded, total) {
    const pct = total ? Math.min(100, Math.floor(loaded * 100 / total)) : 0;
    $('progress').style.width = pct + '%';
    document.querySelector('.bar').setAttribute('aria-valuenow', String(pct));
    const mb = (n) => (n / 1048576).toFixed(1) + ' MB';
    $('progress-text').textContent = total ? mb(loaded) + ' of ' + mb(total) + ' (' + pct + '%)' : mb(loaded);
  }

  // Fetch the wasm ourselves to count bytes (the browser has already undone any gzip, so the total
  // is the raw size from the rlab.wasm.size sidecar, falling back to Content-Length).
  async function fetchWasm(build) {
    let total = 0;
    try { total = parseInt(await (await fetch(build + '.wasm.size')).text(), 10) || 0; } catch (e) { /* optional */ }
    const resp = await fetch(build + '.wasm');
    if (!resp.ok) throw new Error(build + '.wasm: HTTP ' + resp.status);
    if (!total) total = parseInt(resp.headers.get('Content-Length') || '0', 10);
    if (!resp.body) return new Uint8Array(await resp.arrayBuffer());
    const reader = resp.body.getReader();
    const chunks = [];
    let loaded = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.length;
      setProgress(loaded, Math.max(total, loaded));
    }
    const bytes = new Uint8Array(loaded);
    let off = 0;
    for (const c of chunks) { bytes.set(c, off); off += c.length; }
    return bytes;
  }

  let api = null;  // ccall wrappers, once the runtime is up
  let build = 'rlab';  // or 'rlab-js', the engine build (chooseBuild)
  let sharedScript;    // the #s= fragment's script, decoded once (chooseBuild)
  let handoff = null;  // what the start build handed over when it switched (switchToEngine)
  let engineWanted = null;  // a switch asked for before the page was ready: [reason, pending]
  window.Module = {
    canvas: $('canvas'),
    print: (t) => console.log(t),
    printErr: (t) => console.warn(t),
    instantiateWasm(imports, done) {
      fetchWasm(build)
        .then((bytes) => WebAssembly.instantiate(bytes, imports))
        .then((r) => done(r.instance, r.module))
        .catch((e) => fail('Could not load ' + build + '.wasm: ' + e.message));
      return {};
    },
    onAbort: (what) => fail('The simulation stopped: ' + what),
    onAppError: (what) => fail(what),
    onAppReady: () => { setTimeout(start, 0); },
    // What the lesson pane asks for: 'catalog', 'lesson' or 'restart' (arg: id), 'font' (CJK).
    rlabFetch: (what, arg) => {
      const job = what === 'catalog' ? fetchText('lessons/catalog.json').then((t) => api.lessonCatalog(withDone(t)))
        : what === 'lesson' ? loadLesson(arg, 0) : what === 'restart' ? loadLesson(arg, 1)
          : what === 'font' ? loadCjkFont() : what === 'operator' ? loadStarter(arg)
            : Promise.reject(new Error('unknown fetch ' + what));
      job.catch((e) => toast('Could not load ' + what + ': ' + e.message));
    },
    // step is "N" or "N*" (0-based; "*": no solution shown so far, the star is still possible).
    rlabSaveProgress: (id, step) => store.set('rlab.progress.' + id, String(step)),
    // A completed lesson is remembered as 'done' or 'star' (solved without the solution); a star
    // once earned stays.
    rlabSaveDone: (id, done) => {
      if (store.get('rlab.done.' + id) !== 'star') store.set('rlab.done.' + id, done);
    },
    // The language is remembered and written into the address, so a reload or a copied URL keeps it.
    rlabSaveLang: (lang) => {
      store.set('rlab.lang', lang);
      const q = new URLSearchParams(location.search);
      if ((q.get('lang') || 'en') !== lang) {
        q.set('lang', lang);
        history.replaceState(null, '', location.pathname + '?' + q.toString() + location.hash);
      }
      document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    },
    rlabSaveWelcome: (choice) => store.set('rlab.welcome', String(choice)),
    // The start build asks for the engine build: the Code pane was opened ('code') or a command
    // needs it ('command', pending: that command, run once the session is replayed there).
    rlabNeedEngine: (reason, pending) => {
      if (build !== 'rlab') return;
      if (!window.rlab || !window.rlab.ready) { engineWanted = [reason, pending]; return; }
      setTimeout(() => switchToEngine(reason, pending), 0);  // after the frame that asked
    },
  };
  $('canvas').addEventListener('webglcontextlost', (e) => {
    e.preventDefault();
    fail('The WebGL context was lost (the GPU was reset). Reload the page to continue.');
    $('overlay').classList.remove('gone');
  });

  function wrap() {
    const M = window.Module;
    return {
      command: M.cwrap('rlab_command', 'string', ['string']),
      state: M.cwrap('rlab_state', 'string', []),
      share: M.cwrap('rlab_share_script', 'string', []),
      setOptions: M.cwrap('rlab_set_options', null, ['number', 'number']),
      setPlaying: M.cwrap('rlab_set_playing', null, ['number']),
      setSpeed: M.cwrap('rlab_set_speed', null, ['number']),
      layoutGet: M.cwrap('rlab_layout_get', 'string', []),
      layoutSet: M.cwrap('rlab_layout_set', null, ['string']),
      paste: M.cwrap('rlab_paste', null, ['string']),
      frameMs: M.cwrap('rlab_frame_ms', 'number', []),
      itemRect: M.cwrap('rlab_item_rect', 'string', ['string']),
      framePart: M.cwrap('rlab_frame_part_ms', 'number', ['number']),
      frames: M.cwrap('rlab_frames', 'number', ['number']),
      inputQueued: M.cwrap('rlab_input_queued', 'number', []),
      rewind: M.cwrap('rlab_rewind', 'number', ['number']),
      rewindStats: M.cwrap('rlab_rewind_stats', 'string', []),
      rewindOptions: M.cwrap('rlab_rewind_options', 'number', ['number', 'number']),
      buildCheckpoints: M.cwrap('rlab_build_checkpoints', 'number', []),
      select: M.cwrap('rlab_select', 'number', ['string']),
      showDiff: M.cwrap('rlab_show_diff', null, ['number']),
      lessonCatalog: M.cwrap('rlab_lesson_catalog', null, ['string']),
      lessonBundle: M.cwrap('rlab_lesson_bundle', null, ['string', 'number', 'number']),
      lessonShowShared: M.cwrap('rlab_lesson_show_shared', null, ['number']),
      lessonOpen: M.cwrap('rlab_lesson_open', null, ['number']),
      lessonDo: M.cwrap('rlab_lesson_do', 'number', []),
      lessonGoto: M.cwrap('rlab_lesson_goto', null, ['number']),
      setLang: M.cwrap('rlab_set_lang', null, ['string']),
      cjkFont: M.cwrap('rlab_cjk_font', null, ['number', 'number']),
      lessonBundleReplay: M.cwrap('rlab_lesson_bundle_replay', null, ['string']),
      viewGet: M.cwrap('rlab_view_get', 'string', []),
      viewApply: M.cwrap('rlab_view_apply', 'number', ['string', 'string']),
      welcome: M.cwrap('rlab_welcome', null, ['number']),
      probeArm: M.cwrap('rlab_text_probe_arm', null, []),
      probeResult: M.cwrap('rlab_text_probe_result', 'string', []),
      itemRects: M.cwrap('rlab_item_rects', 'string', []),
      replay: M.cwrap('rlab_replay', null, ['string']),
      replaying: M.cwrap('rlab_replaying', 'number', []),
      engine: M.cwrap('rlab_engine', 'number', []),
      codeStarter: M.cwrap('rlab_code_starter', null, ['string', 'string']),
      codeSet: M.cwrap('rlab_code_set', null, ['string', 'string', 'string']),
      manifestSet: M.cwrap('rlab_manifest_set', null, ['string', 'string']),
    };
  }

  // ---- lessons and the Chinese font: fetched only when the page needs them -------------------
  async function fetchText(path) {
    const resp = await fetch(path);
    if (!resp.ok) throw new Error(path + ': HTTP ' + resp.status);
    return resp.text();
  }
  // loadLesson fetches lessons/<id>.json and starts it at step (1-based; 0 = where the learner
  // left it, kept in localStorage). Steps before it are played, so the simulation matches.
  // With a shared session's script, the lesson is opened without running anything, the script
  // (its setup included) is replayed, and the shared step is shown.
  async function loadLesson(id, step, script) {
    if (!/^[A-Za-z0-9._-]+$/.test(id)) throw new Error('bad lesson id: ' + id);
    const text = await fetchText('lessons/' + id + '.json');
    const saved = store.get('rlab.progress.' + id) || '0';
    const resumed = (parseInt(saved, 10) || 0) + 1;
    api.lessonOpen(1);
    if (script === undefined) {
      // Resuming where the learner left keeps the star they were earning; a link to a later step
      // plays the steps before it with their solutions.
      api.lessonBundle(text, step > 0 ? step : resumed, step > 0 ? 0 : (saved.endsWith('*') ? 1 : 0));
      return;
    }
    api.lessonBundleReplay(text);
    await replayShared(script);
    api.lessonShowShared(step > 0 ? step : 1);
  }
  // withDone adds to the catalog what this browser remembers of each lesson: done or star.
  function withDone(text) {
    const catalog = JSON.parse(text);
    for (const e of catalog.lessons || []) e.done = store.get('rlab.done.' + e.id) || '';
    return JSON.stringify(catalog);
  }
  // replayShared replays a shared session's script between frames (the page draws its progress
  // and a Stop button) and resolves once it has finished or was stopped.
  function replayShared(script) {
    api.replay(script);
    return new Promise((resolve) => {
      const poll = () => (api.replaying() ? requestAnimationFrame(poll) : resolve());
      requestAnimationFrame(poll);
    });
  }
  // loadStarter fetches a starter operator (dist/operators/<id>.js) into the Code pane.
  async function loadStarter(id) {
    if (!/^[A-Za-z0-9._-]+$/.test(id)) throw new Error('bad starter id: ' + id);
    api.codeStarter(id, await fetchText('operators/' + id + '.js'));
    // A starter that serves a CRD of its own brings it into the Manifest box, to apply first.
    const crd = await fetch('operators/' + id + '-crd.yaml').catch(() => null);
    if (crd && crd.ok) api.manifestSet(await crd.text(), 'operators/' + id + '-crd.yaml');
  }

  // ---- the engine build ------------------------------------------------------------------------
  // chooseBuild picks the engine build when this session needs it from the start: asked for in
  // the address (engine=1), handed over by the start build, a shared session or a lesson that
  // loads a JavaScript operator, or a saved layout with the Code pane open.
  async function chooseBuild() {
    try {
      handoff = JSON.parse(sessionStorage.getItem(HANDOFF_KEY) || 'null');
      sessionStorage.removeItem(HANDOFF_KEY);
    } catch (e) { handoff = null; }
    const m = location.hash.match(/^#s=([A-Za-z0-9_-]+)$/);
    if (m) {
      try {
        sharedScript = await decodeScript(m[1]);
      } catch (e) {
        toast('Could not open the shared session: ' + e.message);
      }
    }
    if (params.get('engine') === '1' || handoff) return 'rlab-js';
    if (sharedScript !== undefined && ENGINE_COMMAND.test(sharedScript)) return 'rlab-js';
    const saved = (store.get(layoutKey) || '').split(';')[1] || '';
    if (saved.split(',').includes('code')) return 'rlab-js';
    if (opts.lesson && /^[A-Za-z0-9._-]+$/.test(opts.lesson)) {
      // A lesson bundle is JSON: its scripts' newlines are escaped, so look for the words alone.
      const text = await fetchText('lessons/' + opts.lesson + '.json').catch(() => '');
      if (/operator\s+(load|reload)\b/.test(text)) return 'rlab-js';
    }
    return 'rlab';
  }
  // switchToEngine reopens the page on the engine build: the session's command log, the view
  // and the Code pane go over in sessionStorage (no size limit, unlike a share link), the view's
  // parameters in the address; the engine build replays the log as it replays a share link.
  function switchToEngine(reason, pending) {
    if (build !== 'rlab' || switchToEngine.done) return;
    switchToEngine.done = true;
    const view = JSON.parse(api.viewGet());
    const h = { reason, pending: pending || '', script: api.share(), code: view.code, speed: view.speed };
    try {
      sessionStorage.setItem(HANDOFF_KEY, JSON.stringify(h));
    } catch (e) {
      toast('Cannot load the JavaScript engine here (no session storage): ' + e.message);
      return;
    }
    store.set(layoutKey, api.layoutGet());
    const q = new URLSearchParams(viewQuery());
    q.set('engine', '1');
    $('overlay').classList.remove('gone');
    document.querySelector('.card p').textContent = 'Loading the JavaScript engine…';
    post({ type: 'engine', reason });
    location.replace(location.pathname + '?' + q.toString());
  }

  async function loadCjkFont() {
    const resp = await fetch('fonts/cjk-sc.otf');
    if (!resp.ok) throw new Error('fonts/cjk-sc.otf: HTTP ' + resp.status);
    const bytes = new Uint8Array(await resp.arrayBuffer());
    const M = window.Module;
    const ptr = M._malloc(bytes.length);  // kept for the page's lifetime: the font atlas reads it
    (M.HEAPU8 || window.HEAPU8).set(bytes, ptr);
    api.cjkFont(ptr, bytes.length);
  }

  async function start() {
    api = wrap();
    const firstFrameMs = performance.now() - t0;
    const readyAtMs = performance.now();  // since navigation start
    api.setOptions(opts.embed ? 1 : 0, opts.readonly ? 1 : 0);
    const saved = store.get(layoutKey);
    if (saved) api.layoutSet(saved);
    setInterval(() => store.set(layoutKey, api.layoutGet()), 2000);

    // Commands from JS go through one queue so each sees the previous one's effects.
    let chain = Promise.resolve();
    const run = (fn) => (chain = chain.then(fn, fn));
    window.rlab = {
      ready: false,  // true once a shared session, a lesson and the view are in place
      timing: { firstFrameMs, readyAtMs },
      command: (text) => run(() => {
        if (typeof text !== 'string') throw new TypeError('rlab.command(text): text must be a string');
        const out = api.command(text);
        narrate(text, out);
        return out;
      }),
      state: () => run(() => JSON.parse(api.state())),
      play: (on) => api.setPlaying(on === false ? 0 : 1),
      speed: (x) => api.setSpeed(Number(x)),
      shareScript: () => api.share(),
      // shareLink(): the address "Copy share link" copies (the view's parameters and #s=).
      shareLink: () => run(async () => location.origin + location.pathname + '?' + viewQuery() +
                                       '#s=' + await encodeScript(api.share())),
      // rewind(step): go back to an earlier step (every scheduler event is one; a negative step
      // counts back from now), from the nearest checkpoint plus replay. The abandoned future
      // becomes a branch; resolves to the branch count.
      rewind: (n) => run(() => api.rewind(Number(n))),
      // rewindStats(): {ms, replayed, from, appMs, parkedBytes} of the last rewind (ms: the core's
      // rewind, appMs: the page's bookkeeping after it, both with the page clock).
      rewindStats: () => {
        const [ms, replayed, from, appMs, parkedBytes] = api.rewindStats().split(',').map(Number);
        return { ms, replayed, from, appMs, parkedBytes };
      },
      // rewindOptions(interval, budgetMiB): checkpoint spacing and memory budget (benchmarks);
      // false for bad values.
      rewindOptions: (interval, budgetMiB) => api.rewindOptions(Number(interval), Number(budgetMiB)) === 1,
      // buildCheckpoints(): build every rewind checkpoint now instead of in idle frames.
      buildCheckpoints: () => run(() => api.buildCheckpoints()),
      // select('Kind/namespace/name') shows an object in the Inspector (false if absent).
      select: (ref) => api.select(String(ref)) === 1,
      showDiff: (on) => api.showDiff(on === false ? 0 : 1),
      // lesson(id, step): open a lesson at step (1-based; earlier steps are played first).
      lesson: (id, step) => run(() => loadLesson(String(id), Number(step) || 0)),
      // lessonDo(): "Do it for me" on the current step; resolves true when its checks are met.
      lessonDo: () => run(() => api.lessonDo() === 1),
      lessonStep: (step) => run(() => api.lessonGoto(Number(step))),
      // lang('en'|'zh'): the lesson language (Chinese fetches the CJK font once).
      lang: (code) => run(() => api.setLang(code === 'zh' ? 'zh' : 'en')),
      // engine(): true in the engine build (the JavaScript engine is loaded).
      engine: () => api.engine() === 1,
      frameMs: () => api.frameMs(),
      // frameParts(): CPU ms of the last frame split into {sim, ui, gl}.
      frameParts: () => ({ sim: api.framePart(0), ui: api.framePart(1), gl: api.framePart(2) }),
      // frameCounts(): frames built and frames drawn; a frame that would draw the picture already
      // on screen is not drawn, so an idle page draws nothing.
      frameCounts: () => ({ built: api.frames(0), drawn: api.frames(1) }),
      // inputQueued(): keyboard and mouse events delivered but not yet taken by the UI; for tests.
      inputQueued: () => api.inputQueued(),
      // itemRect(name): a control's box in CSS pixels ({x, y, w, h}) or null; for tests.
      itemRect: (name) => {
        const r = api.itemRect(String(name));
        if (!r) return null;
        const [x, y, w, h] = r.split(',').map(Number);
        return toCss(x, y, w, h);
      },
      // itemRects(): every recorded control and panel ({name: {x, y, w, h}}, CSS pixels).
      itemRects: () => {
        const all = JSON.parse(api.itemRects());
        const out = {};
        for (const [name, [x, y, w, h]] of Object.entries(all)) out[name] = toCss(x, y, w, h);
        return out;
      },
      // view(): {lang, completed, selected, panels, lesson, editor, welcome, shortcuts, narrow, speed}
      // (completed: {lessonId: 'done' | 'star'} as the lesson picker shows it).
      view: () => run(() => JSON.parse(api.viewGet())),
      // textProbe(): every string the next frame draws ({t, data, x, y, w, h, cx0, cy0, cx1, cy1,
      // sx, sy, win}, CSS pixels), to check languages and clipping (web/src/text_probe.h).
      textProbe: () => run(() => new Promise((resolve) => {
        api.probeArm();
        requestAnimationFrame(() => requestAnimationFrame(() => {
          const k = canvasScale();
          const list = JSON.parse(api.probeResult());
          for (const d of list) for (const f of ['x', 'y', 'w', 'h', 'cx0', 'cy0', 'cx1', 'cy1']) d[f] /= k;
          resolve(list);
        }));
      })),
    };

    // A shared session replays first (the core only ever sees plain script text); with a lesson,
    // inside the lesson (whose seed and files it needs).
    // A hand-over from the start build replays the same way.
    const m = location.hash.match(/^#s=([A-Za-z0-9_-]+)$/);
    let script = handoff ? handoff.script : sharedScript;
    api.setLang(opts.lang === 'zh' ? 'zh' : 'en');
    // The replay is drawn on the page (its progress and Stop), so the loading cover goes first.
    if (script !== undefined) $('overlay').classList.add('gone');
    if (script !== undefined && !opts.lesson) {
      await replayShared(script);
      toast(JSON.parse(api.state()).replay.stopped ? 'Shared session stopped part way'
        : handoff ? 'JavaScript engine loaded: session replayed' : 'Shared session restored');
    }
    if (opts.lesson) {
      try {
        await loadLesson(opts.lesson, opts.step, script);
      } catch (e) {
        toast('Could not open lesson ' + opts.lesson + ': ' + e.message);
      }
    }
    // The rest of the view: open panels, then the selected object.
    if ((opts.select || opts.panels) && api.viewApply(opts.select, opts.panels) === 0) {
      toast('No object ' + opts.select + ' to select');
    }
    // The first-run card: not for embeds, shared sessions or lessons opened by link, and only
    // until the learner has chosen once.
    if (!opts.embed && !opts.readonly && !opts.lesson && !m && !handoff && !store.get('rlab.welcome')) api.welcome(1);
    // The Code pane as it was, and the command that asked for the engine.
    if (handoff && handoff.speed) api.setSpeed(Number(handoff.speed));
    if (handoff && handoff.code) api.codeSet(handoff.code.name || '', handoff.code.starter || '', handoff.code.text || '');
    if (handoff && handoff.pending) narrate(handoff.pending, api.command(handoff.pending));

    $('overlay').classList.add('gone');
    $('canvas').focus();

    window.rlab.ready = true;
    post({ type: 'ready', firstFrameMs });
    document.dispatchEvent(new CustomEvent('rlab-ready'));
    if (engineWanted) switchToEngine(engineWanted[0], engineWanted[1]);
  }

  // Device pixels (the canvas backing store) to CSS pixels of the page.
  function canvasScale() { return $('canvas').width / $('canvas').getBoundingClientRect().width; }
  function toCss(x, y, w, h) {
    const k = canvasScale();
    const box = $('canvas').getBoundingClientRect();
    return { x: box.left + x / k, y: box.top + y / k, w: w / k, h: h / k };
  }

  // The screen-reader transcript: what each command printed.
  function narrate(cmd, out) {
    const t = $('transcript');
    t.textContent = '$ ' + cmd + '\n' + out;
  }

  // viewQuery: the page's parameters with the current view written in (lesson and step,
  // language, selected object, open panels).
  function viewQuery() {
    const view = JSON.parse(api.viewGet());
    const q = new URLSearchParams(location.search);
    for (const k of ['lesson', 'step', 'select', 'panels']) q.delete(k);
    q.set('lang', view.lang);
    if (view.lesson) { q.set('lesson', view.lesson.id); q.set('step', String(view.lesson.step)); }
    if (view.selected) q.set('select', view.selected);
    q.set('panels', view.panels.join(','));
    return q.toString();
  }

  window.rlabShare = async function () {
    if (!api) return;
    try {
      const frag = await encodeScript(api.share());
      const url = location.origin + location.pathname + '?' + viewQuery() + '#s=' + frag;
      history.replaceState(null, '', url);
      if (navigator.clipboard) await navigator.clipboard.writeText(url).catch(() => {});
      toast('Share link copied (' + url.length + ' characters)');
    } catch (e) {
      toast('Cannot share: ' + e.message);
    }
  };

  // Clipboard bridge: the DOM paste event carries the system clipboard into ImGui's text field.
  // At most 1 MB: the text goes into an ImGui field (the API server refuses far less anyway).
  document.addEventListener('paste', (e) => {
    if (!api) return;
    const text = (e.clipboardData || window.clipboardData).getData('text');
    if (!text) return;
    e.preventDefault();
    if (text.length > 1048576) { toast('The pasted text is larger than 1 MB'); return; }
    api.paste(text.replace(/\r\n?/g, '\n'));
  });

  // postMessage API for embed.js: {source:"rlab", type:"command"|"state", id, text}. Only the
  // parent window, at the origin it was named with, drives the sandbox; every other window or
  // origin (an opener, a sibling frame, a page that framed the parent) is ignored, and answers
  // go to that origin only, so a command's output never reaches another site.
  window.addEventListener('message', async (e) => {
    if (window.parent === window || e.source !== window.parent || e.origin !== opts.hostOrigin) return;
    const d = e.data;
    if (!d || (d.source !== 'rlab' && d.source !== 'rlab-host') || !window.rlab) return;
    const answer = (msg) => post(Object.assign({ type: 'result', id: d.id }, msg));
    try {
      if (d.type === 'command') {
        answer({ output: await window.rlab.command(String(d.text)) });
      } else if (d.type === 'state') {
        answer({ state: await window.rlab.state() });
      }
    } catch (err) {
      answer({ error: String(err.message || err) });
    }
  });

  setProgress(0, 0);
  chooseBuild().catch(() => 'rlab').then((chosen) => {
    build = chosen;
    const s = document.createElement('script');
    s.src = build + '.js';
    s.onerror = () => fail('Could not load ' + build + '.js');
    document.body.appendChild(s);
  });
})();
