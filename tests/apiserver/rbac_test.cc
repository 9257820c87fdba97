#include "core/apiserver/rbac.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/api/kind.h"
#include "core/apiserver/api_server.h"
#include "core/client/client.h"
#include "core/sim/clock.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace apiserver {
namespace {

const char kOperator[] = "system:serviceaccount:default:kuberay-operator";
const char kOtherSa[] = "system:serviceaccount:default:someone-else";
const char kTeamSa[] = "system:serviceaccount:team:worker";

api::Json Obj(const std::string& kind, const std::string& ns, const std::string& name) {
  const api::KindInfo* info = api::FindKind(kind);
  api::Json obj = {{"apiVersion", info->ApiVersion()},
                   {"kind", info->kind},
                   {"metadata", {{"name", name}}}};
  if (!ns.empty()) obj["metadata"]["namespace"] = ns;
  return obj;
}

api::Json Rule(std::vector<std::string> groups, std::vector<std::string> resources,
               std::vector<std::string> verbs, std::vector<std::string> names = {}) {
  api::Json rule = {{"apiGroups", groups}, {"resources", resources}, {"verbs", verbs}};
  if (!names.empty()) rule["resourceNames"] = names;
  return rule;
}

api::Json Role(const std::string& kind, const std::string& ns, const std::string& name,
               std::vector<api::Json> rules) {
  api::Json role = Obj(kind, ns, name);
  role["rules"] = rules;
  return role;
}

api::Json Binding(const std::string& kind, const std::string& ns, const std::string& name,
                  const std::string& role_kind, const std::string& role_name,
                  std::vector<api::Json> subjects) {
  api::Json binding = Obj(kind, ns, name);
  binding["roleRef"] = {
      {"apiGroup", "rbac.authorization.k8s.io"}, {"kind", role_kind}, {"name", role_name}};
  binding["subjects"] = subjects;
  return binding;
}

api::Json ServiceAccountSubject(const std::string& ns, const std::string& name) {
  api::Json s = {{"kind", "ServiceAccount"}, {"name", name}};
  if (!ns.empty()) s["namespace"] = ns;
  return s;
}

api::Json Subject(const std::string& kind, const std::string& name) {
  return {{"kind", kind}, {"apiGroup", "rbac.authorization.k8s.io"}, {"name", name}};
}

struct Fixture {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  ApiServer api{scheduler, trace, sim::Prng(1)};
  client::DirectClient admin{api, kAdminUser};
  RbacAuthorizer rbac{api};

  void MustCreate(api::Json obj) {
    auto created = admin.Create(std::move(obj));
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }

