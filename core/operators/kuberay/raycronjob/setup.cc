#include "core/operators/kuberay/raycronjob/setup.h"

#include "core/builder/builder.h"

namespace kuberay::raycronjob {

base::StatusOr<controller::Controller*> SetupWithManager(manager::Manager& mgr,
                                                         RayCronJobReconciler& r,
                                                         const SetupOptions& opts) {
  controller::Options options;
  options.max_concurrent_reconciles = opts.max_concurrent_reconciles;
  options.use_priority_queue = opts.use_priority_queue;
  options.replica = mgr.options().replica;
  return builder::ControllerManagedBy(mgr).For(kKind).WithOptions(options).Complete(r);
}

}  // namespace kuberay::raycronjob
