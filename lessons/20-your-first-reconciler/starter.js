// starter.js: the ConfigMap mirror, unfinished. Every ConfigMap labelled mirror=true should get a
// copy, <name>-mirror, in its namespace, owned by it, that follows every edit of the original.
// This version creates the copy once and then never looks at it again: the step to write is the
// one that compares the copy with the original and updates it.
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
  const name = source.metadata.name + '-mirror';
  let mirror;
  try {
    mirror = await ctx.client.get('ConfigMap', { namespace: req.namespace, name });
  } catch (e) {
    if (!ctx.isNotFound(e)) throw e;
    mirror = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: req.namespace },
      data: source.data || {},
    };
    ctx.setControllerReference(source, mirror);
    await ctx.client.create(mirror);
    ctx.log.info('created mirror', { mirror: name });
    return;
  }
  // TODO: the mirror exists. Is its data still the original's?
  ctx.log.info('mirror exists', { mirror: name });
}
