#include "core/operators/inference/setup.h"

#include <memory>

#include "core/builder/builder.h"
#include "core/predicate/predicate.h"

namespace inference {

cache::Options CacheOptions(const std::vector<std::string>& namespaces, const Bugs& bugs) {
  cache::Options out;
  out.default_namespaces = namespaces;
  if (bugs.unscoped_pod_cache) return out;
  cache::ByObject pods;
  pods.label_selector = kNameLabel + "=" + kNameLabelValue;
  out.by_object["Pod"] = pods;
  return out;
}

base::StatusOr<controller::Controller*> SetupWithManager(manager::Manager& mgr,
                                                         InferenceServiceReconciler& r,
                                                         const SetupOptions& opts) {
  // The reconciler lists Pods through the cache; make sure their informer starts with it.
  base::StatusOr<cache::Informer*> pods = mgr.GetCache().GetInformer("Pod");
  if (!pods.ok()) return pods.status();

  controller::Options options;
  options.max_concurrent_reconciles = opts.max_concurrent_reconciles;
  options.use_priority_queue = opts.use_priority_queue;
  builder::WatchOptions for_options;
  if (!r.bugs().missing_generation_predicate) {
    for_options =
        builder::WithPredicates({std::make_shared<predicate::GenerationChangedPredicate>()});
  }
  base::StatusOr<controller::Controller*> ctrl = builder::ControllerManagedBy(mgr)
                                                     .For(kKind, for_options)
                                                     .Owns("Deployment")
                                                     .WithOptions(options)
                                                     .Complete(r);
  if (!ctrl.ok()) return ctrl;

  if (!r.options().on_blocking) {
    // Blocked time joins the API calls' cost (the manager's meter), so the worker slot stays
    // busy for both.
    manager::Manager* m = &mgr;
    r.SetOnBlocking([m](base::Duration d) { m->AddCost(d); });
  }
  return ctrl;
}

}  // namespace inference
