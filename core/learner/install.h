#pragma once
// The entry points of learner modules for the lab: LoadModuleOperator checks a module and
// describes its operator; InstallModuleOperators registers it as a Lab's `operator load`
// loader (core/lab/module_operator.h). The rlab CLI, the tests and the page's editor build
// call InstallModuleOperators once per Lab.
// No Go counterpart (building and deploying the operator's image: `make docker-build deploy`).

#include "core/base/status.h"
#include "core/lab/lab.h"
#include "core/lab/module_operator.h"

namespace learner {

// LoadModuleOperator evaluates the module once (syntax, load-time exceptions, its controller
// declaration, all with the module's line numbers) and returns its OperatorSpec: the ClusterRole
// from the module's `rbac` plus leader election's leases and events (kubebuilder's
// leader_election_role.yaml), and a factory whose every process runs the module in a fresh realm.
base::StatusOr<lab::OperatorSpec> LoadModuleOperator(lab::Simulation& sim,
                                                     const lab::ModuleSource& module);

// InstallModuleOperators makes `operator load` and `operator reload` work in lab, and in every
// Lab constructed afterwards (a rewind's replay, a lesson check: the default loader).
void InstallModuleOperators(lab::Lab& lab);

}  // namespace learner
