#include "core/operators/kuberay/networkpolicy/setup.h"

#include <memory>

#include "core/builder/builder.h"
#include "core/predicate/predicate.h"

namespace kuberay::networkpolicy {

base::StatusOr<controller::Controller*> SetupWithManager(manager::Manager& mgr,
                                                         NetworkPolicyReconciler& r,
                                                         const SetupOptions& opts) {
  controller::Options options;
  options.max_concurrent_reconciles = opts.max_concurrent_reconciles;
  options.use_priority_queue = opts.use_priority_queue;
  options.replica = mgr.options().replica;
  return builder::ControllerManagedBy(mgr)
      .For("RayCluster",
           builder::WithPredicates({std::make_shared<predicate::GenerationChangedPredicate>()}))
      .Owns("NetworkPolicy")
      .Named("networkpolicy")
      .WithOptions(options)
      .Complete(r);
}

}  // namespace kuberay::networkpolicy
