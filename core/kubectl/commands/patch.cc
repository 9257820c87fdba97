// patch, label and annotate: kubectl's in-place edits.
// mirrors kubectl pkg/cmd/patch/patch.go, pkg/cmd/label/label.go, pkg/cmd/annotate/annotate.go

#include "core/api/patch.h"
#include "core/kubectl/flags.h"
#include "core/kubectl/kubectl.h"
#include "core/kubectl/command.h"

namespace kubectl {
namespace {

std::string NamespaceFlag(const ParsedFlags& flags) {
  return flags.Has("namespace") ? flags.Get("namespace") : "default";
}

// EditMap implements `label`/`annotate` KEY=VALUE and KEY- arguments on one metadata map.
CommandResult EditMap(Context& ctx, const std::vector<std::string>& args,
                      const char* field, const char* done_word, const char* command) {
  auto flags = ParseFlags(args, {{"namespace", 'n', FlagSpec::kString, ""},
                                 {"overwrite", 0, FlagSpec::kBool, "false"}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  std::vector<std::string> targets, edits;
  for (const std::string& word : flags->positional) {
    const bool is_edit = word.find('=') != std::string::npos ||
                         (word.size() > 1 && word.back() == '-');
    (is_edit && !targets.empty() ? edits : targets).push_back(word);
  }
  if (targets.empty() || edits.empty()) {
    return CommandResult::Error(std::string("error: at least one ") +
                                (std::string(field) == "labels" ? "label" : "annotation") +
                                " update is required");
  }
  auto refs = ParseObjectRefs(targets, &ctx.server);
  if (!refs.ok()) return CommandResult::Error(refs.status().message());
  CommandResult result;
  client::Client& kubectl = ctx.client;
  for (const ObjectRef& ref : *refs) {
    auto live = kubectl.Get(ref.kind->kind, NamespaceFlag(*flags), ref.name);
    if (!live.ok()) {
      result.AddError(ServerError(live.status()));
      continue;
    }
    const auto current = std::string(field) == "labels" ? api::Labels(**live)
                                                         : api::Annotations(**live);
    api::Json changes = api::Json::object();
    bool failed = false;
    for (const std::string& edit : edits) {
      const size_t eq = edit.find('=');
      if (eq == std::string::npos) {
        changes[edit.substr(0, edit.size() - 1)] = nullptr;
        continue;
      }
      const std::string key = edit.substr(0, eq), value = edit.substr(eq + 1);
      auto it = current.find(key);
      if (it != current.end() && it->second != value && !flags->GetBool("overwrite")) {
        result.AddError("error: '" + key + "' already has a value (" + it->second +
                        "), and --overwrite is false");
        failed = true;
        break;
      }
      changes[key] = value;
    }
    if (failed) continue;
    api::Json patch = {{"metadata", {{field, changes}}}};
    const std::string before = api::ResourceVersion(**live);
    auto patched = kubectl.Patch(ref.kind->kind, NamespaceFlag(*flags), ref.name,
                                 client::PatchType::kJsonMerge, patch);
    if (!patched.ok()) {
      result.AddError(ServerError(patched.status()));
      continue;
    }
    const bool changed = api::ResourceVersion(**patched) != before;
    result.out += ResourceName(*ref.kind) + "/" + ref.name + (changed ? " " : " not ") +
                  done_word + "\n";
  }
  (void)command;
  return result;
}

}  // namespace

CommandResult RunPatch(Context& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"namespace", 'n', FlagSpec::kString, ""},
                                 {"type", 0, FlagSpec::kString, "strategic"},
                                 {"patch", 'p', FlagSpec::kString, ""},
                                 {"subresource", 0, FlagSpec::kString, ""}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  if (!flags->Has("patch")) {
    return CommandResult::Error("error: must specify -p to patch");
  }
  auto type = apiserver::ParsePatchType(flags->Get("type"));
  if (!type.has_value()) {
    return CommandResult::Error("error: --type must be one of [json merge strategic], not \"" +
                                flags->Get("type") + "\"");
  }
  const std::string subresource = flags->Get("subresource");
  if (!subresource.empty() && subresource != "status" && subresource != "scale") {
    return CommandResult::Error(
        "error: invalid subresource value: \"" + subresource +
        "\". Must be one of [status scale]");
  }
  if (flags->positional.empty()) {
    return CommandResult::Error("error: You must provide one or more resources by argument or "
                                "filename.");
  }
  auto refs = ParseObjectRefs(flags->positional, &ctx.server);
  if (!refs.ok()) return CommandResult::Error(refs.status().message());
  const std::string body = flags->Get("patch");
  if (api::ExceedsMaxPatchDepth(body)) {  // before parsing: deep documents recurse (fuzz/patch.cc)
    return CommandResult::Error("error: unable to parse \"" + body + "\": exceeded max depth of " +
                                std::to_string(api::kMaxPatchDepth));
  }
  api::Json patch = api::Json::parse(body, nullptr, false);
  if (patch.is_discarded()) {
    return CommandResult::Error("error: unable to parse \"" + body +
                                "\": yaml: did not find expected node content");
  }
  CommandResult result;
  client::Client& kubectl = ctx.client;
  for (const ObjectRef& ref : *refs) {
    if (ref.name.empty()) {
      result.AddError("error: resource(s) were provided, but no name was specified");
      continue;
    }
    if (*type == apiserver::PatchType::kStrategicMerge && ref.kind->custom) {
      // kubectl refuses before sending, with the server's media-type message.
      result.AddError("error: application/strategic-merge-patch+json is not supported by " +
                      ref.kind->ApiVersion() + ", Kind=" + ref.kind->kind +
                      ": the body of the request was in an unknown format - accepted media types "
                      "include: application/json-patch+json, application/merge-patch+json, "
                      "application/apply-patch+yaml");
      continue;
    }
    auto live = kubectl.Get(ref.kind->kind, NamespaceFlag(*flags), ref.name);
    if (!live.ok()) {
      result.AddError(ServerError(live.status()));
      continue;
    }
    auto patched = subresource == "status"
                       ? kubectl.PatchStatus(ref.kind->kind, NamespaceFlag(*flags), ref.name,
                                             *type, patch)
                       : kubectl.Patch(ref.kind->kind, NamespaceFlag(*flags), ref.name, *type,
                                       patch);
    if (!patched.ok()) {
      result.AddError(ServerError(patched.status()));
      continue;
    }
    const bool changed = api::ResourceVersion(**patched) != api::ResourceVersion(**live);
    result.out += ResourceName(*ref.kind) + "/" + ref.name +
                  (changed ? " patched\n" : " patched (no change)\n");
  }
  return result;
}

CommandResult RunLabel(Context& ctx, const std::vector<std::string>& args) {
  return EditMap(ctx, args, "labels", "labeled", "label");
}

CommandResult RunAnnotate(Context& ctx, const std::vector<std::string>& args) {
  return EditMap(ctx, args, "annotations", "annotated", "annotate");
}

}  // namespace kubectl
