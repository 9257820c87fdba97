// starter.js: the greeter. Every ConfigMap labelled greet=true (a visitor, with data.name) should
// have one greeting, a ConfigMap owned by it whose data.message says hello to that name.
// This version creates a greeting on every Reconcile: generateName gives each create a fresh
// name, so nothing ever collides and nothing ever stops it. The step to write is "read, then
// create only what is missing, update what is wrong".
// In Go: ctrl.NewControllerManagedBy(mgr).Named("greeter")
//          .For(&corev1.ConfigMap{}, builder.WithPredicates(greetLabel))

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
      generateName: visitor.metadata.name + '-greeting-',
      namespace: req.namespace,
      labels: { 'greeting-for': visitor.metadata.name },
    },
    data: { message: 'Hello ' + ((visitor.data || {}).name || 'stranger') },
  };
  ctx.setControllerReference(visitor, greeting);
  await ctx.client.create(greeting);
  ctx.log.info('created greeting', { visitor: visitor.metadata.name });
}
