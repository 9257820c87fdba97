// operator: change an installed operator's settings, restart it, switch teaching bugs, and
// take RBAC rules away from it.
// No Go counterpart: these are the operator's main.go flags and its Helm values, plus kubectl
// edits of its ClusterRole.

#include "core/lab/command.h"
#include "core/lab/module_operator.h"

namespace lab {
namespace {

constexpr const char* kLoadUsage =
    "error: usage: operator load NAME FILE.js|- [--namespace NS] | operator reload NAME "
    "[FILE.js|-]  (- reads the module from a here-document: <<'EOF')";

// ModuleText reads the module a `load` or `reload` names: a file (through the lab's files) or
// `-`, the command's here-document, which a replayed script carries verbatim.
base::StatusOr<ModuleSource> ModuleText(CommandContext& ctx, const std::string& name,
                                        const std::string& path) {
  ModuleSource module;
  module.name = name;
  if (path == "-") {
    if (!ctx.heredoc.has_value()) {
      return base::Status(base::StatusCode::kBadRequest,
                          "error: operator " + name + ": - needs the module in a here-document");
    }
    module.filename = name + ".js";
    module.source = *ctx.heredoc;
    return module;
  }
  const std::string full =
      ctx.base_dir.empty() || path.rfind('/', 0) == 0 ? path : ctx.base_dir + "/" + path;
  auto text = ctx.files.ReadFile(full);
  if (!text.ok()) {
    return base::Status(text.status().code(), "error: " + text.status().message());
  }
  const size_t slash = path.rfind('/');
  module.filename = slash == std::string::npos ? path : path.substr(slash + 1);
  module.source = *text;
  return module;
}

// RunModuleOperator is `operator load` and `operator reload`: a learner's module installed as
// an operator, or an installed module operator's code swapped (its Pods restarted). A module
// that does not compile or load changes nothing, and a reload keeps the old code running.
CommandResult RunModuleOperator(CommandContext& ctx, const std::vector<std::string>& args) {
  const bool reload = args[0] == "reload";
  std::vector<std::string> positional;
  std::string watch_namespace;
  bool namespace_given = false;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--namespace" || args[i] == "-n") {
      if (i + 1 >= args.size() || reload) return CommandResult::Error(kLoadUsage);
      watch_namespace = args[++i];
      namespace_given = true;
    } else if (args[i].rfind("--namespace=", 0) == 0 && !reload) {
      watch_namespace = args[i].substr(12);
      namespace_given = true;
    } else {
      positional.push_back(args[i]);
    }
  }
  if (positional.empty() || positional.size() > 2 || (!reload && positional.size() != 2)) {
    return CommandResult::Error(kLoadUsage);
  }
  if (namespace_given && watch_namespace.empty()) return CommandResult::Error(kLoadUsage);
  if (ctx.module_loader == nullptr || !*ctx.module_loader) {
    return CommandResult::Error(kNoEngineError);
  }
  const std::string& name = positional[0];
  OperatorHost* host = ctx.sim.Operator(name);
  if (reload && host == nullptr) {
    return CommandResult::Error("error: operator \"" + name + "\" is not installed");
  }
  if (reload && !host->spec().module.has_value()) {
    return CommandResult::Error("error: operator \"" + name +
                                "\" is not a module operator (operator load installs one)");
  }
  if (!reload && host != nullptr) {
    return CommandResult::Error("error: operator \"" + name +
                                "\" is already installed (use "
                                "operator reload " +
                                name + ")");
  }
  // The module's path: as given, `-` for the here-document, or (a reload without one) the path
  // the module was loaded from, re-read; a module loaded from a here-document needs a new one.
  std::string path = positional.size() == 2 ? positional[1] : "-";
  if (positional.size() == 1 && !ctx.heredoc.has_value()) {
    path = host->spec().module->path;
    if (path.empty()) {
      return CommandResult::Error("error: operator " + name +
                                  " was loaded from a here-document: give the new module (" +
                                  "operator reload " + name + " - <<'EOF')");
    }
  }
  base::StatusOr<ModuleSource> module = ModuleText(ctx, name, path);
  if (!module.ok()) return CommandResult::Error(module.status().message());
  if (path != "-") module->path = path;
  base::StatusOr<OperatorSpec> spec = (*ctx.module_loader)(ctx.sim, *module);
  if (!spec.ok()) {
    const std::string& m = spec.status().message();
    return CommandResult::Error(m.rfind("error: ", 0) == 0 ? m : "error: " + m);
  }
  spec->module = *module;
  CommandResult result;
  if (reload) {
    if (base::Status s = host->Replace(std::move(*spec)); !s.ok()) {
      return CommandResult::Error(s.message());
    }
    result.out = "deployment.apps/" + name + " reloaded (" + module->filename + ")\n";
    return result;
  }
  OperatorSettings settings;
  settings.watch_namespace = watch_namespace;
  if (base::Status s = ctx.sim.AddOperator(std::move(*spec), settings); !s.ok()) {
    const std::string& m = s.message();
    return CommandResult::Error(m.rfind("error: ", 0) == 0 ? m : "error: " + m);
  }
  result.out = "deployment.apps/" + name + " created (" + module->filename + ")\n";
  return result;
}

