// configmap-mirror.js: every ConfigMap labelled mirror=true gets a copy, <name>-mirror, in its
// namespace, owned by it (the garbage collector removes the copy with the original). An edit to
// the copy is undone: Owns(ConfigMap) enqueues the owner, which writes the data back.
// In Go: ctrl.NewControllerManagedBy(mgr).Named("configmap-mirror")
//          .For(&corev1.ConfigMap{}, builder.WithPredicates(mirrorLabel)).Owns(&corev1.ConfigMap{})

export const controller = {
  name: 'configmap-mirror',
  for: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    predicates: [(e) => ((e.object.metadata.labels || {}).mirror === 'true')],
  },
  owns: [{ apiVersion: 'v1', kind: 'ConfigMap' }],
  rbac: [
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'create', 'update'] },
  ],
};

export async function reconcile(ctx, req) {
  let source;
  try {
    source = await ctx.client.get('ConfigMap', req);
  } catch (e) {
    if (ctx.isNotFound(e)) return; // gone: its mirror goes with it (ownerReferences)
    throw e;
  }
  if ((source.metadata.labels || {}).mirror !== 'true') return;
  const name = source.metadata.name + '-mirror';
  const data = source.data || {};
  let mirror;
  try {
    mirror = await ctx.client.get('ConfigMap', { namespace: req.namespace, name });
  } catch (e) {
    if (!ctx.isNotFound(e)) throw e;
    mirror = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: req.namespace },
      data,
    };
    ctx.setControllerReference(source, mirror);
    await ctx.client.create(mirror);
    ctx.log.info('created mirror', { mirror: name });
    return;
  }
  if (JSON.stringify(mirror.data || {}) === JSON.stringify(data)) return; // already converged
  mirror.data = data;
  await ctx.client.update(mirror);
  ctx.log.info('updated mirror', { mirror: name });
}
