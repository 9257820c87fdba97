// Tests of the operator process's configuration: main.go's defaults, the cache selectors, the
// ClusterRole, and the controllers it registers.
// Mirrors: ray-operator/main_test.go (TestGetWatchNamespaces, cache selectors),
// apis/config/v1alpha1/defaults_test.go, internal/managercache/cache_test.go.
#include "core/operators/kuberay/operator/options.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "core/operators/kuberay/operator/operator.h"

namespace kuberay {
namespace {

TEST(OperatorOptions, DefaultsMatchV17) {
  Options o;
  EXPECT_TRUE(o.enable_leader_election);
  EXPECT_EQ(o.reconcile_concurrency, 1);
  EXPECT_EQ(o.watch_namespace, "");
  EXPECT_EQ(o.metrics_addr, ":8080");
  EXPECT_EQ(o.probe_addr, ":8082");
  EXPECT_EQ(o.qps, 100);
  EXPECT_EQ(o.burst, 200);
  EXPECT_EQ(kLeaderElectionID, "ray-operator-leader");
}

TEST(OperatorOptions, TestGetWatchNamespaces) {
  EXPECT_TRUE(WatchNamespaces("").empty());
  EXPECT_EQ(WatchNamespaces("a,b,,c"), (std::vector<std::string>{"a", "b", "c"}));
  Options o;
  o.watch_namespace = "team-a,team-b";
  EXPECT_EQ(CacheOptions(o).default_namespaces, (std::vector<std::string>{"team-a", "team-b"}));
}

TEST(OperatorOptions, CacheSelectorsScopePodsAndJobs) {
  const cache::Options c = CacheOptions(Options{});
  EXPECT_EQ(c.by_object.at("Pod").label_selector, "ray.io/node-type in (head,worker,redis-cleanup)");
  EXPECT_EQ(c.by_object.at("Job").label_selector, "app.kubernetes.io/created-by=kuberay-operator");
  EXPECT_EQ(c.by_object.count("Service"), 0u);
}

TEST(OperatorOptions, ClusterRoleGrantsWhatTheControllerUses) {
  auto allows = [](const std::string& group, const std::string& resource, const std::string& verb) {
    for (const api::Json& rule : ClusterRoleRules()) {
      const auto& groups = rule["apiGroups"];
      const auto& resources = rule["resources"];
      const auto& verbs = rule["verbs"];
      if (std::find(groups.begin(), groups.end(), group) == groups.end()) continue;
      if (std::find(resources.begin(), resources.end(), resource) == resources.end()) continue;
      if (std::find(verbs.begin(), verbs.end(), verb) != verbs.end()) return true;
    }
    return false;
  };
  EXPECT_TRUE(allows("", "pods", "list"));
  EXPECT_TRUE(allows("", "pods", "deletecollection"));
  EXPECT_TRUE(allows("ray.io", "rayclusters/status", "update"));
  EXPECT_TRUE(allows("rbac.authorization.k8s.io", "roles", "create"));
  EXPECT_TRUE(allows("coordination.k8s.io", "leases", "update"));
  EXPECT_FALSE(allows("", "serviceaccounts", "update"));  // as role.yaml: create/delete/get/list/watch
  EXPECT_FALSE(allows("apps", "deployments", "get"));
}

TEST(OperatorOptions, RayClusterIsRegisteredAlways) {
  const auto registrations = DefaultRegistrations();
  ASSERT_EQ(registrations.size(), 1u);
  EXPECT_EQ(registrations[0].name, "RayCluster");
  EXPECT_FALSE(registrations[0].enabled);  // null: always
}

}  // namespace
}  // namespace kuberay
