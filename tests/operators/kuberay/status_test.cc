// Tests of calculateStatus and the status-write decision, and of shouldDeletePod.
// Mirrors: ray-operator/controllers/ray/raycluster_controller_unit_test.go (TestCalculateStatus,
// TestCalculateStatusWithReconcileErrorBackAndForth, TestRayClusterProvisionedCondition,
// TestStateTransitionTimes_NoStateChange, TestUpdateEndpoints,
// TestGetHeadServiceIPAndNameOnHeadlessService, TestReconcile_UpdateClusterReason,
// Test_ShouldDeletePod) and utils/consistency_test.go (TestInconsistentRayClusterStatus).
#include "core/operators/kuberay/raycluster/status.h"

#include <gtest/gtest.h>

#include "core/operators/kuberay/raycluster/reconciler.h"
#include "tests/operators/kuberay/fixtures.h"

namespace kuberay {
namespace {

using api::Json;
using api::ObjectPtr;
using testing::PodIn;
using testing::SampleCluster;

ObjectPtr P(Json j) { return api::MakeObject(std::move(j)); }

Json HeadlessService() {
  return Json{{"apiVersion", "v1"},
              {"kind", "Service"},
              {"metadata", {{"name", "raycluster-kuberay-head-svc"}, {"namespace", "default"}}},
              {"spec",
               {{"clusterIP", "None"},
                {"ports", Json::array({Json{{"name", "dashboard"}, {"port", 8265}, {"targetPort", 8265}},
                                       Json{{"name", "client"}, {"port", 10001}, {"targetPort", 10001}},
                                       Json{{"name", ""}, {"port", 1}, {"targetPort", 1}}})}}}};
}

StatusInputs Inputs(std::vector<Json> pods) {
  StatusInputs in;
  for (Json& p : pods) in.pods.push_back(P(std::move(p)));
  in.head_services.push_back(P(HeadlessService()));
  return in;
}

const Json* Cond(const Json& cluster, const std::string& type) { return FindCondition(cluster, type); }

TEST(CalculateStatus, TestCalculateStatus) {
  const auto in = Inputs({PodIn("head", "head", "Running", true), PodIn("w1", "worker", "Running", true)});
  auto st = CalculateStatus(SampleCluster(), ReconcileError{}, in, FeatureGates{}, 5 * base::kSecond);
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  const Json& s = (*st)["status"];
  EXPECT_EQ(s["state"], "ready");
  EXPECT_EQ(s["readyWorkerReplicas"], 1);
  EXPECT_EQ(s["availableWorkerReplicas"], 1);
  EXPECT_EQ(s["desiredWorkerReplicas"], 1);
  EXPECT_EQ(s["minWorkerReplicas"], 1);
  EXPECT_EQ(s["maxWorkerReplicas"], 5);
  EXPECT_EQ(s["desiredCPU"], "2");
  EXPECT_EQ(s["desiredMemory"], "6Gi");
  EXPECT_EQ(s["desiredGPU"], "0");
  EXPECT_EQ(s["desiredTPU"], "0");
  EXPECT_EQ(s["observedGeneration"], 1);
  EXPECT_EQ(s["stateTransitionTimes"]["ready"], "2026-01-01T00:00:05Z");
  // TestUpdateEndpoints: named ports by targetPort; unnamed ports skipped.
  EXPECT_EQ(s["endpoints"], (Json{{"client", "10001"}, {"dashboard", "8265"}}));
  // TestGetHeadServiceIPAndNameOnHeadlessService: the head Pod's IP stands in.
  EXPECT_EQ(s["head"]["serviceIP"], s["head"]["podIP"]);
  EXPECT_EQ(s["head"]["serviceName"], "raycluster-kuberay-head-svc");
  EXPECT_EQ(s["head"]["podName"], "head");
  EXPECT_EQ((*Cond(*st, "HeadPodReady"))["reason"], "HeadPodRunningAndReady");
  EXPECT_EQ((*Cond(*st, "RayClusterProvisioned"))["reason"], "AllPodRunningAndReadyFirstTime");
  EXPECT_EQ((*Cond(*st, "RayClusterSuspended"))["status"], "False");
}


// A reconciler that remembers the spec's resource sum hands it in; CalculateStatus reports that sum
// instead of summing the spec again (the lab test of suspended worker groups pins the reconciler's
// side: a new generation sums afresh).
TEST(CalculateStatus, ReportsTheRememberedResourceSum) {
  const auto computed = CalculateDesiredResources(SampleCluster());
  ASSERT_EQ(computed.at("cpu").String(), "2");
  ResourceList remembered;
  remembered["cpu"] = *ParseQuantity("7");
  remembered["nvidia.com/gpu"] = *ParseQuantity("3");
  auto in = Inputs({PodIn("head", "head", "Running", true), PodIn("w1", "worker", "Running", true)});
  in.desired_resources = &remembered;
  auto st = CalculateStatus(SampleCluster(), ReconcileError{}, in, FeatureGates{}, 5 * base::kSecond);
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  const Json& s = (*st)["status"];
  EXPECT_EQ(s["desiredCPU"], "7");
  EXPECT_EQ(s["desiredMemory"], "0");
  EXPECT_EQ(s["desiredGPU"], "3");
}
TEST(CalculateStatus, NotReadyWhileAWorkerIsMissingOrNotReady) {
  auto st = CalculateStatus(SampleCluster(), ReconcileError{}, Inputs({PodIn("head", "head", "Running", true)}),
                            FeatureGates{}, 0);
  ASSERT_TRUE(st.ok());
  EXPECT_FALSE((*st)["status"].contains("state"));  // a new cluster starts with no state
  EXPECT_EQ((*Cond(*st, "RayClusterProvisioned"))["status"], "True");  // all *existing* Pods ready
  st = CalculateStatus(SampleCluster(), ReconcileError{},
                       Inputs({PodIn("head", "head", "Running", true), PodIn("w1", "worker", "Running", false)}),
                       FeatureGates{}, 0);
  ASSERT_TRUE(st.ok());
  EXPECT_FALSE((*st)["status"].contains("state"));
  EXPECT_EQ((*st)["status"]["readyWorkerReplicas"], 0);
  EXPECT_EQ((*st)["status"]["availableWorkerReplicas"], 1);
  EXPECT_EQ((*Cond(*st, "RayClusterProvisioned"))["reason"], "RayClusterPodsProvisioning");
}

TEST(CalculateStatus, TestCalculateStatusWithReconcileErrorBackAndForth) {
  const auto ready = Inputs({PodIn("head", "head", "Running", true), PodIn("w1", "worker", "Running", true)});
  auto first = CalculateStatus(SampleCluster(), ReconcileError{}, ready, FeatureGates{}, 0);
  ASSERT_TRUE(first.ok());
  ReconcileError err{base::Status(base::StatusCode::kInternal, "boom"), "FailedCreateWorkerPod"};
  // ready is sticky: an error and a crashed worker leave it as it was.
  const auto crashed = Inputs({PodIn("head", "head", "Running", true), PodIn("w1", "worker", "Failed", false)});
  auto second = CalculateStatus(*first, err, crashed, FeatureGates{}, base::kSecond);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ((*second)["status"]["state"], "ready");
  const Json* failure = Cond(*second, "ReplicaFailure");
  ASSERT_NE(failure, nullptr);
  EXPECT_EQ((*failure)["reason"], "FailedCreateWorkerPod");
  EXPECT_EQ((*failure)["message"], "FailedCreateWorkerPod\nboom");
  // Provisioned, once True, is not re-evaluated.
  EXPECT_EQ((*Cond(*second, "RayClusterProvisioned"))["status"], "True");
  // Back without error: the ReplicaFailure condition goes away.
  auto third = CalculateStatus(*second, ReconcileError{}, ready, FeatureGates{}, 2 * base::kSecond);
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(Cond(*third, "ReplicaFailure"), nullptr);
}

TEST(CalculateStatus, TestStateTransitionTimes_NoStateChange) {
  const auto ready = Inputs({PodIn("head", "head", "Running", true), PodIn("w1", "worker", "Running", true)});
  auto first = CalculateStatus(SampleCluster(), ReconcileError{}, ready, FeatureGates{}, 0);
  auto second = CalculateStatus(*first, ReconcileError{}, ready, FeatureGates{}, 9 * base::kSecond);
  EXPECT_EQ((*second)["status"]["stateTransitionTimes"]["ready"], "2026-01-01T00:00:00Z");
  EXPECT_EQ((*second)["status"]["lastUpdateTime"], "2026-01-01T00:00:09Z");
  EXPECT_FALSE(InconsistentRayClusterStatus((*first)["status"], (*second)["status"]));
}

TEST(CalculateStatus, HeadPodNotFoundAndMissingHeadService) {
  StatusInputs in = Inputs({});
  auto st = CalculateStatus(SampleCluster(), ReconcileError{}, in, FeatureGates{}, 0);
  ASSERT_TRUE(st.ok());
  EXPECT_EQ((*Cond(*st, "HeadPodReady"))["reason"], "HeadPodNotFound");
  EXPECT_EQ((*Cond(*st, "HeadPodReady"))["message"], "Head Pod not found");
  in.head_services.clear();
  auto missing = CalculateStatus(SampleCluster(), ReconcileError{}, in, FeatureGates{}, 0);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("unable to find head service"), std::string::npos);
}

TEST(CalculateStatus, SuspendMovesSuspendingThenSuspended) {
  Json cluster = SampleCluster();
  cluster["spec"]["suspend"] = true;
  auto suspending = CalculateStatus(cluster, ReconcileError{}, Inputs({PodIn("head", "head", "Running", true)}),
                                    FeatureGates{}, 0);
  ASSERT_TRUE(suspending.ok());
  EXPECT_EQ(FindRayClusterSuspendStatus(*suspending), "RayClusterSuspending");
  auto suspended = CalculateStatus(*suspending, ReconcileError{}, Inputs({}), FeatureGates{}, base::kSecond);
  ASSERT_TRUE(suspended.ok());
  EXPECT_EQ(FindRayClusterSuspendStatus(*suspended), "RayClusterSuspended");
  EXPECT_EQ((*suspended)["status"]["state"], "suspended");
  EXPECT_EQ((*Cond(*suspended, "RayClusterProvisioned"))["message"], "RayCluster has been suspended");
  Json resumed = *suspended;
  resumed["spec"]["suspend"] = false;
  auto after = CalculateStatus(resumed, ReconcileError{}, Inputs({}), FeatureGates{}, 2 * base::kSecond);
  EXPECT_EQ(FindRayClusterSuspendStatus(*after), "");
}

TEST(CalculateStatus, GateOffWritesNoConditions) {
  FeatureGates off;
  ASSERT_TRUE(off.Set("RayClusterStatusConditions", false).ok());
  auto st = CalculateStatus(SampleCluster(), ReconcileError{}, Inputs({PodIn("head", "head", "Running", true)}), off, 0);
  ASSERT_TRUE(st.ok());
  EXPECT_FALSE((*st)["status"].contains("conditions"));
}

TEST(CalculateStatus, HeadPodReadyReportsTheWaitingContainerReason) {
  Json head = PodIn("head", "head", "Pending", false);
  head["status"]["conditions"][0]["reason"] = "ContainersNotReady";
  head["status"]["containerStatuses"] = Json::array(
      {Json{{"name", "ray-head"}, {"state", {{"waiting", {{"reason", "ImagePullBackOff"}, {"message", "back-off"}}}}}}});
  const Json cond = FindHeadPodReadyCondition(head);
  EXPECT_EQ(cond["status"], "False");
  EXPECT_EQ(cond["reason"], "ImagePullBackOff");
  EXPECT_EQ(cond["message"], "ray-head: back-off");
}

TEST(Consistency, TestInconsistentRayClusterStatus) {
  const Json base = {{"state", "ready"}, {"readyWorkerReplicas", 1}, {"desiredCPU", "1"},
                     {"lastUpdateTime", "a"}, {"observedGeneration", 1}};
  Json changed = base;
  changed["desiredCPU"] = "2";
  changed["lastUpdateTime"] = "b";
  changed["observedGeneration"] = 2;
  EXPECT_FALSE(InconsistentRayClusterStatus(base, changed));
  changed["readyWorkerReplicas"] = 2;
  EXPECT_TRUE(InconsistentRayClusterStatus(base, changed));
  Json state = base;
  state["state"] = "suspended";
  EXPECT_TRUE(InconsistentRayClusterStatus(base, state));
  EXPECT_TRUE(InconsistentRayClusterStatus(Json(), base));
}

TEST(ShouldDeletePod, Test_ShouldDeletePod) {
  std::string reason;
  EXPECT_TRUE(ShouldDeletePod(PodIn("w", "worker", "Failed", false), "worker", &reason));
  EXPECT_TRUE(ShouldDeletePod(PodIn("w", "worker", "Succeeded", false), "worker", &reason));
  EXPECT_NE(reason.find("terminal state"), std::string::npos);
  EXPECT_FALSE(ShouldDeletePod(PodIn("w", "worker", "Pending", false), "worker", &reason));
  // Test_RunningPods_RayContainerTerminated: only restartPolicy Never deletes.
  Json running = PodIn("w", "worker", "Running", false);
  running["status"]["containerStatuses"] =
      Json::array({Json{{"name", "ray"}, {"state", {{"terminated", {{"exitCode", 1}}}}}}});
  running["spec"]["restartPolicy"] = "Always";
  EXPECT_FALSE(ShouldDeletePod(running, "worker", &reason));
  EXPECT_NE(reason.find("should be able to restart automatically"), std::string::npos);
  running["spec"]["restartPolicy"] = "Never";
  EXPECT_TRUE(ShouldDeletePod(running, "worker", &reason));
  EXPECT_NE(reason.find("restart policy Never"), std::string::npos);
}

TEST(ShouldDeletePod, DecidesTheSameWithoutAReason) {
  Json running = PodIn("w", "worker", "Running", false);
  running["status"]["containerStatuses"] =
      Json::array({Json{{"name", "ray"}, {"state", {{"terminated", {{"exitCode", 1}}}}}}});
  running["spec"]["restartPolicy"] = "Never";
  EXPECT_TRUE(ShouldDeletePod(running, "worker", nullptr));
  running["spec"]["restartPolicy"] = "Always";
  EXPECT_FALSE(ShouldDeletePod(running, "worker", nullptr));
  EXPECT_TRUE(ShouldDeletePod(PodIn("w", "worker", "Failed", false), "worker", nullptr));
  EXPECT_FALSE(ShouldDeletePod(PodIn("w", "worker", "Pending", false), "worker", nullptr));
}

}  // namespace
}  // namespace kuberay
