// Lab-level tests of the RayCluster controller inside the whole simulated cluster (API server,
// scheduler, kubelets, garbage collector, the kuberay-operator Deployment): KubeRay's own samples
// applied unchanged converge, and the worker-count rules act as upstream's unit tests expect.
// Mirrors: ray-operator/controllers/ray/raycluster_controller_test.go (envtest: "RayCluster
// with a worker group", suspend, workersToDelete) and raycluster_controller_unit_test.go
// (TestReconcile_RemoveWorkersToDelete_OK, TestReconcile_RandomDelete_OK,
// TestReconcile_PodDeleted_Diff0_OK, Test_TerminatedWorkers_NoAutoscaler,
// Test_TerminatedHead_RestartPolicy, TestReconcile_AutoscalerServiceAccount,
// TestReconcile_AutoscalerRoleBinding, TestEvents_…).
#include <algorithm>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/lab/lab.h"
#include "tests/operators/kuberay/fixtures.h"
#include "tests/operators/kuberay/gate_session.h"

namespace kuberay {
namespace {

struct RayClusterSession : testing::GateSession {
  static int CountLines(const std::string& text) { return labtest::CountLines(text); }
  // Pods of cluster (names), optionally only workers.
  std::string PodNames(const std::string& cluster, const std::string& type) {
    Run("get pods -l ray.io/cluster=" + cluster + ",ray.io/node-type=" + type + " -o name");
    return out;
  }
};

TEST(RayClusterLab, SampleClusterConverges) {
  REQUIRE_SAMPLES(dir);
  RayClusterSession s;
  ASSERT_TRUE(s.Run("apply -f ray-cluster.sample.yaml", dir)) << s.err;
  EXPECT_EQ(s.out, "raycluster.ray.io/raycluster-kuberay created\n");
  ASSERT_TRUE(s.WaitReady("raycluster-kuberay")) << s.err;
  EXPECT_EQ(s.CountLines(s.PodNames("raycluster-kuberay", "head")), 1);
  EXPECT_EQ(s.CountLines(s.PodNames("raycluster-kuberay", "worker")), 1);
  EXPECT_EQ(s.Get("pods -l ray.io/cluster=raycluster-kuberay -o jsonpath='{.items[*].status.phase}'"),
            "Running Running");
  EXPECT_EQ(s.Get("svc raycluster-kuberay-head-svc -o jsonpath='{.spec.clusterIP}'"), "None");
  EXPECT_EQ(s.Get("svc raycluster-kuberay-head-svc -o jsonpath='{.spec.ports[*].name}'"),
            "client dashboard gcs-server metrics");
  EXPECT_EQ(s.Get("raycluster raycluster-kuberay -o jsonpath='{.status.readyWorkerReplicas}'"), "1");
  EXPECT_EQ(s.Get("raycluster raycluster-kuberay -o jsonpath='{.status.endpoints.dashboard}'"), "8265");
  EXPECT_EQ(s.Get("raycluster raycluster-kuberay -o jsonpath='{.status.head.serviceName}'"),
            "raycluster-kuberay-head-svc");
  EXPECT_EQ(s.Get("raycluster raycluster-kuberay -o jsonpath='{.status.conditions[?(@.type==\"HeadPodReady\")].status}'"),
            "True");
  // The printer columns of the CRD (v1.7.0).
  ASSERT_TRUE(s.Run("get rayclusters")) << s.err;
  EXPECT_EQ(s.out.substr(0, s.out.find('\n')),
            "NAME                 DESIRED WORKERS   AVAILABLE WORKERS   CPUS   MEMORY   GPUS   STATUS   AGE");
  EXPECT_NE(s.out.find("raycluster-kuberay   1                 1                   2      6Gi      0      ready"),
            std::string::npos)
      << s.out;
  // -o wide adds the priority-1 columns in declared order.
  ASSERT_TRUE(s.Run("get rayclusters -o wide")) << s.err;
  const std::string wide = s.out.substr(0, s.out.find('\n'));
  EXPECT_LT(wide.find("GPUS"), wide.find("TPUS"));
  EXPECT_LT(wide.find("TPUS"), wide.find("STATUS"));
  EXPECT_LT(wide.find("AGE"), wide.find("HEAD POD IP"));
  EXPECT_LT(wide.find("HEAD POD IP"), wide.find("HEAD SERVICE IP"));
  // Pods carry KubeRay's labels; the head its annotations.
  EXPECT_EQ(s.Get("pods -l ray.io/node-type=head -o jsonpath='{.items[0].metadata.annotations.ray\\.io/kuberay-version}'"),
            "v1.7.0");
  EXPECT_EQ(s.Get("pods -l ray.io/node-type=worker -o jsonpath='{.items[0].metadata.labels.ray\\.io/group}'"),
            "workergroup");
}

TEST(RayClusterLab, AutoscalerSampleConvergesWithSidecarAndItsRbac) {
  REQUIRE_SAMPLES(dir);
  RayClusterSession s;
  ASSERT_TRUE(s.Run("apply -f ray-cluster.autoscaler.yaml", dir)) << s.err;
  ASSERT_TRUE(s.WaitReady("raycluster-autoscaler")) << s.err;
  // replicas 0: the head alone is the whole cluster.
  EXPECT_EQ(s.CountLines(s.PodNames("raycluster-autoscaler", "worker")), 0);
  EXPECT_EQ(s.Get("pods -l ray.io/node-type=head -o jsonpath='{.items[0].spec.containers[*].name}'"),
            "ray-head autoscaler");
  EXPECT_EQ(s.Get("pods -l ray.io/node-type=head -o jsonpath='{.items[0].spec.serviceAccountName}'"),
            "raycluster-autoscaler");
  // TestReconcile_AutoscalerServiceAccount / TestReconcile_AutoscalerRoleBinding
  EXPECT_EQ(s.Get("sa raycluster-autoscaler -o jsonpath='{.metadata.ownerReferences[0].kind}'"), "RayCluster");
  EXPECT_EQ(s.Get("role raycluster-autoscaler -o jsonpath='{.rules[0].verbs}'"), "[\"get\",\"list\",\"watch\",\"patch\"]");
  EXPECT_EQ(s.Get("rolebinding raycluster-autoscaler -o jsonpath='{.subjects[0].name}'"), "raycluster-autoscaler");
  // Desired resources come from the spec's templates (requests first): the injected sidecar
  // is not counted.
  EXPECT_EQ(s.Get("raycluster raycluster-autoscaler -o jsonpath='{.status.desiredCPU}'"), "1");
  EXPECT_EQ(s.Get("raycluster raycluster-autoscaler -o jsonpath='{.status.desiredMemory}'"), "2Gi");
}

TEST(RayClusterLab, ScaleUpThenRandomScaleDown) {
  RayClusterSession s;
  ASSERT_TRUE(s.Apply(testing::SampleYaml("scale", 1))) << s.err;
  ASSERT_TRUE(s.WaitReady("scale")) << s.err;
  ASSERT_TRUE(s.Run("patch raycluster scale --type json -p '[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":3}]'")) << s.err;
  ASSERT_TRUE(s.Run("wait --for=jsonpath='{.status.availableWorkerReplicas}'=3 raycluster/scale --timeout=60s")) << s.err;
  // Each new worker takes the lowest index no running worker holds: the first kept its 0.
  std::istringstream indices(s.Get("pods -l ray.io/node-type=worker -o jsonpath="
                                   "'{.items[*].metadata.labels.ray\\.io/worker-group-replica-index}'"));
  std::vector<std::string> held{std::istream_iterator<std::string>(indices), {}};
  std::sort(held.begin(), held.end());
  EXPECT_EQ(held, (std::vector<std::string>{"0", "1", "2"}));
  ASSERT_TRUE(s.Run("patch raycluster scale --type json -p '[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":1}]'")) << s.err;
  ASSERT_TRUE(s.Run("run 20s")) << s.err;
  EXPECT_EQ(s.CountLines(s.PodNames("scale", "worker")), 1);
  ASSERT_TRUE(s.Run("expect trace api.request verb=delete kind=Pod user=system:serviceaccount:default:kuberay-operator --min 2 --max 2")) << s.err;
}

TEST(RayClusterLab, TestReconcile_RemoveWorkersToDelete_OK) {
  RayClusterSession s;
  ASSERT_TRUE(s.Apply(testing::SampleYaml("wtd", 3))) << s.err;
  ASSERT_TRUE(s.WaitReady("wtd")) << s.err;
  s.Run("get pods -l ray.io/node-type=worker -o jsonpath='{.items[1].metadata.name}'");
  const std::string victim = s.out;
  ASSERT_FALSE(victim.empty());
  // The autoscaler's way: name the Pod and lower replicas in one write.
  ASSERT_TRUE(s.Run("patch raycluster wtd --type merge -p '{\"spec\":{\"workerGroupSpecs\":[{\"groupName\":\"small\",\"replicas\":2,"
                    "\"minReplicas\":0,\"maxReplicas\":5,\"rayStartParams\":{},\"scaleStrategy\":{\"workersToDelete\":[\"" + victim + "\"]},"
                    "\"template\":{\"spec\":{\"containers\":[{\"name\":\"ray-worker\",\"image\":\"rayproject/ray:2.52.0\"}]}}}]}}'")) << s.err;
  ASSERT_TRUE(s.Run("run 20s")) << s.err;
  const std::string workers = s.PodNames("wtd", "worker");
  EXPECT_EQ(s.CountLines(workers), 2) << workers;
  EXPECT_EQ(workers.find(victim), std::string::npos) << victim << " should be gone:\n" << workers;
  // The operator never writes the list back.
  EXPECT_EQ(s.Get("raycluster wtd -o jsonpath='{.spec.workerGroupSpecs[0].scaleStrategy.workersToDelete[0]}'"), victim);
}

TEST(RayClusterLab, DeletedWorkerIsReplacedAndHeadIsRecreated) {
  RayClusterSession s;
  ASSERT_TRUE(s.Apply(testing::SampleYaml("heal", 1))) << s.err;
  ASSERT_TRUE(s.WaitReady("heal")) << s.err;
  s.Run("get pods -l ray.io/node-type=worker -o jsonpath='{.items[0].metadata.name}'");
  const std::string worker = s.out;
  s.Run("get pods -l ray.io/node-type=head -o jsonpath='{.items[0].metadata.name}'");
  const std::string head = s.out;
  ASSERT_TRUE(s.Run("delete pod " + worker)) << s.err;
  ASSERT_TRUE(s.Run("delete pod " + head)) << s.err;
  ASSERT_TRUE(s.Run("run 30s")) << s.err;
  const std::string workers = s.PodNames("heal", "worker");
  EXPECT_EQ(s.CountLines(workers), 1);
  EXPECT_EQ(workers.find(worker), std::string::npos);
  const std::string heads = s.PodNames("heal", "head");
  EXPECT_EQ(s.CountLines(heads), 1);
  EXPECT_EQ(heads.find(head), std::string::npos);  // a new random name
  EXPECT_EQ(s.Get("raycluster heal -o jsonpath='{.status.state}'"), "ready");
  EXPECT_EQ(s.Get("raycluster heal -o jsonpath='{.status.head.podName}'") + "\n", heads.substr(4));
}

TEST(RayClusterLab, Test_TerminatedWorkers_NoAutoscaler) {
  RayClusterSession s;
  std::string yaml = testing::SampleYaml("never", 1);
  yaml.replace(yaml.rfind("        containers:"), 0, "        restartPolicy: Never\n");
  ASSERT_TRUE(s.Apply(yaml)) << s.err;
  ASSERT_TRUE(s.WaitReady("never")) << s.err;
  s.Run("get pods -l ray.io/node-type=worker -o jsonpath='{.items[0].metadata.name}'");
  const std::string worker = s.out;
  ASSERT_TRUE(s.Run("kill pod " + worker)) << s.err;
  ASSERT_TRUE(s.Run("run 30s")) << s.err;
  // The Failed Pod was deleted by the operator and a new worker took its place.
  const std::string workers = s.PodNames("never", "worker");
  EXPECT_EQ(s.CountLines(workers), 1);
  EXPECT_EQ(workers.find(worker), std::string::npos);
  ASSERT_TRUE(s.Run("expect trace api.request verb=delete kind=Pod name=" + worker +
                    " user=system:serviceaccount:default:kuberay-operator --min 1")) << s.err;
  s.Run("get events --field-selector reason=DeletedWorkerPod -o jsonpath='{.items[0].message}'");
  EXPECT_NE(s.out.find("Deleted worker Pod default/" + worker + "; Pod status: Failed"), std::string::npos) << s.out << s.err;
}

TEST(RayClusterLab, SuspendDeletesPodsAndResumeRecreatesThem) {
  RayClusterSession s;
  ASSERT_TRUE(s.Apply(testing::SampleYaml("sus", 1))) << s.err;
  ASSERT_TRUE(s.WaitReady("sus")) << s.err;
  ASSERT_TRUE(s.Run("patch raycluster sus --type merge -p '{\"spec\":{\"suspend\":true}}'")) << s.err;
  ASSERT_TRUE(s.Run("wait --for=jsonpath='{.status.state}'=suspended raycluster/sus --timeout=60s")) << s.err;
  EXPECT_EQ(s.PodNames("sus", "head") + s.PodNames("sus", "worker"), "");
  EXPECT_EQ(s.Get("raycluster sus -o jsonpath='{.status.conditions[?(@.type==\"RayClusterSuspended\")].status}'"), "True");
  ASSERT_TRUE(s.Run("patch raycluster sus --type merge -p '{\"spec\":{\"suspend\":false}}'")) << s.err;
  ASSERT_TRUE(s.WaitReady("sus")) << s.err;
  EXPECT_EQ(s.CountLines(s.PodNames("sus", "worker")), 1);
}

TEST(RayClusterLab, InvalidSpecIsAnEventAndNoStatus) {
  RayClusterSession s;
  std::string yaml = testing::SampleYaml("bad", 1);
  yaml.replace(yaml.find("minReplicas: 0"), 14, "minReplicas: 9");
  ASSERT_TRUE(s.Apply(yaml)) << s.err;
  ASSERT_TRUE(s.Run("run 10s")) << s.err;
  EXPECT_EQ(s.Get("raycluster bad -o jsonpath='{.status}'"), "");
  EXPECT_EQ(s.PodNames("bad", "head"), "");
  s.Run("get events --field-selector reason=InvalidRayClusterSpec -o jsonpath='{.items[0].message}'");
  EXPECT_EQ(s.out, "The RayCluster spec is invalid default/bad: worker group small has minReplicas 9 greater than maxReplicas 5");
  // No requeue: one reconcile, nothing after it.
  ASSERT_TRUE(s.Run("expect trace reconcile.end controller=raycluster key=default/bad result=success --min 1 --max 1")) << s.err;
}

TEST(RayClusterLab, StatusWritesDoNotReconcileAndRequeueIs300s) {
  RayClusterSession s;
  ASSERT_TRUE(s.Apply(testing::SampleYaml("quiet", 1))) << s.err;
  ASSERT_TRUE(s.WaitReady("quiet")) << s.err;
  ASSERT_TRUE(s.Run("run 10s")) << s.err;
  // The operator's own status writes fail the For() predicate.
  ASSERT_TRUE(s.Run("expect trace predicate.eval controller=raycluster predicate=Or(GenerationChanged,LabelChanged,AnnotationChanged) result=false --min 1")) << s.err;
  ASSERT_TRUE(s.Run("expect trace reconcile.end controller=raycluster key=default/quiet result=requeue_after requeueAfterMs=300000 --min 1")) << s.err;
  ASSERT_TRUE(s.Run("expect trace reconcile.end controller=raycluster key=default/quiet result=requeue_after requeueAfterMs=2000 --min 1")) << s.err;
}

TEST(RayClusterLab, DeniedPodListBreaksTheOperator) {
  RayClusterSession s;
  ASSERT_TRUE(s.Run("operator rbac deny list pods")) << s.err;
  ASSERT_TRUE(s.Run("operator restart")) << s.err;
  ASSERT_TRUE(s.Run("run 10s")) << s.err;
  ASSERT_TRUE(s.Apply(testing::SampleYaml("blind", 1))) << s.err;
  ASSERT_TRUE(s.Run("run 30s")) << s.err;
  EXPECT_EQ(s.PodNames("blind", "head"), "");
  ASSERT_TRUE(s.Run("expect trace api.request verb=list kind=Pod code=403 user=system:serviceaccount:default:kuberay-operator --min 1")) << s.err;
  ASSERT_TRUE(s.Run("operator rbac reset")) << s.err;
  ASSERT_TRUE(s.WaitReady("blind", "300s")) << s.err;
}

TEST(RayClusterLab, OperatorRunsAsADeploymentWithLeaderElection) {
  RayClusterSession s;
  ASSERT_TRUE(s.Run("run 5s")) << s.err;
  EXPECT_EQ(s.Get("deploy kuberay-operator -o jsonpath='{.spec.template.spec.serviceAccountName}'"), "kuberay-operator");
  EXPECT_EQ(s.Get("lease ray-operator-leader -o jsonpath='{.metadata.name}'"), "ray-operator-leader");
  ASSERT_TRUE(s.Run("operator set reconcile-concurrency=2 feature-gates=RayCronJob=true ENABLE_RANDOM_POD_DELETE=true")) << s.err;
  ASSERT_TRUE(s.Run("operator restart")) << s.err;
  ASSERT_TRUE(s.Run("run 10s")) << s.err;
  ASSERT_TRUE(s.Run("logs deploy/kuberay-operator")) << s.err;
  EXPECT_NE(s.out.find("\"reconcileConcurrency\": \"2\""), std::string::npos) << s.out;
  ASSERT_TRUE(s.Run("operator set feature-gates=NoSuchGate=true")) << s.err;
  ASSERT_TRUE(s.Run("operator restart")) << s.err;
  ASSERT_TRUE(s.Run("run 10s")) << s.err;
  ASSERT_TRUE(s.Run("logs deploy/kuberay-operator")) << s.err;
  EXPECT_NE(s.out.find("unrecognized feature gate: NoSuchGate"), std::string::npos) << s.out;
}

}  // namespace
}  // namespace kuberay
