#include "core/operators/kuberay/rayjob/setup.h"

#include "core/builder/builder.h"

namespace kuberay::rayjob {

base::StatusOr<controller::Controller*> SetupWithManager(manager::Manager& mgr,
                                                         RayJobReconciler& r,
                                                         const SetupOptions& opts) {
  base::StatusOr<cache::Informer*> pods = mgr.GetCache().GetInformer("Pod");
  if (!pods.ok()) return pods.status();
  controller::Options options;
  options.max_concurrent_reconciles = opts.max_concurrent_reconciles;
  options.use_priority_queue = opts.use_priority_queue;
  return builder::ControllerManagedBy(mgr)
      .For(kKind)
      .Owns("RayCluster")
      .Owns("Service")
      .Owns("Job")
      .WithOptions(options)
      .Complete(r);
}

}  // namespace kuberay::rayjob
