// wrong.js: lesson 20's mirror, but a refused update is logged and swallowed.
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
    if (ctx.isNotFound(e)) return;
    throw e;
  }
  const name = source.metadata.name + '-mirror';
  const data = source.data || {};
  let mirror;
  try {
    mirror = await ctx.client.get('ConfigMap', { namespace: req.namespace, name });
  } catch (e) {
    if (!ctx.isNotFound(e)) throw e;
    mirror = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: req.namespace }, data };
    ctx.setControllerReference(source, mirror);
    await ctx.client.create(mirror);
    ctx.log.info('created mirror', { mirror: name });
    return;
  }
  if (JSON.stringify(mirror.data || {}) === JSON.stringify(data)) return; // converged
  mirror.data = data;
  try {
    await ctx.client.update(mirror);
  } catch (e) {
    ctx.log.error('update failed', { mirror: name }); // swallowed: reported as success
    return;
  }
  ctx.log.info('updated mirror', { mirror: name });
}
