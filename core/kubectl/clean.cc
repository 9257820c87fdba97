#include "core/kubectl/clean.h"

#include <algorithm>

namespace kubectl {
namespace {

constexpr const char* kExportLastApplied = "kubectl.kubernetes.io/last-applied-configuration";
constexpr const char* kSandboxPrefix = "sim.reconcile-lab.io/";

// LastAppliedFinalizers reads the finalizers the learner's own configuration listed; has_config
// is false when the object was never applied (created with `create`).
std::vector<std::string> LastAppliedFinalizers(const api::Json& obj, bool* has_config) {
  *has_config = false;
  const auto annotations = api::Annotations(obj);
  auto it = annotations.find(kExportLastApplied);
  if (it == annotations.end()) return {};
  api::Json config = api::Json::parse(it->second, nullptr, false);
  if (config.is_discarded() || !config.is_object()) return {};
  *has_config = true;
  return api::Finalizers(config);
}

// DropSandboxAnnotations removes sim.reconcile-lab.io/ annotations from every metadata in node
// (the object's own and its Pod templates', however deeply nested), collecting their keys.
void DropSandboxAnnotations(api::Json& node, std::vector<std::string>* dropped) {
  if (node.is_array()) {
    for (api::Json& item : node) DropSandboxAnnotations(item, dropped);
    return;
  }
  if (!node.is_object()) return;
  auto meta = node.find("metadata");
  if (meta != node.end() && meta->is_object()) {
    auto annotations = meta->find("annotations");
    if (annotations != meta->end() && annotations->is_object()) {
      for (auto it = annotations->begin(); it != annotations->end();) {
        if (it.key().rfind(kSandboxPrefix, 0) == 0) {
          if (dropped != nullptr &&
              std::find(dropped->begin(), dropped->end(), it.key()) == dropped->end()) {
            dropped->push_back(it.key());
          }
          it = annotations->erase(it);
        } else {
          ++it;
        }
      }
      if (annotations->empty()) meta->erase("annotations");
    }
  }
  for (auto& [key, value] : node.items()) {
    if (key != "metadata") DropSandboxAnnotations(value, dropped);
  }
}

}  // namespace

api::Json CleanManifest(const api::Json& obj, const CleanOptions& options,
                        std::vector<std::string>* dropped_sandbox) {
  api::Json clean = obj;
  bool has_config = false;
  const std::vector<std::string> own_finalizers = LastAppliedFinalizers(obj, &has_config);
  clean.erase("status");
  api::Json& meta = api::Metadata(clean);
  for (const char* key : {"uid", "resourceVersion", "generation", "creationTimestamp",
                          "managedFields", "selfLink", "deletionTimestamp",
                          "deletionGracePeriodSeconds"}) {
    meta.erase(key);
  }
  if (!options.keep_owner_references) meta.erase("ownerReferences");
  if (meta.contains("annotations") && meta["annotations"].is_object()) {
    api::Json& annotations = meta["annotations"];
    for (auto it = annotations.begin(); it != annotations.end();) {
      const std::string& key = it.key();
      // The Deployment controller writes the revision; the new cluster counts its own.
      if (key == kExportLastApplied || key == "deployment.kubernetes.io/revision") {
        it = annotations.erase(it);
      } else {
        ++it;
      }
    }
    if (annotations.empty()) meta.erase("annotations");
  }
  if (options.keep_sandbox_annotations) {
    if (dropped_sandbox != nullptr) {
      api::Json probe = clean;  // only to list the keys
      DropSandboxAnnotations(probe, dropped_sandbox);
    }
  } else {
    DropSandboxAnnotations(clean, dropped_sandbox);
  }
  if (has_config && meta.contains("finalizers")) {
    api::Json kept = api::Json::array();
    for (const std::string& f : api::Finalizers(clean)) {
      if (std::find(own_finalizers.begin(), own_finalizers.end(), f) != own_finalizers.end()) {
        kept.push_back(f);
      }
    }
    if (kept.empty()) meta.erase("finalizers");
    else meta["finalizers"] = kept;
  }
  const std::string kind = api::Kind(clean);
  if (kind == "Service" && clean.contains("spec") && clean["spec"].is_object()) {
    // Allocated by the API server from the cluster's service range; "None" (headless) is intent.
    api::Json& spec = clean["spec"];
    if (spec.value("clusterIP", api::Json()) != "None") {
      spec.erase("clusterIP");
      spec.erase("clusterIPs");
    }
  }
  if (kind == "Pod" && clean.contains("spec") && clean["spec"].is_object()) {
    clean["spec"].erase("nodeName");  // chosen by the scheduler; sandbox nodes do not exist there
  }
  return clean;
}

}  // namespace kubectl
