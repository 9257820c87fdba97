#include "core/learner/install.h"

#include <memory>

#include "core/lab/simulation.h"
#include "core/learner/module_process.h"

namespace learner {
namespace {

api::Json Rule(std::vector<std::string> groups, std::vector<std::string> resources,
               std::vector<std::string> verbs) {
  return {{"apiGroups", groups}, {"resources", resources}, {"verbs", verbs}};
}

bool ValidName(const std::string& name) {
  if (name.empty() || name.size() > 52) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return name.front() != '-' && name.back() != '-';
}

}  // namespace

base::StatusOr<lab::OperatorSpec> LoadModuleOperator(lab::Simulation& sim,
                                                     const lab::ModuleSource& module) {
  if (!ValidName(module.name)) {
    return base::Status(base::StatusCode::kInvalid,
                        "operator name \"" + module.name +
                            "\" must be a DNS label: lower case letters, digits and '-'");
  }
  // The check runs the module's top level with no client (a load-time read is refused).
  auto checked = ModuleRealm::Load(module, sim.seed(), nullptr);
  if (!checked.ok()) return checked.status();
  lab::OperatorSpec spec;
  spec.name = module.name;
  spec.image = "learner/" + module.name + ":" + module.filename;
  spec.cluster_rules = (*checked)->declaration().rbac;
  spec.cluster_rules.push_back(Rule({"coordination.k8s.io"}, {"leases"},
                                    {"get", "list", "watch", "create", "update", "patch"}));
  spec.cluster_rules.push_back(Rule({""}, {"events"}, {"create", "patch"}));
  auto source = std::make_shared<const lab::ModuleSource>(module);
  sim::Scheduler* scheduler = &sim.scheduler();
  const uint64_t seed = sim.seed();
  spec.factory = [source, scheduler,
                  seed](const lab::ProcessContext& ctx) -> std::unique_ptr<lab::OperatorProcess> {
    return std::make_unique<ModuleProcess>(ctx, *scheduler, source, seed);
  };
  return spec;
}

void InstallModuleOperators(lab::Lab& lab) {
  lab.set_module_operator_loader(LoadModuleOperator);
  // The Labs the session builds itself (a rewind's replay, a lesson check) load modules too.
  lab::SetDefaultModuleOperatorLoader(LoadModuleOperator);
}

}  // namespace learner
