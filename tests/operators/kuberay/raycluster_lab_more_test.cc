// More lab-level RayCluster behaviours: the Recreate upgrade strategy, a terminated head Pod,
// group suspend, multi-host groups and their headless Service, the serve Service annotation,
// --watch-namespace, and the requeue interval from the operator's environment.
// Mirrors: ray-operator/controllers/ray/raycluster_controller_unit_test.go
// (TestShouldRecreatePodsForUpgrade, Test_TerminatedHead_RestartPolicy,
// TestCalculateStatusWithSuspendedWorkerGroups, TestReconcile_NumOfHosts,
// TestReconcileHeadlessService) and raycluster_controller_test.go (envtest suspend cases).
#include <string>

#include <gtest/gtest.h>

#include "core/lab/lab.h"
#include "tests/operators/kuberay/fixtures.h"
#include "tests/operators/kuberay/gate_session.h"

namespace kuberay {
namespace {

struct Session : testing::GateSession {
  int Pods(const std::string& selector) {
    Run("get pods -l " + selector + " -o name");
    return labtest::CountLines(out);
  }
};

std::string With(std::string yaml, const std::string& after, const std::string& insert) {
  yaml.replace(yaml.find(after) + after.size(), 0, insert);
  return yaml;
}

TEST(RayClusterLabMore, TestShouldRecreatePodsForUpgrade) {
  Session s;
  ASSERT_TRUE(s.Apply(With(testing::SampleYaml("up", 1), "spec:\n", "  upgradeStrategy: {type: Recreate}\n"))) << s.err;
  ASSERT_TRUE(s.WaitReady("up")) << s.err;
  const std::string head = s.Get("pods -l ray.io/node-type=head,ray.io/cluster=up -o name");
  // A replicas change is not part of the hash: nothing is recreated.
  ASSERT_TRUE(s.Run("patch raycluster up --type json -p '[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":2}]'")) << s.err;
  ASSERT_TRUE(s.Run("run 15s")) << s.err;
  EXPECT_EQ(s.Get("pods -l ray.io/node-type=head,ray.io/cluster=up -o name"), head);
  // An image change is: every Pod goes and comes back with the new image.
  ASSERT_TRUE(s.Run("patch raycluster up --type json -p '[{\"op\":\"replace\",\"path\":\"/spec/headGroupSpec/template/spec/containers/0/image\",\"value\":\"rayproject/ray:2.53.0\"}]'")) << s.err;
  ASSERT_TRUE(s.Run("run 30s")) << s.err;
  EXPECT_NE(s.Get("pods -l ray.io/node-type=head,ray.io/cluster=up -o name"), head);
  EXPECT_EQ(s.Get("pods -l ray.io/node-type=head,ray.io/cluster=up -o jsonpath='{.items[0].spec.containers[0].image}'"),
            "rayproject/ray:2.53.0");
  EXPECT_EQ(s.Pods("ray.io/cluster=up,ray.io/node-type=worker"), 2);
  s.Run("get events --field-selector reason=DeletedPod -o jsonpath='{.items[0].message}'");
  EXPECT_EQ(s.out, "Deleted all Pods for RayCluster default/up due to spec change with Recreate upgradeStrategy");
}

TEST(RayClusterLabMore, UpgradeStrategyNoneKeepsPods) {
  Session s;
  ASSERT_TRUE(s.Apply(testing::SampleYaml("keep", 1))) << s.err;
  ASSERT_TRUE(s.WaitReady("keep")) << s.err;
  const std::string head = s.Get("pods -l ray.io/node-type=head,ray.io/cluster=keep -o name");
  ASSERT_TRUE(s.Run("patch raycluster keep --type json -p '[{\"op\":\"replace\",\"path\":\"/spec/headGroupSpec/template/spec/containers/0/image\",\"value\":\"rayproject/ray:2.53.0\"}]'")) << s.err;
  ASSERT_TRUE(s.Run("run 20s")) << s.err;
  EXPECT_EQ(s.Get("pods -l ray.io/node-type=head,ray.io/cluster=keep -o name"), head);
}

TEST(RayClusterLabMore, Test_TerminatedHead_RestartPolicy) {
  Session s;
  ASSERT_TRUE(s.Apply(With(testing::SampleYaml("hd", 1), "    template:\n      spec:\n", "        restartPolicy: Never\n"))) << s.err;
  ASSERT_TRUE(s.WaitReady("hd")) << s.err;
  s.Run("get pods -l ray.io/node-type=head,ray.io/cluster=hd -o jsonpath='{.items[0].metadata.name}'");
  const std::string head = s.out;
  ASSERT_TRUE(s.Run("kill pod " + head)) << s.err;
  ASSERT_TRUE(s.Run("run 30s")) << s.err;
  const std::string now = s.Get("pods -l ray.io/node-type=head,ray.io/cluster=hd -o jsonpath='{.items[*].metadata.name}'");
  EXPECT_NE(now, head);
  EXPECT_EQ(s.Pods("ray.io/cluster=hd,ray.io/node-type=head"), 1);
  // The reconcile that deletes the head returns an error (no recreation in the same pass).
  ASSERT_TRUE(s.Run("expect trace reconcile.end controller=raycluster key=default/hd result=error --min 1")) << s.err;
  s.Run("get events --field-selector reason=DeletedHeadPod -o jsonpath='{.items[0].message}'");
  EXPECT_NE(s.out.find("Deleted head Pod default/" + head + "; Pod status: Failed; Pod restart policy: Never"),
            std::string::npos) << s.out;
}

TEST(RayClusterLabMore, TestCalculateStatusWithSuspendedWorkerGroups) {
  Session s;
  ASSERT_TRUE(s.Apply(testing::SampleYaml("gs", 2))) << s.err;
  ASSERT_TRUE(s.WaitReady("gs")) << s.err;
  ASSERT_TRUE(s.Run("patch raycluster gs --type json -p '[{\"op\":\"add\",\"path\":\"/spec/workerGroupSpecs/0/suspend\",\"value\":true}]'")) << s.err;
  ASSERT_TRUE(s.Run("run 20s")) << s.err;
  EXPECT_EQ(s.Pods("ray.io/cluster=gs,ray.io/node-type=worker"), 0);
  EXPECT_EQ(s.Get("raycluster gs -o jsonpath='{.status.desiredWorkerReplicas}'"), "0");
  EXPECT_EQ(s.Get("raycluster gs -o jsonpath='{.status.maxWorkerReplicas}'"), "0");
  EXPECT_EQ(s.Get("raycluster gs -o jsonpath='{.status.desiredCPU}'"), "1");
}

TEST(RayClusterLabMore, TestReconcile_NumOfHostsAndHeadlessService) {
  Session s;
  ASSERT_TRUE(s.Apply(With(testing::SampleYaml("mh", 2), "    maxReplicas: 5\n", "    numOfHosts: 2\n"))) << s.err;
  ASSERT_TRUE(s.WaitReady("mh")) << s.err;
  EXPECT_EQ(s.Pods("ray.io/cluster=mh,ray.io/node-type=worker"), 4);
  EXPECT_EQ(s.Get("raycluster mh -o jsonpath='{.status.desiredWorkerReplicas}'"), "4");
  EXPECT_EQ(s.Get("svc mh-headless -o jsonpath='{.spec.clusterIP} {.spec.selector.ray\\.io/node-type}'"), "None worker");
  EXPECT_EQ(s.Get("pods -l ray.io/cluster=mh,ray.io/replica-host-index=1 -o name").empty(), false);
}

TEST(RayClusterLabMore, ServeServiceFollowsTheAnnotation) {
  Session s;
  ASSERT_TRUE(s.Apply(With(testing::SampleYaml("sv", 0), "  name: sv\n", "  annotations: {ray.io/enable-serve-service: \"true\"}\n"))) << s.err;
  ASSERT_TRUE(s.WaitReady("sv")) << s.err;
  EXPECT_EQ(s.Get("svc sv-serve-svc -o jsonpath='{.metadata.labels.ray\\.io/originated-from-crd}'"), "RayCluster");
}

TEST(RayClusterLabMore, WatchNamespaceHidesOtherNamespaces) {
  Session s;
  ASSERT_TRUE(s.Run("create namespace other")) << s.err;
  ASSERT_TRUE(s.Run("operator set watch-namespace=default")) << s.err;
  ASSERT_TRUE(s.Run("operator restart")) << s.err;
  ASSERT_TRUE(s.Run("run 10s")) << s.err;
  ASSERT_TRUE(s.Run("apply -n other -f - <<EOF\n" + testing::SampleYaml("far", 1) + "EOF\n")) << s.err;
  ASSERT_TRUE(s.Apply(testing::SampleYaml("near", 1))) << s.err;
  ASSERT_TRUE(s.WaitReady("near")) << s.err;
  ASSERT_TRUE(s.Run("run 10s")) << s.err;
  EXPECT_EQ(s.Get("raycluster far -n other -o jsonpath='{.status}'"), "");
  ASSERT_TRUE(s.Run("expect trace reconcile.start controller=raycluster key=other/far --max 0")) << s.err;
}

TEST(RayClusterLabMore, RequeueSecondsComeFromTheOperatorEnvironment) {
  Session s;
  ASSERT_TRUE(s.Run("operator set RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV=60")) << s.err;
  ASSERT_TRUE(s.Run("operator restart")) << s.err;
  ASSERT_TRUE(s.Run("run 10s")) << s.err;
  ASSERT_TRUE(s.Apply(testing::SampleYaml("rq", 0))) << s.err;
  ASSERT_TRUE(s.WaitReady("rq")) << s.err;
  ASSERT_TRUE(s.Run("run 5s")) << s.err;
  ASSERT_TRUE(s.Run("expect trace reconcile.end controller=raycluster key=default/rq requeueAfterMs=60000 --min 1")) << s.err;
  ASSERT_TRUE(s.Run("expect trace reconcile.end controller=raycluster key=default/rq requeueAfterMs=300000 --max 0")) << s.err;
}

}  // namespace
}  // namespace kuberay
