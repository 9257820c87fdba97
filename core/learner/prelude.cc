#include "core/learner/prelude.h"

#include "core/api/object.h"

namespace learner {
namespace {

// The prelude proper. `__RLAB_LINES__` and `__RLAB_FILE__` are replaced by the module's line
// count and its file name (as a JSON string).
constexpr const char* kPrelude = R"JS(
const __rlab = (() => {
  const LINES = __RLAB_LINES__, FILE = __RLAB_FILE__;
  // position moves an error's reported position to the innermost frame inside the module.
  const position = (e) => {
    if (e === null || typeof e !== 'object' || typeof e.stack !== 'string') return e;
    for (const line of e.stack.split('\n')) {
      const open = line.lastIndexOf('('), close = line.lastIndexOf(')');
      if (open < 0 || close <= open + 1) continue;
      const parts = line.slice(open + 1, close).split(':');
      if (parts.length < 3) continue;
      const col = Number(parts[parts.length - 1]), ln = Number(parts[parts.length - 2]);
      if (parts.slice(0, -2).join(':') === FILE && ln >= 1 && ln <= LINES) {
        e.fileName = FILE; e.lineNumber = ln; e.columnNumber = col;
        return e;
      }
    }
    return e;
  };
  const call = (fn, args) => {
    try { return host[fn](...args); } catch (e) { throw position(e); }
  };
  const meta = (obj, what) => {
    if (obj === null || typeof obj !== 'object' || typeof obj.kind !== 'string' ||
        obj.metadata === null || typeof obj.metadata !== 'object') {
      throw position(new TypeError(what + ' needs an object with kind and metadata'));
    }
    return [obj.kind, obj.metadata.namespace || '', obj.metadata.name || ''];
  };
  const key = (k) => (k && typeof k === 'object') ? [k.namespace || '', k.name || ''] : ['', String(k)];
  const selector = (o) => {
    if (!o) return '';
    if (typeof o.labelSelector === 'string') return o.labelSelector;
    if (o.labels && typeof o.labels === 'object') {
      return Object.keys(o.labels).sort().map((k) => k + '=' + o.labels[k]).join(',');
    }
    return '';
  };
  // mirrors pkg/client interfaces.go (Reader, Writer, StatusWriter)
  const client = {
    get: async (kind, k) => call('get', [kind, ...key(k)]),
    list: async (kind, o) => call('list', [kind, (o && o.namespace) || '', selector(o)]),
    create: async (obj) => call('create', [obj]),
    update: async (obj) => call('update', [obj]),
    patch: async (obj, patch, o) => call('patch', [...meta(obj, 'patch'),
                                                   (o && o.type) || 'merge', patch, false]),
    delete: async (obj) => call('delete', meta(obj, 'delete')),
    updateStatus: async (obj) => call('updateStatus', [obj]),
    patchStatus: async (obj, patch, o) => call('patch', [...meta(obj, 'patchStatus'),
                                                         (o && o.type) || 'merge', patch, true]),
  };
  const kv = (fields) => (fields && typeof fields === 'object')
      ? Object.keys(fields).map((k) => [k, typeof fields[k] === 'string' ? fields[k] : JSON.stringify(fields[k])])
      : [];
  const log = {
    info: (msg, fields) => { host.log('info', String(msg), kv(fields)); },
    error: (msg, fields) => { host.log('error', String(msg), kv(fields)); },
  };
  const finalizers = (obj) => {
    meta(obj, 'finalizers');
    if (!Array.isArray(obj.metadata.finalizers)) obj.metadata.finalizers = [];
    return obj.metadata.finalizers;
  };
  const code = (e, c) => e !== null && typeof e === 'object' && e.code === c;
  const ctx = {
    client, log,
    // mirrors controllerutil.SetControllerReference (AlreadyOwnedError, cluster-scoped owner)
    setControllerReference(owner, obj) {
      const [ok, ons, oname] = meta(owner, 'setControllerReference');
      const [, ns] = meta(obj, 'setControllerReference');
      if (ons !== '' && ons !== ns) {
        throw position(new Error('cross-namespace owner references are disallowed, owner\'s namespace ' + ons + ', obj\'s namespace ' + ns));
      }
      const refs = Array.isArray(obj.metadata.ownerReferences) ? obj.metadata.ownerReferences : [];
      const gv = String(owner.apiVersion || '');
      const group = gv.includes('/') ? gv.split('/')[0] : '';
      for (const r of refs) {
        const rgroup = String(r.apiVersion || '').includes('/') ? r.apiVersion.split('/')[0] : '';
        if (r.controller && !(r.kind === ok && r.name === oname && rgroup === group)) {
          throw position(new Error('Object ' + ns + '/' + obj.metadata.name + ' is already owned by another ' + r.kind + ' controller ' + r.name));
        }
      }
      const ref = { apiVersion: gv, kind: ok, name: oname, uid: owner.metadata.uid,
                    controller: true, blockOwnerDeletion: true };
      const i = refs.findIndex((r) => r.kind === ok && r.name === oname);
      if (i >= 0) refs[i] = ref; else refs.push(ref);
      obj.metadata.ownerReferences = refs;
    },
    // mirrors controllerutil.AddFinalizer / RemoveFinalizer / ContainsFinalizer
    addFinalizer(obj, f) {
      const list = finalizers(obj);
      if (list.includes(f)) return false;
      list.push(f);
      return true;
    },
    removeFinalizer(obj, f) {
      const list = finalizers(obj);
      const kept = list.filter((x) => x !== f);
      obj.metadata.finalizers = kept;
      return kept.length !== list.length;
    },
    containsFinalizer: (obj, f) => finalizers(obj).includes(f),
    // mirrors reconcile.TerminalError
    terminalError(message) {
      const e = new Error(String(message));
      e.name = 'TerminalError';
      e.terminal = true;
      return e;
    },
    isNotFound: (e) => code(e, 404),
    isConflict: (e) => code(e, 409) && e.reason === 'Conflict',
    isAlreadyExists: (e) => code(e, 409) && e.reason === 'AlreadyExists',
    isForbidden: (e) => code(e, 403),
  };
  const declared = () => {
    if (typeof controller !== 'object' || controller === null) {
      throw new TypeError('the module exports no controller declaration ' +
                          '(export const controller = { name, for, owns, watches, ... })');
    }
    return controller;
  };
  return { position, ctx, declared };
})();

export function __rlab_describe() {
  const c = __rlab.declared();
  const watch = (w) => {
    if (w === null || typeof w !== 'object') return null;
    const predicates = Array.isArray(w.predicates) ? w.predicates : [];
    return { apiVersion: w.apiVersion, kind: w.kind, map: typeof w.map === 'function',
             predicates: predicates.map((p) => typeof p === 'function' ? { function: true } : p) };
  };
  if (typeof reconcile !== 'function') {
    throw new TypeError('the module exports no reconcile(ctx, req) function');
  }
  return { name: c.name, for: c.for === undefined ? null : watch(c.for),
           owns: Array.isArray(c.owns) ? c.owns.map(watch) : c.owns,
           watches: Array.isArray(c.watches) ? c.watches.map(watch) : c.watches,
           maxConcurrentReconciles: c.maxConcurrentReconciles, queue: c.queue,
           rbac: c.rbac === undefined ? [] : c.rbac };
}

export async function __rlab_reconcile(req) {
  let result;
  try {
    result = await reconcile(__rlab.ctx, { namespace: req.namespace, name: req.name });
  } catch (e) {
    if (e !== null && typeof e === 'object' && e.terminal === true) e.name = 'TerminalError';
    throw __rlab.position(e);
  }
  if (result === undefined || result === null) return {};
  if (typeof result !== 'object') throw new TypeError('reconcile returned ' + typeof result + ', not a result object');
  return { requeue: result.requeue === true, requeueAfter: result.requeueAfter === undefined ? null : result.requeueAfter };
}

export function __rlab_predicate(group, index, p, event) {
  const c = __rlab.declared();
  const w = group === 'for' ? c.for : c[group][index];
  try { return w.predicates[p](event) ? true : false; } catch (e) { throw __rlab.position(e); }
}

export function __rlab_map(index, obj) {
  let out;
  try { out = __rlab.declared().watches[index].map(obj); } catch (e) { throw __rlab.position(e); }
  if (!Array.isArray(out)) return [];
  return out.filter((r) => r && typeof r === 'object')
            .map((r) => ({ namespace: String(r.namespace || ''), name: String(r.name || '') }));
}
)JS";

void ReplaceAll(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

}  // namespace

std::string WithPrelude(std::string_view source, const std::string& filename) {
  std::string out(source);
  if (!out.empty() && out.back() != '\n') out += '\n';
  size_t lines = 0;
  for (char c : out) lines += c == '\n' ? 1 : 0;
  std::string prelude = kPrelude;
  ReplaceAll(prelude, "__RLAB_LINES__", std::to_string(lines));
  ReplaceAll(prelude, "__RLAB_FILE__", api::Json(filename).dump());
  return out + prelude;
}

}  // namespace learner
