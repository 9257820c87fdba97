#pragma once
// Declaration: what a learner module's `export const controller = {...}` says, checked — the
// JavaScript form of controller-runtime's builder chain
// (ctrl.NewControllerManagedBy(mgr).Named(...).For(...).Owns(...).Watches(...).WithOptions(...))
// plus the kubebuilder RBAC markers (`rbac`).
// Mirrors: pkg/builder/controller.go (For, Owns, Watches, WithPredicates, Named, WithOptions),
// pkg/predicate (the built-in predicates by name), pkg/controller Options
// (MaxConcurrentReconciles, the priority queue).
// Simplified: kinds are names (with their apiVersion checked against discovery); Watches takes
// a map function (EnqueueRequestsFromMapFunc) or none (EnqueueRequestForObject).

#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/status.h"

namespace learner {

// PredicateDecl is a built-in predicate by name, or the module's function (index into the
// watch's `predicates` array).
struct PredicateDecl {
  std::string name;  // "GenerationChanged", ... ; "" for a function
  bool is_function = false;
};

struct WatchDecl {
  std::string api_version;  // "" when not given
  std::string kind;
  std::vector<PredicateDecl> predicates;
  bool has_map = false;  // Watches only: a map function
};

struct Declaration {
  std::string name;  // the controller's name ("" = the For kind in lower case)
  bool has_for = false;
  WatchDecl for_;
  std::vector<WatchDecl> owns;
  std::vector<WatchDecl> watches;
  int max_concurrent_reconciles = 0;  // 0: the operator's setting
  std::string queue;                  // "" | "priority" | "classic"
  std::vector<api::Json> rbac;        // ClusterRole rules
};

// kBuiltinPredicates are the names a module may use.
extern const char* const kBuiltinPredicates[4];

// ParseDeclaration checks the prelude's description of the module's controller (JSON text).
// Errors (kInvalid) name the field: "controller.watches[0].kind must be a string".
base::StatusOr<Declaration> ParseDeclaration(const std::string& json_text);

}  // namespace learner