  Fixture() {
    for (const char* ns : {"default", "team", "other"}) MustCreate(Obj("Namespace", "", ns));
    // The operator: read pods in default (Role), edit RayClusters everywhere (ClusterRole),
    // update one ConfigMap by name, and patch any status in default.
    MustCreate(Role("Role", "default", "pod-reader",
                    {Rule({""}, {"pods"}, {"get", "list", "watch"})}));
    MustCreate(Binding("RoleBinding", "default", "operator-pods", "Role", "pod-reader",
                       {ServiceAccountSubject("", "kuberay-operator")}));
    MustCreate(Role("ClusterRole", "", "raycluster-editor",
                    {Rule({"ray.io"}, {"rayclusters"}, {"*"}),
                     Rule({"ray.io"}, {"rayclusters/status"}, {"update", "patch"})}));
    MustCreate(Binding("ClusterRoleBinding", "", "operator-rayclusters", "ClusterRole",
                       "raycluster-editor",
                       {ServiceAccountSubject("default", "kuberay-operator")}));
    MustCreate(Role("Role", "default", "leader-lock",
                    {Rule({""}, {"configmaps"}, {"get", "update"}, {"leader"})}));
    MustCreate(Binding("RoleBinding", "default", "operator-leader", "Role", "leader-lock",
                       {ServiceAccountSubject("default", "kuberay-operator")}));
    MustCreate(Role("Role", "default", "status-writer", {Rule({"*"}, {"*/status"}, {"patch"})}));
    MustCreate(Binding("RoleBinding", "default", "operator-status", "Role", "status-writer",
                       {ServiceAccountSubject("default", "kuberay-operator")}));
    // Every service account of namespace team may read Services in `other`, through a
    // RoleBinding to a ClusterRole (granted in `other` only).
    MustCreate(Role("ClusterRole", "", "service-reader",
                    {Rule({""}, {"services"}, {"get", "list"})}));
    MustCreate(Binding("RoleBinding", "other", "team-services", "ClusterRole", "service-reader",
                       {Subject("Group", "system:serviceaccounts:team")}));
    // A User subject names the full username.
    MustCreate(Role("ClusterRole", "", "node-reader", {Rule({""}, {"nodes"}, {"get"})}));
    MustCreate(Binding("ClusterRoleBinding", "", "someone-nodes", "ClusterRole", "node-reader",
                       {Subject("User", kOtherSa)}));
  }
};

RequestAttributes Attrs(const std::string& user, const std::string& verb, const std::string& kind,
                        const std::string& ns, const std::string& name = "",
                        const std::string& subresource = "") {
  RequestAttributes a;
  a.user = user;
  a.verb = verb;
  a.kind = api::FindKind(kind);
  a.namespace_ = ns;
  a.name = name;
  a.subresource = subresource;
  return a;
}

TEST(RbacAuthorizer, DecidesFromRolesAndBindings) {
  struct Case {
    const char* name;
    RequestAttributes attrs;
    bool allowed;
  };
  const std::vector<Case> cases = {
      {"admin is not subject to RBAC", Attrs(kAdminUser, "delete", "Pod", "default", "p"), true},
      {"kube-system controllers hold bootstrap roles",
       Attrs("system:serviceaccount:kube-system:generic-garbage-collector", "delete", "Pod",
             "default", "p"),
       true},
      {"kubelet is not a service account", Attrs("system:node:node-1", "update", "Pod", "default",
                                                 "p", "status"),
       true},
      {"role grants list pods in its namespace", Attrs(kOperator, "list", "Pod", "default"), true},
      {"role grants get pods by name", Attrs(kOperator, "get", "Pod", "default", "p"), true},
      {"role does not grant delete", Attrs(kOperator, "delete", "Pod", "default", "p"), false},
      {"role binding does not reach another namespace", Attrs(kOperator, "list", "Pod", "other"),
       false},
      {"role binding does not reach all namespaces", Attrs(kOperator, "list", "Pod", ""), false},
      {"cluster role binding grants every namespace",
       Attrs(kOperator, "create", "RayCluster", "other"), true},
      {"cluster role binding grants all namespaces", Attrs(kOperator, "watch", "RayCluster", ""),
       true},
      {"plain resource does not grant its subresource",
       Attrs(kOperator, "get", "RayCluster", "other", "c", "status"), false},
      {"subresource rule grants it", Attrs(kOperator, "update", "RayCluster", "other", "c",
                                           "status"),
       true},
      {"*/status grants any status patch in the namespace",
       Attrs(kOperator, "patch", "Deployment", "default", "d", "status"), true},
      {"*/status does not grant the main resource",
       Attrs(kOperator, "patch", "Deployment", "default", "d"), false},
      {"resourceNames grant the named object", Attrs(kOperator, "update", "ConfigMap", "default",
                                                     "leader"),
       true},
      {"resourceNames do not grant another name",
       Attrs(kOperator, "update", "ConfigMap", "default", "other-lock"), false},
      {"resourceNames never grant list", Attrs(kOperator, "list", "ConfigMap", "default"), false},
      {"resourceNames never grant create", Attrs(kOperator, "create", "ConfigMap", "default"),
       false},
      {"wrong API group", Attrs(kOperator, "get", "Deployment", "default", "d"), false},
      {"group subject system:serviceaccounts:NS", Attrs(kTeamSa, "list", "Service", "other"),
       true},
      {"rolebinding to clusterrole grants in its namespace only",
       Attrs(kTeamSa, "list", "Service", "team"), false},
      {"group subject does not match another namespace's accounts",
       Attrs(kOperator, "list", "Service", "other"), false},
      {"user subject matches the full username", Attrs(kOtherSa, "get", "Node", "", "node-1"),
       true},
      {"user subject is not everyone", Attrs(kOperator, "get", "Node", "", "node-1"), false},
      {"a service account with no bindings", Attrs(kOtherSa, "list", "Pod", "default"), false},
  };
  Fixture f;
  for (const Case& c : cases) {
    base::Status s = f.rbac.Authorize(c.attrs);
    EXPECT_EQ(s.ok(), c.allowed) << c.name << ": " << s.ToString();
    if (!c.allowed) {
      EXPECT_EQ(s.code(), base::StatusCode::kForbidden) << c.name;
    }
  }
}

TEST(RbacAuthorizer, DeniedMessagesMatchKubeApiserver) {
  struct Case {
    RequestAttributes attrs;
    std::string message;
  };
  const std::vector<Case> cases = {
      {Attrs(kOperator, "list", "Pod", "other"),
       "pods is forbidden: User \"system:serviceaccount:default:kuberay-operator\" cannot list "
       "resource \"pods\" in API group \"\" in the namespace \"other\""},
      {Attrs(kOperator, "get", "Secret", "default", "x"),
       "secrets \"x\" is forbidden: User \"system:serviceaccount:default:kuberay-operator\" "
       "cannot get resource \"secrets\" in API group \"\" in the namespace \"default\""},
      {Attrs(kOperator, "list", "Pod", ""),
       "pods is forbidden: User \"system:serviceaccount:default:kuberay-operator\" cannot list "
       "resource \"pods\" in API group \"\" at the cluster scope"},
      {Attrs(kOperator, "list", "Node", ""),
       "nodes is forbidden: User \"system:serviceaccount:default:kuberay-operator\" cannot list "
       "resource \"nodes\" in API group \"\" at the cluster scope"},
      {Attrs(kTeamSa, "update", "RayCluster", "team", "c", "status"),
       "rayclusters.ray.io \"c\" is forbidden: User \"system:serviceaccount:team:worker\" cannot "
       "update resource \"rayclusters/status\" in API group \"ray.io\" in the namespace "
       "\"team\""},
      {Attrs(kOperator, "create", "Deployment", "default"),
       "deployments.apps is forbidden: User \"system:serviceaccount:default:kuberay-operator\" "
       "cannot create resource \"deployments\" in API group \"apps\" in the namespace "
       "\"default\""},
  };
  Fixture f;
  for (const Case& c : cases) {
    base::Status s = f.rbac.Authorize(c.attrs);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message(), c.message);
  }
}

