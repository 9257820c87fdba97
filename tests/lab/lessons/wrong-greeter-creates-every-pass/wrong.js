// wrong.js: lesson 21's greeter with a fixed name; every pass still creates.
export const controller = {
  name: 'greeter',
  for: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    predicates: [(e) => ((e.object.metadata.labels || {}).greet === 'true')],
  },
  rbac: [
    {
      apiGroups: [''],
      resources: ['configmaps'],
      verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'],
    },
  ],
};

export async function reconcile(ctx, req) {
  let visitor;
  try {
    visitor = await ctx.client.get('ConfigMap', req);
  } catch (e) {
    if (ctx.isNotFound(e)) return; // gone: its greetings go with it (ownerReferences)
    throw e;
  }
  const greeting = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: visitor.metadata.name + '-greeting',
      namespace: req.namespace,
      labels: { 'greeting-for': visitor.metadata.name },
    },
    data: { message: 'Hello ' + ((visitor.data || {}).name || 'stranger') },
  };
  ctx.setControllerReference(visitor, greeting);
  try {
    await ctx.client.create(greeting);
  } catch (e) {
    if (!ctx.isAlreadyExists(e)) throw e; // swallowed: the old message stays
  }
  ctx.log.info('created greeting', { visitor: visitor.metadata.name });
}
