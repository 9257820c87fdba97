#pragma once
// KindInfo: what the API server and kubectl know about each kind — group/version, plural
// resource, short names, scope, how generation is bumped, whether status is a subresource, and
// whether strategic merge patch applies. Fixed at compile time; CRDs' kinds: ApiServer::Discover.
// Mirrors: the RESTMapper + discovery data kubectl uses, and each type's registry strategy
// (generation rules: apiserver pkg/registry/*/strategy.go, apiextensions customresource/strategy.go).
// Simplified: one served version per group; no conversion.
// Single-threaded; immutable after static initialisation.

#include <memory>
#include <string>
#include <vector>

namespace api {

struct StructuralSchema;  // structural_schema.h

// GenerationRule says which writes bump metadata.generation (controller-runtime.md §8).
enum class GenerationRule {
  kNever,               // ConfigMap, Secret, Service, ...: generation stays unset
  kSpec,                // most built-in workloads and every custom resource with /status
  kSpecAndAnnotations,  // Deployment: annotations are copied to ReplicaSets, so they count
};

struct KindInfo {
  std::string kind;      // "RayCluster"
  std::string group;     // "ray.io"; "" for the core group
  std::string version;   // "v1"
  std::string resource;  // plural, lower case: "rayclusters"
  std::string singular;  // "raycluster"
  std::vector<std::string> short_names;  // kubectl short names: "po", "svc", ...
  bool namespaced = true;
  bool custom = false;               // a CRD: 415 on strategic merge patch, 422 on empty RV update
  bool status_subresource = false;   // status writes go through /status only
  bool graceful_deletion = false;    // Pods: deletionTimestamp = now + grace
  GenerationRule generation = GenerationRule::kNever;
  // schema is a learner's CustomResourceDefinition's openAPIV3Schema (null for every kind the
  // sandbox builds in): admission defaults, prunes and validates against it.
  std::shared_ptr<const StructuralSchema> schema;

  // ApiVersion is "group/version", or "version" for the core group.
  std::string ApiVersion() const { return group.empty() ? version : group + "/" + version; }
  // GroupResource is "resource.group" as kubectl prints in errors ("rayclusters.ray.io", "pods").
  std::string GroupResource() const { return group.empty() ? resource : resource + "." + group; }
};

// FindKind resolves what a user may type: Kind ("RayCluster", any case), plural ("rayclusters"),
// singular, short name ("po"), or "plural.group" ("rayclusters.ray.io"). Returns null if unknown.
const KindInfo* FindKind(const std::string& name);
// FindKindFor resolves an object's apiVersion + kind; null when not served.
const KindInfo* FindKindFor(const std::string& api_version, const std::string& kind);
// AllKinds lists every registered kind in a fixed order.
const std::vector<KindInfo>& AllKinds();
// CustomResourceDefinitionKind is apiextensions.k8s.io/v1 CustomResourceDefinition (short names
// crd, crds). FindKind and FindKindFor resolve it; AllKinds leaves it out, so the components that
// watch every kind (the garbage collector, the namespace controller) do not watch it.
const KindInfo& CustomResourceDefinitionKind();

}  // namespace api