TEST(RbacAuthorizer, BindingToAMissingRoleSaysSo) {
  Fixture f;
  f.MustCreate(Binding("RoleBinding", "team", "dangling", "Role", "missing",
                       {ServiceAccountSubject("", "worker")}));
  base::Status s = f.rbac.Authorize(Attrs(kTeamSa, "get", "Pod", "team", "p"));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "pods \"p\" is forbidden: User \"system:serviceaccount:team:worker\" cannot get "
            "resource \"pods\" in API group \"\" in the namespace \"team\": RBAC: "
            "role.rbac.authorization.k8s.io \"missing\" not found");
}

TEST(RbacAuthorizer, NewBindingsTakeEffectImmediately) {
  Fixture f;
  EXPECT_FALSE(f.rbac.Authorize(Attrs(kOperator, "delete", "Pod", "default", "p")).ok());
  f.MustCreate(Role("Role", "default", "pod-deleter", {Rule({""}, {"*"}, {"delete"})}));
  f.MustCreate(Binding("RoleBinding", "default", "operator-delete", "Role", "pod-deleter",
                       {ServiceAccountSubject("default", "kuberay-operator")}));
  EXPECT_TRUE(f.rbac.Authorize(Attrs(kOperator, "delete", "Pod", "default", "p")).ok());
}

// The authorizer keeps each user's bindings between requests; every change to a Role,
// ClusterRole, RoleBinding or ClusterRoleBinding must reach the next decision.
TEST(RbacAuthorizer, EveryRbacChangeReachesTheNextDecision) {
  Fixture f;
  const RequestAttributes scale = Attrs(kTeamSa, "update", "Deployment", "team", "web");
  EXPECT_FALSE(f.rbac.Authorize(scale).ok());
  // A binding to a role that does not exist yet: denied, and the message names the role.
  f.MustCreate(Binding("RoleBinding", "team", "deployers", "ClusterRole", "deployer",
                       {ServiceAccountSubject("", "worker")}));
  base::Status s = f.rbac.Authorize(scale);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("clusterrole.rbac.authorization.k8s.io \"deployer\" not found"),
            std::string::npos)
      << s.message();
  // The role appears: allowed.
  f.MustCreate(Role("ClusterRole", "", "deployer", {Rule({"apps"}, {"deployments"}, {"update"})}));
  EXPECT_TRUE(f.rbac.Authorize(scale).ok());
  // The role loses the verb: denied again.
  auto patched = f.admin.Patch("ClusterRole", "", "deployer", client::PatchType::kJsonMerge,
                               {{"rules", {Rule({"apps"}, {"deployments"}, {"get"})}}});
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  EXPECT_FALSE(f.rbac.Authorize(scale).ok());
  // The verb comes back, then the binding goes: denied.
  patched = f.admin.Patch("ClusterRole", "", "deployer", client::PatchType::kJsonMerge,
                          {{"rules", {Rule({"apps"}, {"deployments"}, {"update"})}}});
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  EXPECT_TRUE(f.rbac.Authorize(scale).ok());
  ASSERT_TRUE(f.admin.Delete("RoleBinding", "team", "deployers", {}).ok());
  EXPECT_FALSE(f.rbac.Authorize(scale).ok());
  // Another user's decisions were never mixed in: the operator is still denied here.
  EXPECT_FALSE(f.rbac.Authorize(Attrs(kOperator, "update", "Deployment", "team", "web")).ok());
}

