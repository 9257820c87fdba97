#pragma once
// ModuleProcess: one operator container running a learner's module — main.go for a module:
// a manager (the operator's ServiceAccount client, RBAC and API faults applied), a fresh realm
// from the module's source, and one controller built with the builder from the module's
// declaration, whose Reconciler calls the module's `reconcile`.
// Mirrors: the kubebuilder scaffold's cmd/main.go (ctrl.NewManager, SetupWithManager,
// setupLog.Error(err, "unable to create controller"); os.Exit(1)) and pkg/reconcile's result
// switch through the controller (core/controller).
// Simplified: one controller per module.
// Single-threaded; a restarted container is a new process with a new realm.

#include <memory>
#include <string>
#include <vector>

#include "core/lab/operator_host.h"
#include "core/learner/module_realm.h"
#include "core/manager/manager.h"

namespace learner {

class ModuleProcess final : public lab::OperatorProcess {
 public:
  // seed seeds the realm's Math.random (with the Pod name mixed in) and the manager's generator.
  ModuleProcess(const lab::ProcessContext& ctx, sim::Scheduler& scheduler,
                std::shared_ptr<const lab::ModuleSource> module, uint64_t seed);
  ~ModuleProcess() override;

  manager::Manager& manager() override { return *manager_; }
  std::vector<controller::Controller*> controllers() override { return controllers_; }

  // Call calls one of the prelude's exports with the process's client bound, logging through
  // ctx when given (reconcile) and the manager otherwise.
  base::StatusOr<std::string> Call(const std::string& name, const std::string& args_json,
                                   reconcile::ReconcileContext* ctx);
  const std::string& filename() const { return module_->filename; }

 private:
  base::Status Setup(const lab::ProcessContext& ctx);

  std::shared_ptr<const lab::ModuleSource> module_;
  uint64_t seed_;  // the realm's
  HostBinding binding_;
  // Invariant: realm_ outlives manager_ (its controllers' predicates and handlers call it).
  std::unique_ptr<ModuleRealm> realm_;
  std::unique_ptr<reconcile::Reconciler> reconciler_;
  std::unique_ptr<manager::Manager> manager_;
  std::vector<controller::Controller*> controllers_;
};

}  // namespace learner
