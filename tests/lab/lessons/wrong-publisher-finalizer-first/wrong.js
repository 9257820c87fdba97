// wrong.js: lesson 22's publisher with the finalizer removed before the cleanup.
const FINALIZER = 'lab.io/unpublish';

export const controller = {
  name: 'publisher',
  for: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    predicates: [(e) => ((e.object.metadata.labels || {}).publish === 'true')],
  },
  rbac: [
    {
      apiGroups: [''],
      resources: ['configmaps'],
      verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'],
    },
  ],
};

function recordKey(page) {
  return { namespace: 'records', name: page.metadata.namespace + '-' + page.metadata.name };
}

export async function reconcile(ctx, req) {
  let page;
  try {
    page = await ctx.client.get('ConfigMap', req);
  } catch (e) {
    if (ctx.isNotFound(e)) return;
    throw e;
  }
  if (page.metadata.deletionTimestamp) {
    if (ctx.removeFinalizer(page, FINALIZER)) await ctx.client.update(page);
    // Wrong order: the finalizer goes first.
    try {
      await ctx.client.delete({ apiVersion: 'v1', kind: 'ConfigMap', metadata: recordKey(page) });
      ctx.log.info('unpublished', { page: req.name });
    } catch (e) {
      if (!ctx.isNotFound(e)) throw e; // keep the finalizer: the controller retries with backoff
    }
    return;
  }
  if (ctx.addFinalizer(page, FINALIZER)) {
    page = await ctx.client.update(page);
  }
  const key = recordKey(page);
  try {
    await ctx.client.get('ConfigMap', key);
  } catch (e) {
    if (!ctx.isNotFound(e)) throw e;
    await ctx.client.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: key.name, namespace: key.namespace },
      data: { page: req.namespace + '/' + req.name, title: (page.data || {}).title || '' },
    });
    ctx.log.info('published', { page: req.name });
  }
}
