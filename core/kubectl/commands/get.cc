// get and describe: kubectl's read commands over the learner's client.
// mirrors kubectl pkg/cmd/get/get.go (output forms) and pkg/cmd/describe

#include "core/api/jsonpath.h"
#include "core/api/selector.h"
#include "core/api/yaml.h"
#include "core/kubectl/flags.h"
#include "core/kubectl/kubectl.h"
#include "core/kubectl/printers/describe.h"
#include "core/kubectl/printers/table.h"
#include "core/kubectl/command.h"

namespace kubectl {
namespace {

std::vector<FlagSpec> GetSpecs() {
  return {{"namespace", 'n', FlagSpec::kString, ""},
          {"all-namespaces", 'A', FlagSpec::kBool, "false"},
          {"selector", 'l', FlagSpec::kString, ""},
          {"field-selector", 0, FlagSpec::kString, ""},
          {"output", 'o', FlagSpec::kString, ""},
          {"show-labels", 0, FlagSpec::kBool, "false"}};
}

// KindsOf splits "pods,svc" and expands "all" the way kubectl's category does.
base::StatusOr<std::vector<const api::KindInfo*>> KindsOf(const std::string& text,
                                                          const apiserver::ApiServer& server) {
  std::vector<const api::KindInfo*> kinds;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string word = text.substr(start, comma - start);
    if (word == "all") {
      for (const char* k : {"Pod", "Service", "Deployment", "ReplicaSet", "Job", "CronJob"}) {
        kinds.push_back(api::FindKind(k));
      }
    } else {
      auto kind = ResolveKind(word, &server);
      if (!kind.ok()) return kind.status();
      kinds.push_back(*kind);
    }
    start = comma + 1;
  }
  return kinds;
}

}  // namespace