TEST(RbacAuthorizer, InstalledAuthorizerRejectsClientRequests) {
  Fixture f;
  f.api.SetAuthorizer(f.rbac.AsAuthorizer());
  client::DirectClient operator_client(f.api, kOperator);
  auto listed = operator_client.List("Pod", "default", {});
  EXPECT_TRUE(listed.ok()) << listed.status().ToString();
  auto denied = operator_client.List("Secret", "default", {});
  ASSERT_FALSE(denied.ok());
  EXPECT_TRUE(base::IsForbidden(denied.status()));
  EXPECT_EQ(denied.status().message(),
            "secrets is forbidden: User \"system:serviceaccount:default:kuberay-operator\" "
            "cannot list resource \"secrets\" in API group \"\" in the namespace \"default\"");
  // The learner is still allowed everything.
  EXPECT_TRUE(f.admin.List("Secret", "default", {}).ok());
}

TEST(ParseServiceAccountUser, AcceptsOnlyTheServiceAccountForm) {
  struct Case {
    std::string user;
    bool ok;
    std::string ns;
    std::string name;
  };
  const std::vector<Case> cases = {
      {"system:serviceaccount:default:kuberay-operator", true, "default", "kuberay-operator"},
      {"system:serviceaccount:kube-system:generic-garbage-collector", true, "kube-system",
       "generic-garbage-collector"},
      {"kubernetes-admin", false, "", ""},
      {"system:serviceaccount:default", false, "", ""},
      {"system:serviceaccount::name", false, "", ""},
      {"system:serviceaccount:a:b:c", false, "", ""},
      {"system:node:node-1", false, "", ""},
  };
  for (const Case& c : cases) {
    ServiceAccountUser sa;
    EXPECT_EQ(ParseServiceAccountUser(c.user, &sa), c.ok) << c.user;
    if (c.ok) {
      EXPECT_EQ(sa.namespace_, c.ns);
      EXPECT_EQ(sa.name, c.name);
    }
  }
}

TEST(RuleAllows, MatchesGroupsResourcesVerbsAndNames) {
  struct Case {
    const char* name;
    api::Json rule;
    RequestAttributes attrs;
    bool allowed;
  };
  const std::vector<Case> cases = {
      {"all stars", Rule({"*"}, {"*"}, {"*"}), Attrs("u", "delete", "RayJob", "ns", "j"), true},
      {"star resource covers subresources", Rule({"*"}, {"*"}, {"*"}),
       Attrs("u", "update", "Pod", "ns", "p", "status"), true},
      {"core group is the empty string", Rule({""}, {"pods"}, {"get"}),
       Attrs("u", "get", "Pod", "ns", "p"), true},
      {"group must match", Rule({"apps"}, {"pods"}, {"get"}), Attrs("u", "get", "Pod", "ns", "p"),
       false},
      {"verb must match", Rule({""}, {"pods"}, {"get"}), Attrs("u", "watch", "Pod", "ns"), false},
      {"resource is the plural", Rule({""}, {"pod"}, {"get"}), Attrs("u", "get", "Pod", "ns", "p"),
       false},
      {"subresource form", Rule({"ray.io"}, {"rayjobs/status"}, {"patch"}),
       Attrs("u", "patch", "RayJob", "ns", "j", "status"), true},
      {"star slash status", Rule({"apps"}, {"*/status"}, {"update"}),
       Attrs("u", "update", "Deployment", "ns", "d", "status"), true},
      {"star slash status is not the main resource", Rule({"apps"}, {"*/status"}, {"update"}),
       Attrs("u", "update", "Deployment", "ns", "d"), false},
      {"resourceNames allow the name", Rule({""}, {"configmaps"}, {"get"}, {"a", "b"}),
       Attrs("u", "get", "ConfigMap", "ns", "b"), true},
      {"resourceNames deny watch", Rule({""}, {"configmaps"}, {"watch"}, {"a"}),
       Attrs("u", "watch", "ConfigMap", "ns"), false},
      {"malformed rule grants nothing", api::Json{{"verbs", "get"}},
       Attrs("u", "get", "ConfigMap", "ns", "a"), false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(RuleAllows(c.rule, c.attrs), c.allowed) << c.name;
  }
}

}  // namespace
}  // namespace apiserver
