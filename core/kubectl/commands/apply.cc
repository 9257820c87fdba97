// apply and create: kubectl's client-side apply (last-applied annotation + three-way patch)
// and plain create.
// mirrors kubectl pkg/cmd/apply/apply.go and patcher.go (client-side apply path)

#include "core/api/patch.h"
#include "core/api/strategic_merge.h"
#include "core/kubectl/flags.h"
#include "core/kubectl/import.h"
#include "core/kubectl/kubectl.h"
#include "core/kubectl/command.h"

namespace kubectl {
namespace {

constexpr const char* kLastApplied = "kubectl.kubernetes.io/last-applied-configuration";

std::vector<FlagSpec> ApplySpecs() {
  return {{"filename", 'f', FlagSpec::kStringArray, ""},
          {"namespace", 'n', FlagSpec::kString, ""},
          {"dry-run", 0, FlagSpec::kString, "none"}};
}

// LastAppliedOf is what kubectl stores: the config as given, without the annotation itself.
std::string LastAppliedOf(api::Json config) {
  if (config.contains("metadata") && config["metadata"].contains("annotations")) {
    config["metadata"]["annotations"].erase(kLastApplied);
    if (config["metadata"]["annotations"].empty()) config["metadata"].erase("annotations");
  }
  return config.dump();
}

struct Decoded {
  std::vector<api::Json> docs;
  std::string source;
};

base::StatusOr<Decoded> DecodeFiles(Context& ctx, const ParsedFlags& flags,
                                    const char* verb) {
  Decoded decoded;
  const std::vector<std::string> files = flags.GetAll("filename");
  if (files.empty()) {
    return base::Status(base::StatusCode::kBadRequest,
                        std::string("error: must specify one of -f and -k"));
  }
  for (const std::string& file : files) {
    std::string source;
    auto docs = ReadManifests(ctx.files, file, ctx.base_dir, ctx.heredoc ? &*ctx.heredoc : nullptr,
                              &source);
    if (!docs.ok()) return docs.status();
    for (auto& d : *docs) decoded.docs.push_back(std::move(d));
    decoded.source = source;
  }
  (void)verb;
  return decoded;
}

// MappingError is kubectl's message for a kind the server does not serve.
std::string MappingError(const api::Json& doc, const std::string& source) {
  return "error: resource mapping not found for name: \"" + api::Name(doc) + "\" namespace: \"" +
         api::Namespace(doc) + "\" from \"" + source + "\": no matches for kind \"" +
         api::Kind(doc) + "\" in version \"" + api::ApiVersion(doc) +
         "\"\nensure CRDs are installed first";
}

// Place maps a decoded document to its kind and namespace (written into the document), or the
// error kubectl prints for it.
base::StatusOr<std::string> Place(const apiserver::ApiServer& server, api::Json& doc,
                                  const ParsedFlags& flags, const std::string& source,
                                  const api::KindInfo** kind) {
  *kind = server.DiscoverFor(api::ApiVersion(doc), api::Kind(doc));
  if (*kind == nullptr) {
    return base::Status(base::StatusCode::kNotFound, MappingError(doc, source));
  }
  auto ns = ResolveNamespace(**kind, doc, flags.Get("namespace"), flags.Has("namespace"));
  if (ns.ok() && (*kind)->namespaced) api::Metadata(doc)["namespace"] = *ns;
  return ns;
}

// ApplyOne is kubectl's client-side apply of one placed document: create it with the
// last-applied annotation, or three-way patch the live object.
// ApplyMetaFieldIsStringOrAbsent reports whether metadata.KEY is a string or not there at all.
bool ApplyMetaFieldIsStringOrAbsent(const api::Json& doc, const char* key) {
  auto meta = doc.find("metadata");
  if (meta == doc.end() || !meta->is_object()) return true;
  auto v = meta->find(key);
  return v == meta->end() || v->is_null() || v->is_string();
}

void ApplyOne(client::Client& kubectl, const api::KindInfo& kind, const std::string& ns,
              const api::Json& doc, const std::string& source, CommandResult& result) {
  const std::string name = api::Name(doc);
  const std::string last_applied = LastAppliedOf(doc);
  api::Json modified = doc;
  api::SetAnnotation(modified, kLastApplied, last_applied);
  auto live = kubectl.Get(kind.kind, ns, name);
  if (!live.ok() && !base::IsNotFound(live.status())) {
    result.AddError(ServerError(live.status()));
    return;
  }
  if (!live.ok()) {
    auto created = kubectl.Create(modified);
    if (!created.ok()) {
      result.AddError("Error from server (" + std::string(created.status().reason()) +
                      "): error when creating \"" + source + "\": " + created.status().message());
      return;
    }
    result.out += ResourceName(kind) + "/" + api::Name(**created) + " created\n";
    return;
  }
  const api::Json& current = **live;
  api::Json original = api::Json::object();
  const auto annotations = api::Annotations(current);
  auto it = annotations.find(kLastApplied);
  // A last-applied annotation nested too deeply is ignored like an unparsable one (the merge
  // below recurses through it).
  if (it != annotations.end() && !api::ExceedsMaxPatchDepth(it->second)) {
    api::Json parsed = api::Json::parse(it->second, nullptr, false);
    if (!parsed.is_discarded() && parsed.is_object()) original = parsed;
  }
  const bool strategic = !kind.custom;
  api::Json patch = api::CreateThreeWayMergePatch(kind.kind, original, modified, current,
                                                  strategic);
  if (patch.is_null() || patch.empty()) {
    result.out += ResourceName(kind) + "/" + name + " unchanged\n";
    return;
  }
  auto patched = kubectl.Patch(kind.kind, ns, name,
                               strategic ? client::PatchType::kStrategicMerge
                                         : client::PatchType::kJsonMerge,
                               patch);
  if (!patched.ok()) {
    result.AddError("Error from server (" + std::string(patched.status().reason()) +
                    "): error when applying patch:\n" + patch.dump() + "\n\nto:\nResource: \"" +
                    kind.GroupResource() + "\", GroupVersionKind: \"" + kind.ApiVersion() +
                    ", Kind=" + kind.kind + "\"\nName: \"" + name + "\", Namespace: \"" + ns +
                    "\"\nfor: \"" + source + "\": " + patched.status().message());
    return;
  }
  result.out += ResourceName(kind) + "/" + name + " configured\n";
}

// ApplyImport applies objects read back from a cluster (import.h): checked as a whole first,
// then applied owners first, each ownerReference re-linked to the owner's new uid.
CommandResult ApplyImport(Context& ctx, const ParsedFlags& flags, Decoded decoded) {
  auto plan = PlanImport(ctx.server, std::move(decoded.docs), decoded.source,
                         flags.Get("namespace"), flags.Has("namespace"));
  if (!plan.ok()) return CommandResult::Error(plan.status().message());
  CommandResult result;
  for (ImportItem& item : plan->items) {
    if (base::Status s = RelinkOwners(ctx.server, item); !s.ok()) {
      result.AddError(s.message());
      continue;
    }
    ApplyOne(ctx.client, *item.kind, item.ns, item.object, decoded.source, result);
  }
  for (const SkippedChild& child : plan->left_to_controllers) {
    result.out += child.object + " skipped (controlled by " + child.controller +
                  "): its controller recreates it\n";
  }
  return result;
}

}  // namespace

CommandResult RunApply(Context& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, ApplySpecs());
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  if (!flags->positional.empty()) {
    return CommandResult::Error("error: Unexpected args: [" + flags->positional[0] + "]");
  }
  auto decoded = DecodeFiles(ctx, *flags, "apply");
  if (!decoded.ok()) return CommandResult::Error(decoded.status().message());
  for (const api::Json& doc : decoded->docs) {
    if (HasServerSetFields(doc)) return ApplyImport(ctx, *flags, std::move(*decoded));
  }
  CommandResult result;
  for (api::Json& doc : decoded->docs) {
    const api::KindInfo* kind = nullptr;
    auto ns = Place(ctx.server, doc, *flags, decoded->source, &kind);
    if (!ns.ok()) {
      result.AddError(ns.status().message());
      continue;
    }
    const std::string name = api::Name(doc);
    if (name.empty() && !ApplyMetaFieldIsStringOrAbsent(doc, "name")) {
      // A name that is not a string (`name: 12345`): the server's validation names its type.
      auto created = ctx.client.Create(doc);
      if (created.ok()) {
        result.out += ResourceName(*kind) + "/" + api::Name(**created) + " created\n";
        continue;
      }
      result.AddError("Error from server (" + std::string(created.status().reason()) +
                      "): error when creating \"" + decoded->source + "\": " +
                      created.status().message());
      continue;
    }
    if (name.empty()) {
      result.AddError("error: error when retrieving current configuration of:\nResource: \"" +
                      kind->GroupResource() + "\", GroupVersionKind: \"" + kind->ApiVersion() +
                      ", Kind=" + kind->kind + "\"\nName: \"\", Namespace: \"" + *ns +
                      "\"\nfrom server for: \"" + decoded->source +
                      "\": resource name may not be empty");
      continue;
    }
    ApplyOne(ctx.client, *kind, *ns, doc, decoded->source, result);
  }
  return result;
}

