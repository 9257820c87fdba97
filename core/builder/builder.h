#pragma once
// Builder: the convenience layer that wires a reconciler into a manager — one controller, its
// watches, handlers and predicates. Each method's comment says what it expands to.
// Mirrors: controller-runtime pkg/builder/controller.go and options.go.
// Simplified: kinds are names, not Go types; WatchesRawSource is not offered.
// Single-threaded; Complete returns the controller owned by the manager.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/api/kind.h"
#include "core/base/status.h"
#include "core/controller/controller.h"
#include "core/handler/event_handler.h"
#include "core/manager/manager.h"
#include "core/predicate/predicate.h"
#include "core/reconcile/reconcile.h"

namespace builder {

// WatchOptions are the per-watch options (builder.WithPredicates, builder.MatchEveryOwner).
struct WatchOptions {
  std::vector<predicate::PredicatePtr> predicates;  // WithPredicates: this watch only
  bool match_every_owner = false;                   // Owns only: drop OnlyControllerOwner
};

// WithPredicates returns options holding preds (upstream's builder.WithPredicates).
WatchOptions WithPredicates(std::vector<predicate::PredicatePtr> preds);

class Builder {
 public:
  explicit Builder(manager::Manager& mgr) : mgr_(mgr) {}

  // For is Watches(kind, EnqueueRequestForObject{}, opts) and names the reconciled kind.
  Builder& For(const std::string& kind, WatchOptions opts = {});
  // Owns is Watches(kind, EnqueueRequestForOwner(<For kind>, OnlyControllerOwner()), opts).
  Builder& Owns(const std::string& kind, WatchOptions opts = {});
  // Watches watches kind with a handler of your choice.
  Builder& Watches(const std::string& kind, handler::EventHandlerPtr handler,
                   WatchOptions opts = {});
  // WithEventFilter adds a predicate to every watch (For, Owns and Watches), before the
  // watch's own WithPredicates.
  Builder& WithEventFilter(predicate::PredicatePtr predicate);
  // WithOptions replaces the controller options wholesale.
  Builder& WithOptions(controller::Options options);
  // Named sets the controller name (default: the For kind in lower case). Names are unique
  // within the manager's process unless Options.skip_name_validation.
  Builder& Named(std::string name);

  // Complete builds the controller, adds it to the manager and returns it.
  base::StatusOr<controller::Controller*> Complete(reconcile::Reconciler& reconciler);

 private:
  struct Watch {
    std::string kind;
    handler::EventHandlerPtr handler;  // null: the Owns handler, filled in by Complete
    WatchOptions opts;
    std::string description;           // "For(InferenceService)", "Owns(Deployment)"
  };

  base::Status DoWatch(controller::Controller& ctrl, const api::KindInfo* for_kind);

  manager::Manager& mgr_;
  std::optional<Watch> for_;
  std::vector<Watch> owns_;
  std::vector<Watch> watches_;
  std::vector<predicate::PredicatePtr> global_predicates_;
  std::optional<controller::Options> options_;
  std::string name_;
  std::vector<std::string> errors_;
};

// ControllerManagedBy starts a builder (ctrl.NewControllerManagedBy(mgr)).
inline Builder ControllerManagedBy(manager::Manager& mgr) { return Builder(mgr); }

}  // namespace builder