CommandResult RunGet(Context& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, GetSpecs());
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  const std::vector<std::string>& pos = flags->positional;
  if (pos.empty()) {
    return CommandResult::Error(
        "error: You must specify the type of resource to get. Use \"kubectl api-resources\" for "
        "a complete list of supported resources.");
  }
  const std::string output = flags->Get("output");
  const bool all_ns = flags->GetBool("all-namespaces");
  const std::string ns = flags->Has("namespace") ? flags->Get("namespace") : "default";
  if (!output.empty() && output != "json" && output != "yaml" && output != "wide" &&
      output != "name" && output.rfind("jsonpath=", 0) != 0) {
    return CommandResult::Error("error: unable to match a printer suitable for the output format \"" +
                                output + "\", allowed formats are: "
                                "json,jsonpath,name,wide,yaml");
  }

  // Collect (kind, objects) groups, keeping kubectl's order: kinds as typed, names as typed.
  struct Group {
    const api::KindInfo* kind;
    std::vector<api::ObjectPtr> objects;
  };
  std::vector<Group> groups;
  CommandResult result;
  bool named = false;
  client::Client& kubectl = ctx.client;
  if (pos[0].find('/') != std::string::npos || pos.size() > 1) {
    auto refs = ParseObjectRefs(pos, &ctx.server);
    if (!refs.ok()) return CommandResult::Error(refs.status().message());
    named = true;
    for (const ObjectRef& ref : *refs) {
      auto obj = kubectl.Get(ref.kind->kind, ns, ref.name);
      if (!obj.ok()) {
        result.AddError(ServerError(obj.status()));
        continue;
      }
      if (groups.empty() || groups.back().kind != ref.kind) groups.push_back({ref.kind, {}});
      groups.back().objects.push_back(*obj);
    }
  } else {
    auto kinds = KindsOf(pos[0], ctx.server);
    if (!kinds.ok()) return CommandResult::Error(kinds.status().message());
    for (const api::KindInfo* kind : *kinds) {
      client::ListOptions list_opts{flags->Get("selector"), flags->Get("field-selector")};
      auto objs = kubectl.List(kind->kind, all_ns ? "" : ns, list_opts);
      if (!objs.ok()) return CommandResult::Error(ServerError(objs.status()));
      groups.push_back({kind, std::move(objs.value())});
    }
  }

  std::vector<api::ObjectPtr> all;
  for (const Group& g : groups) all.insert(all.end(), g.objects.begin(), g.objects.end());
  const bool single = named && all.size() == 1 && pos.size() <= 2 &&
                      pos[0].find(',') == std::string::npos;
  if (output == "json" || output == "yaml" || output.rfind("jsonpath=", 0) == 0) {
    if (all.empty() && !named) {
      // kubectl still prints an empty List for -o json/yaml.
    }
    if (named && all.empty()) return result;
    const api::Json doc = single ? *all[0] : AsList(all);
    if (output == "json") {
      result.out += DumpJson(doc);
    } else if (output == "yaml") {
      result.out += api::ToYaml(doc);
    } else {
      // kubectl get defaults to --allow-missing-template-keys=true.
      auto text = api::EvaluateJsonPath(output.substr(9), doc, /*allow_missing_keys=*/true);
      if (!text.ok()) {
        result.AddError(text.status().message().rfind("error:", 0) == 0
                            ? text.status().message()
                            : "error: " + text.status().message());
        return result;
      }
      result.out += *text;
    }
    return result;
  }
  if (output == "name") {
    for (const Group& g : groups) result.out += printers::RenderNames(*g.kind, g.objects);
    return result;
  }
  const bool many_kinds = groups.size() > 1;
  bool printed_any = false;
  for (const Group& g : groups) {
    if (g.objects.empty()) continue;
    printers::PrintOptions opts;
    opts.wide = output == "wide";
    opts.with_namespace = all_ns && g.kind->namespaced;
    opts.with_kind = many_kinds;
    printers::Table table = printers::BuildTable(*g.kind, g.objects, ctx.clock.Now(), opts);
    if (flags->GetBool("show-labels")) {
      // mirrors kubectl's --show-labels: one more column, "k=v,k2=v2" or <none>.
      table.headers.push_back("LABELS");
      for (size_t i = 0; i < table.rows.size() && i < g.objects.size(); ++i) {
        std::string labels;
        for (const auto& [k, v] : api::Labels(*g.objects[i])) {
          labels += (labels.empty() ? "" : ",") + k + "=" + v;
        }
        table.rows[i].push_back(labels.empty() ? "<none>" : labels);
      }
    }
    if (printed_any) result.out += "\n";
    result.out += printers::RenderTable(table);
    printed_any = true;
  }
  if (!printed_any && !named) {
    const bool cluster_scoped = !groups.empty() && !groups[0].kind->namespaced;
    result.err += printers::NoResourcesMessage(all_ns, ns, cluster_scoped) + "\n";
  }
  return result;
}

CommandResult RunDescribe(Context& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"namespace", 'n', FlagSpec::kString, ""}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  const std::string ns = flags->Has("namespace") ? flags->Get("namespace") : "default";
  if (flags->positional.empty()) {
    return CommandResult::Error("error: You must specify the type of resource to describe.");
  }
  auto refs = ParseObjectRefs(flags->positional, &ctx.server);
  if (!refs.ok()) return CommandResult::Error(refs.status().message());
  CommandResult result;
  client::Client& kubectl = ctx.client;
  for (const ObjectRef& ref : *refs) {
    std::vector<api::ObjectPtr> targets;
    if (ref.name.empty()) {
      auto objs = kubectl.List(ref.kind->kind, ns);
      if (!objs.ok()) return CommandResult::Error(ServerError(objs.status()));
      targets = *objs;
    } else {
      auto obj = kubectl.Get(ref.kind->kind, ns, ref.name);
      if (!obj.ok()) {
        result.AddError(ServerError(obj.status()));
        continue;
      }
      targets.push_back(*obj);
    }
    for (const api::ObjectPtr& obj : targets) {
      auto events = kubectl.List("Event", ref.kind->namespaced ? api::Namespace(*obj) : "");
      if (!result.out.empty()) result.out += "\n\n";
      result.out += printers::Describe(*ref.kind, *obj, events.ok() ? *events : std::vector<api::ObjectPtr>{},
                                       ctx.clock.Now());
    }
  }
  return result;
}

}  // namespace kubectl
