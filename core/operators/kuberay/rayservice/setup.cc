#include "core/operators/kuberay/rayservice/setup.h"

#include <memory>

#include "core/builder/builder.h"
#include "core/predicate/predicate.h"

namespace kuberay::rayservice {

base::StatusOr<controller::Controller*> SetupWithManager(manager::Manager& mgr,
                                                         RayServiceReconciler& r,
                                                         const SetupOptions& opts) {
  base::StatusOr<cache::Informer*> endpoints = mgr.GetCache().GetInformer("Endpoints");
  if (!endpoints.ok()) return endpoints.status();
  controller::Options options;
  options.max_concurrent_reconciles = opts.max_concurrent_reconciles;
  options.use_priority_queue = opts.use_priority_queue;
  builder::WatchOptions for_options = builder::WithPredicates({predicate::Or(
      {std::make_shared<predicate::GenerationChangedPredicate>(),
       std::make_shared<predicate::LabelChangedPredicate>(),
       std::make_shared<predicate::AnnotationChangedPredicate>()})});
  return builder::ControllerManagedBy(mgr)
      .For(kKind, for_options)
      .Owns("RayCluster")
      .Owns("Service")
      .WithOptions(options)
      .Complete(r);
}

}  // namespace kuberay::rayservice
