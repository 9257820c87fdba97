#include "core/api/kind.h"

#include <gtest/gtest.h>

#include <set>

namespace api {
namespace {

TEST(FindKind, ResolvesEveryFormKubectlAccepts) {
  struct Case {
    const char* input;
    const char* kind;  // nullptr: not found
  } cases[] = {
      // Kind, any case
      {"Pod", "Pod"},
      {"pod", "Pod"},
      {"POD", "Pod"},
      {"RayCluster", "RayCluster"},
      {"raycluster", "RayCluster"},
      // plural and singular
      {"pods", "Pod"},
      {"rayclusters", "RayCluster"},
      {"endpoints", "Endpoints"},
      {"networkpolicies", "NetworkPolicy"},
      {"ingress", "Ingress"},
      {"ingresses", "Ingress"},
      {"inferenceservice", "InferenceService"},
      // short names
      {"po", "Pod"},
      {"svc", "Service"},
      {"ns", "Namespace"},
      {"ep", "Endpoints"},
      {"cm", "ConfigMap"},
      {"sa", "ServiceAccount"},
      {"ev", "Event"},
      {"no", "Node"},
      {"pvc", "PersistentVolumeClaim"},
      {"deploy", "Deployment"},
      {"rs", "ReplicaSet"},
      {"cj", "CronJob"},
      {"ing", "Ingress"},
      {"netpol", "NetworkPolicy"},
      {"isvc", "InferenceService"},
      {"ISVC", "InferenceService"},
      // plural.group, Kind.group, singular.group, plural.version.group
      {"rayclusters.ray.io", "RayCluster"},
      {"RayCluster.ray.io", "RayCluster"},
      {"rayjob.ray.io", "RayJob"},
      {"deployments.apps", "Deployment"},
      {"deployments.v1.apps", "Deployment"},
      {"Deployment.apps", "Deployment"},
      {"leases.coordination.k8s.io", "Lease"},
      {"endpointslices.discovery.k8s.io", "EndpointSlice"},
      {"clusterrolebindings.rbac.authorization.k8s.io", "ClusterRoleBinding"},
      {"pods.v1", "Pod"},
      // not served
      {"", nullptr},
      {"widgets", nullptr},
      {"rayclusters.apps", nullptr},
      {"deployments.v2.apps", nullptr},
      {"rc", nullptr},
      {"rayclusters.", nullptr},
      {"svc.apps", nullptr},  // short names do not take a group
  };
  for (const Case& c : cases) {
    const KindInfo* info = FindKind(c.input);
    if (c.kind == nullptr) {
      EXPECT_EQ(info, nullptr) << c.input;
    } else {
      ASSERT_NE(info, nullptr) << c.input;
      EXPECT_EQ(info->kind, c.kind) << c.input;
    }
  }
}

TEST(FindKind, RayKindsHaveNoShortNames) {
  // KubeRay v1.7.0's CRDs declare none; guessing ("rc", "rj") would shadow nothing but mislead.
  for (const char* kind : {"RayCluster", "RayJob", "RayService", "RayCronJob"}) {
    const KindInfo* info = FindKind(kind);
    ASSERT_NE(info, nullptr) << kind;
    EXPECT_TRUE(info->short_names.empty()) << kind;
  }
}

TEST(FindKindFor, MatchesApiVersionAndKindExactly) {
  struct Case {
    const char* api_version;
    const char* kind;
    const char* resource;  // nullptr: not found
  } cases[] = {
      {"v1", "Pod", "pods"},
      {"apps/v1", "Deployment", "deployments"},
      {"ray.io/v1", "RayCluster", "rayclusters"},
      {"inference.io/v1", "InferenceService", "inferenceservices"},
      {"batch/v1", "CronJob", "cronjobs"},
      {"discovery.k8s.io/v1", "EndpointSlice", "endpointslices"},
      {"v1", "Event", "events"},
      {"v1", "pod", nullptr},       // kind is case-sensitive here
      {"apps/v1", "Pod", nullptr},  // wrong group
      {"ray.io/v1alpha1", "RayCluster", nullptr},
      {"extensions/v1beta1", "Deployment", nullptr},
      {"", "Pod", nullptr},
  };
  for (const Case& c : cases) {
    const KindInfo* info = FindKindFor(c.api_version, c.kind);
    if (c.resource == nullptr) {
      EXPECT_EQ(info, nullptr) << c.api_version << " " << c.kind;
    } else {
      ASSERT_NE(info, nullptr) << c.api_version << " " << c.kind;
      EXPECT_EQ(info->resource, c.resource);
      EXPECT_EQ(info->ApiVersion(), c.api_version);
    }
  }
}

TEST(AllKinds, RegistryRowsMatchTheApiServer) {
  struct Case {
    const char* kind;
    const char* api_version;
    const char* group_resource;
    bool namespaced;
    bool custom;
    bool status_subresource;
    bool graceful;
    GenerationRule generation;
  } cases[] = {
      {"Namespace", "v1", "namespaces", false, false, true, false, GenerationRule::kNever},
      {"Pod", "v1", "pods", true, false, true, true, GenerationRule::kNever},
      {"Service", "v1", "services", true, false, true, false, GenerationRule::kNever},
      {"ConfigMap", "v1", "configmaps", true, false, false, false, GenerationRule::kNever},
      {"Node", "v1", "nodes", false, false, true, false, GenerationRule::kNever},
      {"ClusterRole", "rbac.authorization.k8s.io/v1", "clusterroles.rbac.authorization.k8s.io",
       false, false, false, false, GenerationRule::kNever},
      {"RoleBinding", "rbac.authorization.k8s.io/v1", "rolebindings.rbac.authorization.k8s.io",
       true, false, false, false, GenerationRule::kNever},
      {"Lease", "coordination.k8s.io/v1", "leases.coordination.k8s.io", true, false, false, false,
       GenerationRule::kNever},
      {"Deployment", "apps/v1", "deployments.apps", true, false, true, false,
       GenerationRule::kSpecAndAnnotations},
      {"ReplicaSet", "apps/v1", "replicasets.apps", true, false, true, false,
       GenerationRule::kSpec},
      {"Job", "batch/v1", "jobs.batch", true, false, true, false, GenerationRule::kSpec},
      {"NetworkPolicy", "networking.k8s.io/v1", "networkpolicies.networking.k8s.io", true, false,
       false, false, GenerationRule::kSpec},
      {"RayCluster", "ray.io/v1", "rayclusters.ray.io", true, true, true, false,
       GenerationRule::kSpec},
      {"RayCronJob", "ray.io/v1", "raycronjobs.ray.io", true, true, true, false,
       GenerationRule::kSpec},
      {"InferenceService", "inference.io/v1", "inferenceservices.inference.io", true, true, true,
       false, GenerationRule::kSpec},
  };
  for (const Case& c : cases) {
    const KindInfo* info = FindKind(c.kind);
    ASSERT_NE(info, nullptr) << c.kind;
    EXPECT_EQ(info->ApiVersion(), c.api_version) << c.kind;
    EXPECT_EQ(info->GroupResource(), c.group_resource) << c.kind;
    EXPECT_EQ(info->namespaced, c.namespaced) << c.kind;
    EXPECT_EQ(info->custom, c.custom) << c.kind;
    EXPECT_EQ(info->status_subresource, c.status_subresource) << c.kind;
    EXPECT_EQ(info->graceful_deletion, c.graceful) << c.kind;
    EXPECT_EQ(info->generation, c.generation) << c.kind;
  }
}

TEST(AllKinds, NamesAreUniqueSoEveryLookupIsUnambiguous) {
  std::set<std::string> seen;
  for (const KindInfo& info : AllKinds()) {
    EXPECT_TRUE(seen.insert(info.resource + "." + info.group).second) << info.resource;
    if (info.singular != info.resource) {  // "endpoints" is both
      EXPECT_TRUE(seen.insert(info.singular + "." + info.group).second) << info.singular;
    }
    for (const std::string& s : info.short_names) EXPECT_TRUE(seen.insert(s).second) << s;
    EXPECT_EQ(FindKindFor(info.ApiVersion(), info.kind), &info);
  }
  EXPECT_EQ(AllKinds().size(), 27u);
}

}  // namespace
}  // namespace api

namespace api {
namespace {

TEST(KindRegistry, CustomResourceDefinitionResolvesButIsNotListed) {
  const KindInfo* crd = FindKind("crd");
  ASSERT_NE(crd, nullptr);
  EXPECT_EQ(crd, &CustomResourceDefinitionKind());
  EXPECT_EQ(FindKind("customresourcedefinitions.apiextensions.k8s.io"), crd);
  EXPECT_EQ(FindKindFor("apiextensions.k8s.io/v1", "CustomResourceDefinition"), crd);
  EXPECT_FALSE(crd->namespaced);
  for (const KindInfo& info : AllKinds()) EXPECT_NE(info.kind, "CustomResourceDefinition");
}

}  // namespace
}  // namespace api
