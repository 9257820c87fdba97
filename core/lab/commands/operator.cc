// operator: change an installed operator's settings, restart it, switch teaching bugs, and
// take RBAC rules away from it.
// No Go counterpart: these are the operator's main.go flags and its Helm values, plus kubectl
// edits of its ClusterRole.

#include "core/lab/command.h"

namespace lab {
namespace {

constexpr const char* kDefaultOperator = "kuberay-operator";
constexpr const char* kUsage =
    "error: usage: operator [NAME] set K=V … | restart | bug ID on|off | rbac deny VERB RESOURCE "
    "| rbac reset";

}  // namespace

CommandResult RunOperator(CommandContext& ctx, const std::vector<std::string>& args) {
  if (args.empty()) return CommandResult::Error(kUsage);
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
