// website.js: a Website (lab.example.com/v1, website-crd.yaml) owns a Deployment and a Service
// of its name; status.readyReplicas follows the Deployment's ready Pods (through /status).
// In Go: ctrl.NewControllerManagedBy(mgr).For(&labv1.Website{},
//          builder.WithPredicates(predicate.GenerationChangedPredicate{}))
//          .Owns(&appsv1.Deployment{}).Owns(&corev1.Service{})

export const controller = {
  name: 'website',
  for: { apiVersion: 'lab.example.com/v1', kind: 'Website', predicates: ['GenerationChanged'] },
  owns: [
    { apiVersion: 'apps/v1', kind: 'Deployment' },
    { apiVersion: 'v1', kind: 'Service' },
  ],
  rbac: [
    { apiGroups: ['lab.example.com'], resources: ['websites'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['lab.example.com'], resources: ['websites/status'], verbs: ['get', 'update'] },
    { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch', 'create', 'update'] },
    { apiGroups: [''], resources: ['services'], verbs: ['get', 'list', 'watch', 'create'] },
  ],
};

async function getOrNull(ctx, kind, namespace, name) {
  try {
    return await ctx.client.get(kind, { namespace, name });
  } catch (e) {
    if (ctx.isNotFound(e)) return null;
    throw e;
  }
}

export async function reconcile(ctx, req) {
  const site = await getOrNull(ctx, 'Website', req.namespace, req.name);
  if (site === null) return; // deleted: its Deployment and Service go with it
  const name = site.metadata.name;
  const labels = { app: 'website', website: name };
  const replicas = site.spec.replicas ?? 1;
  const image = site.spec.image || 'nginx:1.27';

  let deploy = await getOrNull(ctx, 'Deployment', req.namespace, name);
  if (deploy === null) {
    deploy = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: req.namespace, labels },
      spec: {
        replicas,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { containers: [{ name: 'web', image, ports: [{ containerPort: 80 }] }] },
        },
      },
    };
    ctx.setControllerReference(site, deploy);
    deploy = await ctx.client.create(deploy);
    ctx.log.info('created Deployment', { deployment: name });
  } else if (deploy.spec.replicas !== replicas ||
             deploy.spec.template.spec.containers[0].image !== image) {
    deploy.spec.replicas = replicas;
    deploy.spec.template.spec.containers[0].image = image;
    deploy = await ctx.client.update(deploy);
    ctx.log.info('updated Deployment', { deployment: name, replicas: String(replicas) });
  }

  if ((await getOrNull(ctx, 'Service', req.namespace, name)) === null) {
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: req.namespace, labels },
      spec: { selector: labels, ports: [{ port: 80, targetPort: 80 }] },
    };
    ctx.setControllerReference(site, service);
    await ctx.client.create(service);
    ctx.log.info('created Service', { service: name });
  }

  const ready = (deploy.status && deploy.status.readyReplicas) || 0;
  if (!site.status || site.status.readyReplicas !== ready) {
    site.status = Object.assign({}, site.status, { readyReplicas: ready });
    await ctx.client.updateStatus(site);
  }
}
