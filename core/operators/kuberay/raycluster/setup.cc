#include "core/operators/kuberay/raycluster/setup.h"

#include <memory>

#include "core/builder/builder.h"
#include "core/predicate/predicate.h"

namespace kuberay {

base::StatusOr<controller::Controller*> SetupRayClusterWithManager(
    manager::Manager& mgr, RayClusterReconciler& r, const RayClusterSetupOptions& opts) {
  for (const char* kind : {"ServiceAccount", "Role", "RoleBinding"}) {
    base::StatusOr<cache::Informer*> informer = mgr.GetCache().GetInformer(kind);
    if (!informer.ok()) return informer.status();
  }
  controller::Options options;
  options.max_concurrent_reconciles = opts.max_concurrent_reconciles;
  options.use_priority_queue = opts.use_priority_queue;
  options.replica = mgr.options().replica;
  predicate::PredicatePtr changed =
      predicate::Or({std::make_shared<predicate::GenerationChangedPredicate>(),
                     std::make_shared<predicate::LabelChangedPredicate>(),
                     std::make_shared<predicate::AnnotationChangedPredicate>()});
  return builder::ControllerManagedBy(mgr)
      .For(kRayClusterKind, builder::WithPredicates({changed}))
      .Owns("Pod")
      .Owns("Service")
      .Owns("Secret")
      .Owns("PersistentVolumeClaim")
      .WithOptions(options)
      .Complete(r);
}

}  // namespace kuberay
