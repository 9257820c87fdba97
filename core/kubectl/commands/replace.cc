// replace: kubectl's full update (PUT) of objects read from -f, carrying their resourceVersion,
// so a change made since the manifest was read is refused with the server's 409 Conflict.
// mirrors kubectl pkg/cmd/replace/replace.go (Run) and cli-runtime pkg/resource/helper.go
// (Replace with overwrite=true: an empty resourceVersion is filled from the live object).
// Simplified: no --force (delete and re-create), no --subresource, no --raw.

#include "core/api/patch.h"
#include "core/kubectl/flags.h"
#include "core/kubectl/kubectl.h"
#include "core/kubectl/command.h"

namespace kubectl {
namespace {

constexpr const char* kReplaceLastApplied = "kubectl.kubernetes.io/last-applied-configuration";

// RefreshLastApplied is kubectl's CreateOrUpdateAnnotation(createAnnotation=false): an object
// that already carries the last-applied annotation gets it rewritten to the new configuration
// (so a later `apply` diffs against what was replaced); one without it is left without.
void RefreshLastApplied(api::Json& doc) {
  const auto annotations = api::Annotations(doc);
  if (annotations.find(kReplaceLastApplied) == annotations.end()) return;
  api::Json config = doc;
  api::Json& meta = config["metadata"];
  meta["annotations"].erase(kReplaceLastApplied);
  if (meta["annotations"].empty()) meta.erase("annotations");
  // The server-set fields of the object as read are not configuration.
  for (const char* key : {"resourceVersion", "uid", "creationTimestamp", "generation",
                          "managedFields"}) {
    meta.erase(key);
  }
  config.erase("status");
  api::SetAnnotation(doc, kReplaceLastApplied, config.dump());
}

}  // namespace

CommandResult RunReplace(Context& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {{"filename", 'f', FlagSpec::kStringArray, ""},
                                 {"namespace", 'n', FlagSpec::kString, ""}});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  if (!flags->positional.empty()) {
    return CommandResult::Error("error: Unexpected args: [" + flags->positional[0] + "]");
  }
  const std::vector<std::string> files = flags->GetAll("filename");
  if (files.empty()) return CommandResult::Error("error: must specify --filename to replace");
  CommandResult result;
  client::Client& kubectl = ctx.client;
  for (const std::string& file : files) {
    std::string source;
    auto docs = ReadManifests(ctx.files, file, ctx.base_dir,
                              ctx.heredoc ? &*ctx.heredoc : nullptr, &source);
    if (!docs.ok()) return CommandResult::Error(docs.status().message());
    for (api::Json& doc : *docs) {
      const api::KindInfo* kind = ctx.server.DiscoverFor(api::ApiVersion(doc), api::Kind(doc));
      if (kind == nullptr) {
        result.AddError("error: resource mapping not found for name: \"" + api::Name(doc) +
                        "\" namespace: \"" + api::Namespace(doc) + "\" from \"" + source +
                        "\": no matches for kind \"" + api::Kind(doc) + "\" in version \"" +
                        api::ApiVersion(doc) + "\"\nensure CRDs are installed first");
        continue;
      }
      auto ns = ResolveNamespace(*kind, doc, flags->Get("namespace"), flags->Has("namespace"));
      if (!ns.ok()) {
        result.AddError(ns.status().message());
        continue;
      }
      if (kind->namespaced) api::Metadata(doc)["namespace"] = *ns;
      const std::string name = api::Name(doc);
      if (name.empty()) {
        result.AddError("error: resource name may not be empty");
        continue;
      }
      RefreshLastApplied(doc);
      // helper.Replace(overwrite=true): no resourceVersion in the manifest means "overwrite
      // whatever is there", so the live one is read first; a missing object falls through to the
      // PUT, which the server answers with NotFound.
      if (api::ResourceVersion(doc).empty()) {
        auto live = kubectl.Get(kind->kind, *ns, name);
        if (live.ok()) api::Metadata(doc)["resourceVersion"] = api::ResourceVersion(**live);
      }
      auto replaced = kubectl.Update(std::move(doc));
      if (!replaced.ok()) {
        result.AddError("Error from server (" + std::string(replaced.status().reason()) +
                        "): error when replacing \"" + source + "\": " +
                        replaced.status().message());
        continue;
      }
      result.out += ResourceName(*kind) + "/" + name + " replaced\n";
    }
  }
  return result;
}

}  // namespace kubectl
