#include "core/kubectl/import.h"

#include <map>
#include <set>
#include <tuple>

#include "core/api/schema.h"
#include "core/kubectl/clean.h"
#include "core/kubectl/kubectl.h"

namespace kubectl {
namespace {

using Key = std::tuple<std::string, std::string, std::string>;  // kind, namespace, name

base::Status BadRequest(const std::string& message) {
  return base::Status(base::StatusCode::kBadRequest, message);
}

// OwnerNamespace is where ref's owner lives: a dependent's own namespace, or none for a
// cluster-scoped owner (ownerReferences never cross namespaces).
std::string OwnerNamespace(const api::OwnerReference& ref, const std::string& dependent_ns) {
  const api::KindInfo* kind = api::FindKindFor(ref.apiVersion, ref.kind);
  return kind != nullptr && !kind->namespaced ? std::string() : dependent_ns;
}

Key OwnerKey(const api::OwnerReference& ref, const std::string& dependent_ns) {
  return {ref.kind, OwnerNamespace(ref, dependent_ns), ref.name};
}

std::string Describe(const api::KindInfo* kind, const std::string& kind_name,
                     const std::string& name) {
  return (kind != nullptr ? ResourceName(*kind) : kind_name) + "/" + name;
}

}  // namespace

bool HasServerSetFields(const api::Json& doc) {
  auto meta = doc.find("metadata");
  if (meta == doc.end() || !meta->is_object()) return false;
  for (const char* key : {"uid", "creationTimestamp", "managedFields"}) {
    if (meta->contains(key)) return true;
  }
  return false;
}

base::StatusOr<ImportPlan> PlanImport(const apiserver::ApiServer& server,
                                      std::vector<api::Json> docs, const std::string& source,
                                      const std::string& flag_namespace, bool flag_set) {
  // Pass 1: every document maps to a served kind, a name and a namespace.
  std::vector<ImportItem> all;
  std::set<Key> in_bundle;
  for (api::Json& doc : docs) {
    ImportItem item;
    item.kind = api::FindKindFor(api::ApiVersion(doc), api::Kind(doc));
    if (item.kind == nullptr) {
      return base::Status(base::StatusCode::kNotFound,
                          "error: resource mapping not found for name: \"" + api::Name(doc) +
                              "\" namespace: \"" + api::Namespace(doc) + "\" from \"" + source +
                              "\": no matches for kind \"" + api::Kind(doc) +
                              "\" in version \"" + api::ApiVersion(doc) +
                              "\"\nensure CRDs are installed first");
    }
    if (api::Name(doc).empty()) {
      return BadRequest("error: error when importing \"" + source + "\": a " + item.kind->kind +
                        " has no metadata.name (generateName objects are made by controllers)");
    }
    auto ns = ResolveNamespace(*item.kind, doc, flag_namespace, flag_set);
    if (!ns.ok()) return ns.status();
    item.ns = *ns;
    if (item.kind->namespaced) api::Metadata(doc)["namespace"] = item.ns;
    item.object = std::move(doc);
    in_bundle.insert({item.kind->kind, item.ns, api::Name(item.object)});
    all.push_back(std::move(item));
  }

  // Pass 2: leave controlled children to their controllers; clean the rest and check them.
  ImportPlan plan;
  std::vector<ImportItem> kept;
  std::set<Key> kept_keys;
  for (ImportItem& item : all) {
    const std::string name = api::Name(item.object);
    if (auto controller = api::GetControllerOf(item.object)) {
      if (in_bundle.count(OwnerKey(*controller, item.ns)) != 0) {
        const api::KindInfo* owner_kind =
            api::FindKindFor(controller->apiVersion, controller->kind);
        plan.left_to_controllers.push_back(
            SkippedChild{Describe(item.kind, item.kind->kind, name),
                         Describe(owner_kind, controller->kind, controller->name)});
        continue;
      }
    }
    CleanOptions options;
    options.keep_owner_references = true;
    options.keep_sandbox_annotations = true;
    item.object = CleanManifest(item.object, options);
    api::Json checked = item.object;
    api::Metadata(checked).erase("ownerReferences");  // uids are re-linked at apply time
    api::ApplyDefaults(*item.kind, checked);
    if (base::Status s = api::ValidateObject(*item.kind, checked); !s.ok()) {
      return base::Status(s.code(), "Error from server (" + std::string(s.reason()) +
                                        "): error when importing \"" + source +
                                        "\": " + s.message());
    }
    if (item.kind->namespaced && server.Peek("Namespace", "", item.ns) == nullptr &&
        in_bundle.count({"Namespace", "", item.ns}) == 0) {
      return base::Status(base::StatusCode::kNotFound,
                          "Error from server (NotFound): error when importing \"" + source +
                              "\": namespaces \"" + item.ns + "\" not found");
    }
    kept_keys.insert({item.kind->kind, item.ns, name});
    kept.push_back(std::move(item));
  }

  // Pass 3: keep the ownerReferences whose owner will exist (kept here, or already live).
  for (ImportItem& item : kept) {
    api::Json refs = api::Json::array();
    for (const api::OwnerReference& ref : api::OwnerReferences(item.object)) {
      const Key owner = OwnerKey(ref, item.ns);
      const bool live = server.Peek(ref.kind, std::get<1>(owner), ref.name) != nullptr;
      if (kept_keys.count(owner) != 0 || live) refs.push_back(ref.ToJson());
    }
    api::Json& meta = api::Metadata(item.object);
    if (refs.empty()) meta.erase("ownerReferences");
    else meta["ownerReferences"] = refs;
  }

  // Pass 4: apply order — Namespaces first, then each object once its kept owners are placed
  // (otherwise in bundle order).
  std::vector<bool> placed(kept.size(), false);
  std::set<Key> placed_keys;
  auto ready = [&](const ImportItem& item) {
    for (const api::OwnerReference& ref : api::OwnerReferences(item.object)) {
      const Key owner = OwnerKey(ref, item.ns);
      if (kept_keys.count(owner) != 0 && placed_keys.count(owner) == 0) return false;
    }
    return true;
  };
  auto place = [&](size_t i) {
    placed[i] = true;
    placed_keys.insert({kept[i].kind->kind, kept[i].ns, api::Name(kept[i].object)});
    plan.items.push_back(kept[i]);
  };
  for (size_t i = 0; i < kept.size(); ++i) {
    if (kept[i].kind->kind == "Namespace" && ready(kept[i])) place(i);
  }
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < kept.size(); ++i) {
      if (!placed[i] && ready(kept[i])) {
        place(i);
        progress = true;
        break;  // restart, so bundle order wins among the ready ones
      }
    }
  }
  for (size_t i = 0; i < kept.size(); ++i) {
    if (!placed[i]) {
      return BadRequest("error: error when importing \"" + source + "\": the ownerReferences of " +
                        Describe(kept[i].kind, kept[i].kind->kind, api::Name(kept[i].object)) +
                        " form a cycle");
    }
  }
  return plan;
}

base::Status RelinkOwners(const apiserver::ApiServer& server, ImportItem& item) {
  auto refs = api::OwnerReferences(item.object);
  if (refs.empty()) return base::Status::OK();
  api::Json relinked = api::Json::array();
  for (api::OwnerReference& ref : refs) {
    api::ObjectPtr owner = server.Peek(ref.kind, OwnerNamespace(ref, item.ns), ref.name);
    if (owner == nullptr) {
      return base::Status(base::StatusCode::kNotFound,
                          "error: owner " + ref.kind + "/" + ref.name + " of " + item.kind->kind +
                              "/" + api::Name(item.object) + " does not exist");
    }
    ref.uid = api::Uid(*owner);
    relinked.push_back(ref.ToJson());
  }
  api::Metadata(item.object)["ownerReferences"] = relinked;
  return base::Status::OK();
}

}  // namespace kubectl
