// The NetworkPolicy controller: the policies it builds for a RayCluster (names, selectors, rules,
// ports) and, in the whole simulated cluster, that it runs only with its gate and keeps the
// policies in line with the spec.
// Mirrors: ray-operator/controllers/ray/networkpolicy_controller_unit_test.go
// (TestBuildHeadNetworkPolicy_DenyAll, _DenyAllIngress, _DenyAllEgress,
// TestBuildWorkerGroupNetworkPolicy_DenyAll, _FallsBackToWorkerRules, _ReplacesWorkerRules,
// TestBuildRayJobPeer, TestBuildHeadIngressRules_WithRayJobOwner, TestGetHeadPort_DefaultFallback,
// TestGetHeadPort_CustomPort, TestDeleteStaleNetworkPolicies).
#include <string>

#include <gtest/gtest.h>

#include "tests/operators/kuberay/gate_session.h"
#include "core/operators/kuberay/networkpolicy/builder.h"
#include "tests/operators/kuberay/fixtures.h"

namespace kuberay::networkpolicy {
namespace {

using api::Json;

Json Cluster() {
  Json c = testing::SampleCluster("raycluster-sample");
  c["spec"]["networkPolicy"] = Json::object();
  return c;
}

Json Selector(const Json& peer) { return peer["podSelector"]["matchLabels"]; }

TEST(NetworkPolicyBuilder, TestBuildHeadNetworkPolicy_DenyAll) {
  Json p = BuildHeadNetworkPolicy(Cluster(), kDenyAll);
  EXPECT_EQ(api::Name(p), "raycluster-sample-head");
  EXPECT_EQ(p["spec"]["podSelector"]["matchLabels"],
            (Json{{"ray.io/cluster", "raycluster-sample"}, {"ray.io/node-type", "head"}}));
  EXPECT_EQ(p["spec"]["policyTypes"], (Json::array({"Ingress", "Egress"})));
  ASSERT_EQ(p["spec"]["ingress"].size(), 1u);  // not owned by a RayJob: no submitter rule
  EXPECT_EQ(Selector(p["spec"]["ingress"][0]["from"][0]), (Json{{"ray.io/cluster", "raycluster-sample"}}));
  EXPECT_FALSE(p["spec"]["ingress"][0].contains("ports"));  // all ports
  ASSERT_EQ(p["spec"]["egress"].size(), 1u);  // no DNS rule
  EXPECT_EQ(Selector(p["spec"]["egress"][0]["to"][0]), (Json{{"ray.io/cluster", "raycluster-sample"}}));
  EXPECT_EQ(api::Labels(p)["ray.io/group"], "headgroup");
  EXPECT_EQ(api::Labels(p)["app.kubernetes.io/created-by"], "kuberay-operator");
  EXPECT_EQ(api::Labels(p)["app.kubernetes.io/name"], "kuberay");
}

TEST(NetworkPolicyBuilder, TestBuildHeadNetworkPolicy_DenyAllIngressAndEgress) {
  Json in = BuildHeadNetworkPolicy(Cluster(), kDenyAllIngress);
  EXPECT_EQ(in["spec"]["policyTypes"], (Json::array({"Ingress"})));
  EXPECT_FALSE(in["spec"].contains("egress"));
  Json out = BuildHeadNetworkPolicy(Cluster(), kDenyAllEgress);
  EXPECT_EQ(out["spec"]["policyTypes"], (Json::array({"Egress"})));
  EXPECT_FALSE(out["spec"].contains("ingress"));
}

TEST(NetworkPolicyBuilder, TestBuildWorkerGroupNetworkPolicy_DenyAll) {
  Json p = BuildWorkerGroupNetworkPolicy(Cluster(), kDenyAll, "workergroup");
  EXPECT_EQ(api::Name(p), "raycluster-sample-workers-workergroup");
  EXPECT_EQ(p["spec"]["podSelector"]["matchLabels"],
            (Json{{"ray.io/cluster", "raycluster-sample"},
                  {"ray.io/node-type", "worker"},
                  {"ray.io/group", "workergroup"}}));
  EXPECT_EQ(api::Labels(p)["ray.io/group"], "workergroup");
  EXPECT_EQ(p["spec"]["ingress"].size(), 1u);
  EXPECT_EQ(p["spec"]["egress"].size(), 1u);
}

TEST(NetworkPolicyBuilder, TestBuildWorkerGroupNetworkPolicy_FallsBackToWorkerRulesAndReplaces) {
  Json c = Cluster();
  const Json worker_rule = {{"from", Json::array({Json{{"ipBlock", {{"cidr", "10.0.0.0/8"}}}}})}};
  const Json group_rule = {{"from", Json::array({Json{{"ipBlock", {{"cidr", "192.168.0.0/16"}}}}})}};
  c["spec"]["networkPolicy"]["worker"] = {{"ingressRules", Json::array({worker_rule})}};
  Json p = BuildWorkerGroupNetworkPolicy(c, kDenyAll, "workergroup");
  ASSERT_EQ(p["spec"]["ingress"].size(), 2u);
  EXPECT_EQ(p["spec"]["ingress"][1], worker_rule);
  // A workerGroups entry replaces (does not add to) the worker rules for that group.
  c["spec"]["networkPolicy"]["workerGroups"] =
      Json::array({Json{{"groupName", "workergroup"}, {"ingressRules", Json::array({group_rule})}}});
  p = BuildWorkerGroupNetworkPolicy(c, kDenyAll, "workergroup");
  ASSERT_EQ(p["spec"]["ingress"].size(), 2u);
  EXPECT_EQ(p["spec"]["ingress"][1], group_rule);
  // Worker rules never reach the head policy.
  EXPECT_EQ(BuildHeadNetworkPolicy(c, kDenyAll)["spec"]["ingress"].size(), 1u);
}

Json OwnedByRayJob(const std::string& mode) {
  Json c = Cluster();
  c["metadata"]["labels"] = {{"ray.io/job-submission-mode", mode}};
  c["metadata"]["ownerReferences"] = Json::array({Json{{"apiVersion", "ray.io/v1"},
                                                       {"kind", "RayJob"},
                                                       {"name", "my-job"},
                                                       {"uid", "uid-job"},
                                                       {"controller", true}}});
  return c;
}

TEST(NetworkPolicyBuilder, TestBuildRayJobPeer) {
  Json peer = BuildRayJobPeer(OwnedByRayJob("K8sJobMode"));
  EXPECT_EQ(Selector(peer), (Json{{"ray.io/originated-from-cr-name", "my-job"},
                                  {"ray.io/originated-from-crd", "RayJob"}}));
  EXPECT_TRUE(BuildRayJobPeer(OwnedByRayJob("SidecarMode")).is_null());
  EXPECT_TRUE(BuildRayJobPeer(Cluster()).is_null());
}

TEST(NetworkPolicyBuilder, TestBuildHeadIngressRules_WithRayJobOwner) {
  Json rules = BuildHeadIngressRules(OwnedByRayJob("K8sJobMode"));
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[1]["ports"], (Json::array({Json{{"protocol", "TCP"}, {"port", 8265}}})));
  Json custom = OwnedByRayJob("K8sJobMode");
  custom["spec"]["headGroupSpec"]["rayStartParams"]["dashboard-port"] = "9999";
  EXPECT_EQ(BuildHeadIngressRules(custom)[1]["ports"][0]["port"], 9999);
}

TEST(NetworkPolicyBuilder, TestGetHeadPort) {
  Json c = Cluster();
  EXPECT_EQ(GetHeadPort(c, "dashboard-port", 8265), 8265);
  c["spec"]["headGroupSpec"]["rayStartParams"]["dashboard-port"] = "not-a-number";
  EXPECT_EQ(GetHeadPort(c, "dashboard-port", 8265), 8265);
  c["spec"]["headGroupSpec"]["rayStartParams"]["dashboard-port"] = "8443";
  EXPECT_EQ(GetHeadPort(c, "dashboard-port", 8265), 8443);
}

using Session = testing::GateSession;

std::string WithNetworkPolicy(const std::string& name, int replicas) {
  return "apply -f - <<EOF\n" + testing::SampleYaml(name, replicas) +
         "  networkPolicy:\n    mode: DenyAllIngress\nEOF\n";
}

TEST(NetworkPolicyLab, CreatesPoliciesOnlyWithTheGateAndDeletesStaleOnes) {
  Session s;
  // Without the gate the RayCluster controller rejects spec.networkPolicy (validation).
  ASSERT_TRUE(s.Run("run 5s")) << s.err;
  ASSERT_TRUE(s.Run(WithNetworkPolicy("fenced", 1))) << s.err;
  ASSERT_TRUE(s.Run("run 20s")) << s.err;
  EXPECT_EQ(s.Get("networkpolicies -o name"), "");
  ASSERT_TRUE(s.Run("expect trace reconcile.start controller=networkpolicy --max 0")) << s.err;

  ASSERT_TRUE(s.EnableGates("RayClusterNetworkPolicy=true")) << s.err;
  ASSERT_TRUE(s.Run("run 30s")) << s.err;
  EXPECT_EQ(s.Get("networkpolicies -o name"),
            "networkpolicy.networking.k8s.io/fenced-head\n"
            "networkpolicy.networking.k8s.io/fenced-workers-small\n");
  EXPECT_EQ(s.Get("networkpolicy fenced-head -o jsonpath='{.spec.policyTypes}'"), "[\"Ingress\"]");
  EXPECT_EQ(s.Get("networkpolicy fenced-workers-small -o jsonpath='{.metadata.ownerReferences[0].name}'"),
            "fenced");
  const std::string events = s.Get("events");
  EXPECT_NE(events.find("CreatedNetworkPolicy"), std::string::npos) << events;

  // Removing spec.networkPolicy removes the policies the cluster owns.
  ASSERT_TRUE(s.Run("patch raycluster fenced --type json -p '[{\"op\":\"remove\",\"path\":\"/spec/networkPolicy\"}]'")) << s.err;
  ASSERT_TRUE(s.Run("run 10s")) << s.err;
  EXPECT_EQ(s.Get("networkpolicies -o name"), "");
}

}  // namespace
}  // namespace kuberay::networkpolicy
