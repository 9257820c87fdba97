#include "core/lab/export.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/api/kind.h"
#include "core/api/yaml.h"
#include "core/apiserver/api_server.h"

namespace lab {
namespace {

constexpr const char* kKubeRayGroup = "ray.io";

// ApplyRank orders kinds as `kubectl apply -f DIR` needs them on a fresh cluster: Namespaces
// first (everything else lives in one), then built-in kinds, then KubeRay's custom resources
// (their CRDs come with the Helm chart), then any other custom resource.
std::tuple<int, size_t> ApplyRank(const std::string& kind_name) {
  const auto& kinds = api::AllKinds();
  for (size_t i = 0; i < kinds.size(); ++i) {
    const api::KindInfo& k = kinds[i];
    if (k.kind != kind_name) continue;
    int group = 3;
    if (k.kind == "Namespace") group = 0;
    else if (!k.custom) group = 1;
    else if (k.group == kKubeRayGroup) group = 2;
    return {group, i};
  }
  return {4, 0};
}

std::string Lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

}  // namespace

std::vector<api::ObjectPtr> LearnerCreatedObjects(Simulation& sim) {
  // key -> whether the most recent successful create of it was the learner's.
  std::map<std::tuple<std::string, std::string, std::string>, bool> last_create_by_learner;
  for (const sim::TraceEvent& e : sim.trace().events()) {
    if (e.type != "api.request" || e.FieldText("verb") != "create" ||
        e.FieldString("code") != "201" || !e.FieldText("subresource").empty()) {
      continue;
    }
    const bool learner = e.FieldText("user") == apiserver::kAdminUser &&
                         e.FieldString("cause") == "0";
    last_create_by_learner[{e.FieldString("kind"), e.FieldString("namespace"),
                            e.FieldString("name")}] = learner;
  }
  std::vector<api::ObjectPtr> objects;
  for (const auto& [key, learner] : last_create_by_learner) {
    if (!learner) continue;
    const auto& [kind, ns, name] = key;
    api::ObjectPtr obj = sim.apiserver().Peek(kind, ns, name);
    if (obj == nullptr || api::IsBeingDeleted(*obj)) continue;
    objects.push_back(obj);
  }
  std::stable_sort(objects.begin(), objects.end(),
                   [](const api::ObjectPtr& a, const api::ObjectPtr& b) {
                     return std::make_tuple(ApplyRank(api::Kind(*a)), api::Namespace(*a),
                                            api::Name(*a)) <
                            std::make_tuple(ApplyRank(api::Kind(*b)), api::Namespace(*b),
                                            api::Name(*b));
                   });
  return objects;
}

std::vector<ExportedFile> ExportManifests(Simulation& sim, const std::string& dir) {
  const std::vector<api::ObjectPtr> objects = LearnerCreatedObjects(sim);
  std::vector<ExportedFile> files;
  // Zero-padded to one width so the lexical order kubectl applies a folder in is apply order.
  const size_t width = std::max<size_t>(2, std::to_string(objects.size()).size());
  std::string listing, dropped_notes;
  bool other_custom = false;
  for (size_t i = 0; i < objects.size(); ++i) {
    std::vector<std::string> dropped;
    const api::Json clean = kubectl::CleanManifest(*objects[i], kubectl::CleanOptions{}, &dropped);
    std::string number = std::to_string(i + 1);
    number.insert(0, width - number.size(), '0');
    const std::string kind = api::Kind(clean);
    ExportedFile file{number + "-" + Lower(kind) + "-" + api::Name(clean) + ".yaml",
                      api::ToYaml(clean)};
    const api::KindInfo* info = api::FindKindFor(api::ApiVersion(clean), kind);
    if (info != nullptr && info->custom && info->group != kKubeRayGroup) other_custom = true;
    const std::string ns = api::Namespace(clean);
    const std::string what = kind + "/" + api::Name(clean) + (ns.empty() ? "" : " -n " + ns);
    listing += "- `" + file.name + "`: " + what + "\n";
    if (!dropped.empty()) {
      dropped_notes += "- " + what + ":";
      for (const std::string& key : dropped) dropped_notes += " `" + key + "`";
      dropped_notes += "\n";
    }
    files.push_back(std::move(file));
  }
  std::string readme =
      "# Reconcile Lab export\n\n"
      "The objects you created in the sandbox, as manifests for a real cluster. Server-set\n"
      "fields, status, ownerReferences and the objects the operators and controllers made\n"
      "are left out: on the real cluster KubeRay and the built-in controllers make them again.\n\n"
      "## Run it on a real cluster\n\n"
      "```sh\n"
      "kind create cluster --name reconcile-lab\n"
      "helm repo add kuberay https://ray-project.github.io/kuberay-helm/\n"
      "helm repo update\n"
      "helm install kuberay-operator kuberay/kuberay-operator --version 1.7.0\n"
      "kubectl wait --for=condition=Available deployment/kuberay-operator --timeout=120s\n"
      "kubectl apply -f " + dir + "\n"
      "```\n\n"
      "`kubectl apply -f` reads the `.yaml` files of the folder in name order, which is the\n"
      "order below (Namespaces, then built-in kinds, then KubeRay's custom resources).\n\n"
      "## Files\n\n" +
      (listing.empty() ? std::string("(none: no object was created with apply or create)\n")
                       : listing);
  if (other_custom) {
    readme +=
        "\nNote: InferenceService is the sandbox's tutorial operator, not part of KubeRay; its\n"
        "manifests apply only where that operator's CRD is installed.\n";
  }
  if (!dropped_notes.empty()) {
    readme +=
        "\n## Sandbox annotations\n\n"
        "`sim.reconcile-lab.io/` annotations only steer the sandbox's simulated world (pull and\n"
        "start times, job runtimes and outcomes). A real cluster ignores them; they are kept so\n"
        "that applying this folder in the sandbox again gives the same world:\n\n" +
        dropped_notes;
  }
  files.push_back(ExportedFile{"README.md", readme});
  return files;
}

}  // namespace lab