CommandResult RunCreate(Context& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, ApplySpecs());
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  client::Client& kubectl = ctx.client;
  if (!flags->positional.empty()) {
    // `create namespace NAME` is the one generator the lab offers.
    const std::string& what = flags->positional[0];
    if ((what == "namespace" || what == "ns") && flags->positional.size() == 2) {
      api::Json ns = {{"apiVersion", "v1"},
                      {"kind", "Namespace"},
                      {"metadata", {{"name", flags->positional[1]}}}};
      auto created = kubectl.Create(ns);
      if (!created.ok()) return CommandResult::Error(ServerError(created.status()));
      CommandResult result;
      result.out = "namespace/" + flags->positional[1] + " created\n";
      return result;
    }
    if (what == "namespace" || what == "ns") {
      return CommandResult::Error("error: exactly one NAME is required, got " +
                                  std::to_string(flags->positional.size() - 1));
    }
    return CommandResult::Error("error: unknown command \"" + what + "\" for \"kubectl create\"");
  }
  auto decoded = DecodeFiles(ctx, *flags, "create");
  if (!decoded.ok()) return CommandResult::Error(decoded.status().message());
  CommandResult result;
  for (api::Json& doc : decoded->docs) {
    const api::KindInfo* kind = nullptr;
    auto ns = Place(ctx.server, doc, *flags, decoded->source, &kind);
    if (!ns.ok()) {
      result.AddError(ns.status().message());
      continue;
    }
    auto created = kubectl.Create(doc);
    if (!created.ok()) {
      result.AddError("Error from server (" + std::string(created.status().reason()) +
                      "): error when creating \"" + decoded->source +
                      "\": " + created.status().message());
      continue;
    }
    result.out += ResourceName(*kind) + "/" + api::Name(**created) + " created\n";
  }
  return result;
}

}  // namespace kubectl