constexpr const char* kDefaultOperator = "kuberay-operator";
constexpr const char* kUsage =
    "error: usage: operator [NAME] set K=V … | restart | bug ID on|off | rbac deny VERB RESOURCE "
    "| rbac reset";

}  // namespace

CommandResult RunOperator(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args.empty()) return CommandResult::Error(kUsage);
  if (args[0] == "load" || args[0] == "reload") return RunModuleOperator(ctx, args);
  size_t i = 0;
  std::string name = kDefaultOperator;
  static const char* kVerbs[] = {"set", "restart", "bug", "rbac"};
  bool first_is_verb = false;
  for (const char* v : kVerbs) first_is_verb = first_is_verb || args[0] == v;
  if (!first_is_verb) {
    name = args[0];
    i = 1;
  }
  OperatorHost* host = ctx.sim.Operator(name);
  if (host == nullptr) {
    std::string installed;
    for (const auto& op : ctx.sim.operators()) installed += (installed.empty() ? "" : ", ") + op->name();
    return CommandResult::Error("error: operator \"" + name + "\" is not installed" +
                                (installed.empty() ? "" : " (installed: " + installed + ")"));
  }
  if (i >= args.size()) return CommandResult::Error(kUsage);
  const std::string verb = args[i];
  std::vector<std::string> rest(args.begin() + static_cast<long>(i) + 1, args.end());
  CommandResult result;
  if (verb == "set") {
    if (rest.empty()) return CommandResult::Error("error: operator set needs K=V");
    std::vector<std::pair<std::string, std::string>> kvs;
    for (const std::string& kv : rest) {
      const size_t eq = kv.find('=');
      if (eq == std::string::npos) {
        return CommandResult::Error("error: \"" + kv + "\" is not K=V");
      }
      kvs.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    base::Status s = host->SetAll(kvs);  // all or nothing: an error changes nothing
    if (!s.ok()) return CommandResult::Error(s.message());
    for (const std::string& kv : rest) result.out += name + ": " + kv + "\n";
    if (rest.size() != 1 || rest[0].rfind("replicas=", 0) != 0) {
      result.out += "(takes effect when the operator restarts: operator " + name + " restart)\n";
    }
    return result;
  }
  if (verb == "restart") {
    if (!rest.empty()) return CommandResult::Error(kUsage);
    base::Status s = host->Restart();
    if (!s.ok()) return CommandResult::Error(s.message());
    result.out = "deployment.apps/" + name + " restarted\n";
    return result;
  }
  if (verb == "bug") {
    if (rest.size() != 2 || (rest[1] != "on" && rest[1] != "off")) {
      return CommandResult::Error("error: usage: operator [NAME] bug ID on|off");
    }
    base::Status s = host->SetBug(rest[0], rest[1] == "on");
    if (!s.ok()) return CommandResult::Error(s.message());
    result.out = name + ": bug " + rest[0] + " " + rest[1] +
                 " (takes effect when the operator restarts: operator " + name + " restart)\n";
    return result;
  }
  if (verb == "rbac") {
    if (rest.size() == 3 && rest[0] == "deny") {
      base::Status s = host->RbacDeny(rest[1], rest[2]);
      if (!s.ok()) return CommandResult::Error(s.message());
      result.out = "clusterrole.rbac.authorization.k8s.io/" + name + " no longer allows " +
                   rest[1] + " " + rest[2] + "\n";
      return result;
    }
    if (rest.size() == 1 && rest[0] == "reset") {
      base::Status s = host->RbacReset();
      if (!s.ok()) return CommandResult::Error(s.message());
      result.out = "clusterrole.rbac.authorization.k8s.io/" + name + " restored\n";
      return result;
    }
    return CommandResult::Error("error: usage: operator [NAME] rbac deny VERB RESOURCE | rbac reset");
  }
  return CommandResult::Error(kUsage);
}

}  // namespace lab
