#include "core/operators/kuberay/operator/options.h"

#include "core/operators/kuberay/common/constants.h"

namespace kuberay {
namespace {

api::Json Rule(std::vector<std::string> groups, std::vector<std::string> resources,
               std::vector<std::string> verbs) {
  return {{"apiGroups", groups}, {"resources", resources}, {"verbs", verbs}};
}

}  // namespace

std::vector<std::string> WatchNamespaces(const std::string& flag) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= flag.size()) {
    size_t comma = flag.find(',', start);
    if (comma == std::string::npos) comma = flag.size();
    std::string item = flag.substr(start, comma - start);
    if (!item.empty()) out.push_back(item);
    start = comma + 1;
  }
  return out;
}

// mirrors internal/managercache/cache.go K8sControllerRuntimeCacheSelectors and main.go's
// cache.Options{DefaultNamespaces: …}
cache::Options CacheOptions(const Options& options) {
  cache::Options out;
  out.default_namespaces = WatchNamespaces(options.watch_namespace);
  cache::ByObject pods;
  pods.label_selector = kRayNodeTypeLabelKey + " in (" + kHeadNode + "," + kWorkerNode + "," +
                        kRedisCleanupNode + ")";
  out.by_object["Pod"] = pods;
  cache::ByObject jobs;
  jobs.label_selector = kK8sAppCreatedByLabelKey + "=" + kComponentName;
  out.by_object["Job"] = jobs;
  return out;
}

// mirrors config/rbac/role.yaml (v1.7.0)
std::vector<api::Json> ClusterRoleRules() {
  const std::vector<std::string> crud = {"create", "delete", "get", "list", "patch", "update", "watch"};
  return {
      Rule({""}, {"persistentvolumeclaims", "pods/status", "services"}, crud),
      Rule({""}, {"pods"}, {"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}),
      Rule({""}, {"pods/proxy", "services/status"}, {"get", "patch", "update"}),
      Rule({""}, {"pods/resize"}, {"patch"}),
      Rule({""}, {"secrets"}, {"create", "delete", "get", "list", "update", "watch"}),
      Rule({""}, {"serviceaccounts"}, {"create", "delete", "get", "list", "watch"}),
      Rule({""}, {"services/proxy"}, {"create", "get", "patch", "update"}),
      Rule({""}, {"events"}, {"create", "patch"}),
      Rule({"batch"}, {"jobs"}, crud),
      Rule({"coordination.k8s.io"}, {"leases"}, {"create", "get", "list", "update"}),
      Rule({"discovery.k8s.io"}, {"endpointslices"}, {"get", "list", "watch"}),
      // Sandbox: the world publishes Endpoints, not EndpointSlices, so RayService counts serve
      // endpoints from Endpoints and needs to read them.
      Rule({""}, {"endpoints"}, {"get", "list", "watch"}),
      Rule({"events.k8s.io"}, {"events"}, {"create", "patch"}),
      Rule({"extensions", "networking.k8s.io"}, {"ingresses"}, crud),
      Rule({"networking.k8s.io"}, {"ingressclasses"}, {"get", "list", "watch"}),
      Rule({"networking.k8s.io"}, {"networkpolicies"}, {"create", "delete", "get", "list", "update", "watch"}),
      Rule({"ray.io"}, {"rayclusters", "raycronjobs", "rayjobs", "rayservices"}, crud),
      Rule({"ray.io"},
           {"rayclusters/finalizers", "raycronjobs/finalizers", "rayjobs/finalizers", "rayservices/finalizers"},
           {"update"}),
      Rule({"ray.io"}, {"rayclusters/status", "raycronjobs/status", "rayjobs/status", "rayservices/status"},
           {"get", "patch", "update"}),
      Rule({"rbac.authorization.k8s.io"}, {"rolebindings"}, {"create", "delete", "get", "list", "watch"}),
      Rule({"rbac.authorization.k8s.io"}, {"roles"}, {"create", "delete", "get", "list", "update", "watch"}),
  };
}

}  // namespace kuberay
