#include "core/api/kind.h"

#include <cctype>
#include <utility>

namespace api {
namespace {

using GR = GenerationRule;

KindInfo Make(const char* kind, const char* group, const char* resource, const char* singular,
              std::vector<std::string> short_names, bool namespaced, bool status_subresource,
              GenerationRule generation) {
  KindInfo info;
  info.kind = kind;
  info.group = group;
  info.version = "v1";
  info.resource = resource;
  info.singular = singular;
  info.short_names = std::move(short_names);
  info.namespaced = namespaced;
  info.status_subresource = status_subresource;
  info.generation = generation;
  return info;
}

KindInfo Custom(const char* kind, const char* group, const char* resource, const char* singular,
                std::vector<std::string> short_names) {
  KindInfo info = Make(kind, group, resource, singular, std::move(short_names),
                       /*namespaced=*/true, /*status_subresource=*/true, GR::kSpec);
  info.custom = true;
  return info;
}

// The table mirrors `kubectl api-resources` (short names, scope) and each registry strategy's
// generation rule. KubeRay's CRDs (v1.7.0 config/crd/bases) declare no short names.
std::vector<KindInfo> BuildTable() {
  std::vector<KindInfo> t;
  t.push_back(Make("Namespace", "", "namespaces", "namespace", {"ns"}, false, true, GR::kNever));
  KindInfo pod = Make("Pod", "", "pods", "pod", {"po"}, true, true, GR::kNever);
  pod.graceful_deletion = true;
  t.push_back(pod);
  t.push_back(Make("Service", "", "services", "service", {"svc"}, true, true, GR::kNever));
  t.push_back(Make("Endpoints", "", "endpoints", "endpoints", {"ep"}, true, false, GR::kNever));
  t.push_back(Make("EndpointSlice", "discovery.k8s.io", "endpointslices", "endpointslice", {}, true,
                   false, GR::kNever));
  t.push_back(Make("ConfigMap", "", "configmaps", "configmap", {"cm"}, true, false, GR::kNever));
  t.push_back(Make("Secret", "", "secrets", "secret", {}, true, false, GR::kNever));
  t.push_back(Make("ServiceAccount", "", "serviceaccounts", "serviceaccount", {"sa"}, true, false,
                   GR::kNever));
  t.push_back(Make("Event", "", "events", "event", {"ev"}, true, false, GR::kNever));
  t.push_back(Make("Node", "", "nodes", "node", {"no"}, false, true, GR::kNever));
  t.push_back(Make("PersistentVolumeClaim", "", "persistentvolumeclaims", "persistentvolumeclaim",
                   {"pvc"}, true, true, GR::kNever));
  const char* rbac = "rbac.authorization.k8s.io";
  t.push_back(Make("Role", rbac, "roles", "role", {}, true, false, GR::kNever));
  t.push_back(
      Make("RoleBinding", rbac, "rolebindings", "rolebinding", {}, true, false, GR::kNever));
  t.push_back(
      Make("ClusterRole", rbac, "clusterroles", "clusterrole", {}, false, false, GR::kNever));
  t.push_back(Make("ClusterRoleBinding", rbac, "clusterrolebindings", "clusterrolebinding", {},
                   false, false, GR::kNever));
  t.push_back(Make("Lease", "coordination.k8s.io", "leases", "lease", {}, true, false, GR::kNever));
  t.push_back(Make("Deployment", "apps", "deployments", "deployment", {"deploy"}, true, true,
                   GR::kSpecAndAnnotations));
  t.push_back(
      Make("ReplicaSet", "apps", "replicasets", "replicaset", {"rs"}, true, true, GR::kSpec));
  t.push_back(Make("Job", "batch", "jobs", "job", {}, true, true, GR::kSpec));
  t.push_back(Make("CronJob", "batch", "cronjobs", "cronjob", {"cj"}, true, true, GR::kSpec));
  t.push_back(
      Make("Ingress", "networking.k8s.io", "ingresses", "ingress", {"ing"}, true, true, GR::kSpec));
  t.push_back(Make("NetworkPolicy", "networking.k8s.io", "networkpolicies", "networkpolicy",
                   {"netpol"}, true, false, GR::kSpec));
  t.push_back(Custom("RayCluster", "ray.io", "rayclusters", "raycluster", {}));
  t.push_back(Custom("RayJob", "ray.io", "rayjobs", "rayjob", {}));
  t.push_back(Custom("RayService", "ray.io", "rayservices", "rayservice", {}));
  t.push_back(Custom("RayCronJob", "ray.io", "raycronjobs", "raycronjob", {}));
  t.push_back(Custom("InferenceService", "inference.io", "inferenceservices", "inferenceservice",
                     {"isvc"}));
  return t;
}

std::string Lower(const std::string& s) {
  std::string out = s;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Matches a bare name (no group): Kind, plural, singular or a short name, case-insensitively.
bool MatchesBare(const KindInfo& info, const std::string& lower) {
  if (lower == Lower(info.kind) || lower == info.resource || lower == info.singular) return true;
  for (const std::string& s : info.short_names) {
    if (lower == s) return true;
  }
  return false;
}

}  // namespace

const std::vector<KindInfo>& AllKinds() {
  static const std::vector<KindInfo> kinds = BuildTable();
  return kinds;
}

const KindInfo& CustomResourceDefinitionKind() {
  static const KindInfo crd =
      Make("CustomResourceDefinition", "apiextensions.k8s.io", "customresourcedefinitions",
           "customresourcedefinition", {"crd", "crds"}, false, true, GR::kSpec);
  return crd;
}

namespace {

// mirrors kubectl's RESTMapper resolution (ResourceOrKindArgs): "name", "name.group",
// "name.version.group".
const KindInfo* FindKindByAnyName(const std::string& name) {
  const std::string lower = Lower(name);
  if (lower.empty()) return nullptr;
  for (const KindInfo& info : AllKinds()) {
    if (MatchesBare(info, lower)) return &info;
  }
  const KindInfo& crd = CustomResourceDefinitionKind();
  if (MatchesBare(crd, lower) || lower == crd.GroupResource()) return &crd;
  const size_t dot = lower.find('.');
  if (dot == std::string::npos) return nullptr;
  const std::string head = lower.substr(0, dot);
  const std::string rest = lower.substr(dot + 1);
  for (const KindInfo& info : AllKinds()) {
    const std::string group = Lower(info.group);
    const bool bare = head == Lower(info.kind) || head == info.resource || head == info.singular;
    if (!bare) continue;
    if (rest == group || rest == info.version + "." + group) return &info;
    // The core group has no name: "pods.v1" is what kubectl accepts for it.
    if (group.empty() && rest == info.version) return &info;
  }
  return nullptr;
}

// ExactKinds pairs each Kind as served ("Pod") with what FindKindByAnyName resolves it to:
// components name kinds this way on every request, so FindKind tries a plain compare first.
const std::vector<std::pair<std::string, const KindInfo*>>& ExactKinds() {
  static const std::vector<std::pair<std::string, const KindInfo*>> exact = [] {
    std::vector<std::pair<std::string, const KindInfo*>> list;
    for (const KindInfo& info : AllKinds()) {
      list.emplace_back(info.kind, FindKindByAnyName(info.kind));
    }
    return list;
  }();
  return exact;
}

}  // namespace

const KindInfo* FindKind(const std::string& name) {
  for (const auto& [kind, info] : ExactKinds()) {
    if (kind == name) return info;
  }
  return FindKindByAnyName(name);
}

const KindInfo* FindKindFor(const std::string& api_version, const std::string& kind) {
  for (const KindInfo& info : AllKinds()) {
    if (info.kind == kind && info.ApiVersion() == api_version) return &info;
  }
  const KindInfo& crd = CustomResourceDefinitionKind();
  if (crd.kind == kind && crd.ApiVersion() == api_version) return &crd;
  return nullptr;
}

}  // namespace api
