// inferenceservice.js: the seed's InferenceService reconciler (reading note 004; the built-in
// operator is core/operators/inference/reconciler.cc) written in JavaScript. One reconcile:
// read the InferenceService from the cache, keep the finalizer, read its Deployment and Pods,
// create or patch the Deployment, write status only when it changed, RequeueAfter 30s until
// every replica is ready. Stop the built-in operator first (`operator inference-operator set
// replicas=0`): two controllers must not own the same objects.
// In Go: ctrl.NewControllerManagedBy(mgr).For(&InferenceService{},
//          builder.WithPredicates(predicate.GenerationChangedPredicate{})).Owns(&appsv1.Deployment{})
// Simplified: the finalizer's cleanup is a log line (the external systems are the built-in
// operator's), and the Ready condition has no lastTransitionTime (the realm has no clock).

const FINALIZER = 'inference.io/finalizer';
const INSTANCE = 'app.kubernetes.io/instance';
const NAME = 'app.kubernetes.io/name';

export const controller = {
  name: 'inferenceservice',
  for: { apiVersion: 'inference.io/v1', kind: 'InferenceService', predicates: ['GenerationChanged'] },
  owns: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
  rbac: [
    { apiGroups: ['inference.io'], resources: ['inferenceservices'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
    { apiGroups: ['inference.io'], resources: ['inferenceservices/status', 'inferenceservices/finalizers'], verbs: ['get', 'update', 'patch'] },
    { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
  ],
};

const selectorLabels = (name) => ({ [INSTANCE]: name, [NAME]: 'inferenceservice' });

// countReady is the note's countReady: Pods whose Ready condition is True.
function countReady(pods) {
  return pods.filter((p) => ((p.status || {}).conditions || [])
    .some((c) => c.type === 'Ready' && c.status === 'True')).length;
}

function buildDeployment(ctx, isvc) {
  const name = isvc.metadata.name;
  const deploy = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: isvc.metadata.namespace, labels: selectorLabels(name) },
    spec: {
      replicas: isvc.spec.replicas ?? 1,
      selector: { matchLabels: selectorLabels(name) },
      template: {
        metadata: { labels: selectorLabels(name) },
        spec: { containers: [{ name: 'server', image: isvc.spec.image }] },
      },
    },
  };
  ctx.setControllerReference(isvc, deploy); // garbage collection and Owns() follow it
  return deploy;
}

function computeStatus(isvc, ready) {
  const replicas = isvc.spec.replicas ?? 1;
  const allReady = ready === replicas;
  return {
    conditions: [{
      message: ready + '/' + replicas + ' replicas ready',
      observedGeneration: isvc.metadata.generation,
      reason: allReady ? 'AllReplicasReady' : 'ReplicasNotReady',
      status: allReady ? 'True' : 'False',
      type: 'Ready',
    }],
    observedGeneration: isvc.metadata.generation,
    ready: allReady,
    readyReplicas: ready,
  };
}

export async function reconcile(ctx, req) {
  // 1. Read the custom resource from the cache (4.3). Gone: nothing to reconcile.
  let isvc;
  try {
    isvc = await ctx.client.get('InferenceService', req);
  } catch (e) {
    if (ctx.isNotFound(e)) {
      ctx.log.info('InferenceService not found, nothing to reconcile', { InferenceService: req.namespace + '/' + req.name });
      return;
    }
    throw e;
  }
  ctx.log.info('Reconciling InferenceService', { InferenceService: req.namespace + '/' + req.name });

  // Deletion (4.9): the finalizer holds the object until the cleanup is done.
  if (isvc.metadata.deletionTimestamp) {
    if (!ctx.containsFinalizer(isvc, FINALIZER)) return;
    ctx.log.info('running finalizer cleanup', { InferenceService: req.namespace + '/' + req.name });
    ctx.removeFinalizer(isvc, FINALIZER);
    await ctx.client.update(isvc);
    ctx.log.info('removed finalizer', { finalizer: FINALIZER });
    return;
  }
  if (ctx.addFinalizer(isvc, FINALIZER)) {
    isvc = await ctx.client.update(isvc); // continue with the stored version
    ctx.log.info('added finalizer', { finalizer: FINALIZER });
  }
  const ns = isvc.metadata.namespace;
  const name = isvc.metadata.name;
  const replicas = isvc.spec.replicas ?? 1;

  // 2. Read what the resource owns (4.4): its Deployment and the Pods with its instance label.
  let deploy = null;
  try {
    deploy = await ctx.client.get('Deployment', { namespace: ns, name });
  } catch (e) {
    if (!ctx.isNotFound(e)) throw e;
  }
  const pods = await ctx.client.list('Pod', { namespace: ns, labels: { [INSTANCE]: name } });
  const ready = countReady(pods);

  // 3. Act (4.5): create when absent, otherwise merge-patch only what differs.
  if (deploy === null) {
    const created = await ctx.client.create(buildDeployment(ctx, isvc));
    ctx.log.info('created Deployment', { Deployment: ns + '/' + created.metadata.name });
  } else {
    const containers = deploy.spec.template.spec.containers || [];
    const server = containers.find((c) => c.name === 'server') || containers[0];
    if (deploy.spec.replicas !== replicas || !server || server.image !== isvc.spec.image) {
      const patched = containers.length ? containers.map((c) => (c === server ? Object.assign({}, c, { image: isvc.spec.image }) : c))
                                        : [{ name: 'server', image: isvc.spec.image }];
      await ctx.client.patch(deploy, { spec: { replicas, template: { spec: { containers: patched } } } });
      ctx.log.info('patched Deployment', { Deployment: ns + '/' + name, replicas: String(replicas), image: isvc.spec.image });
    }
  }

  // 4. Write status (4.6), only when it changed.
  const status = computeStatus(isvc, ready);
  if (JSON.stringify(isvc.status || null) !== JSON.stringify(status)) {
    isvc.status = status;
    await ctx.client.updateStatus(isvc); // 409 Conflict: an error, retried with backoff
  }

  // 5. Requeue while not converged (4.7); never wait inside Reconcile.
  if (ready < replicas) return { requeueAfter: '30s' };
  ctx.log.info('reconciled, all ready', { InferenceService: ns + '/' + name });
}
