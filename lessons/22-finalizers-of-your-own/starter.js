// starter.js: the publisher. Every ConfigMap labelled publish=true (a page) gets a record in the
// namespace `records`, named <namespace>-<name>: the sandbox's stand-in for an entry in an
// external system (a DNS zone, a search index). A module reaches only the API server, so the
// "external" record is a ConfigMap in another namespace, where no ownerReference can reach it.
// The finalizer lab.io/unpublish makes a deletion wait for this controller. This version removes
// the finalizer as soon as the page is deleted and never deletes the record: the step to write
// is the cleanup.
// In Go: ctrl.NewControllerManagedBy(mgr).Named("publisher")
//          .For(&corev1.ConfigMap{}, builder.WithPredicates(publishLabel))

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
    // TODO: the record outlives the page. Clean it up before letting the page go.
    if (ctx.removeFinalizer(page, FINALIZER)) await ctx.client.update(page);
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
