// Tests of the head and worker Pods the RayCluster controller builds.
// Mirrors: ray-operator/controllers/ray/common/pod_test.go (TestBuildPod,
// TestBuildPod_WithAutoscalerEnabled, TestConvertParamMap, TestGenerateRayStartCommand,
// TestHeadPodTemplate_WithAutoscalingEnabled, TestDefaultWorkerPodTemplateWithName,
// TestDefaultInitContainer, TestSetMissingRayStartParams*).
#include "core/operators/kuberay/raycluster/pod_builder.h"

#include <gtest/gtest.h>

#include "core/operators/kuberay/common/constants.h"
#include "tests/operators/kuberay/fixtures.h"

namespace kuberay {
namespace {

using api::Json;
using testing::SampleCluster;

const Json* FindEnv(const Json& container, const std::string& name) {
  for (const Json& e : container["env"]) {
    if (e["name"] == name) return &e;
  }
  return nullptr;
}

TEST(PodBuilder, TestConvertParamMap) {
  EXPECT_EQ(ConvertParamMap({{"b", "2"}, {"a", "1"}}), " --a=1  --b=2 ");
  EXPECT_EQ(ConvertParamMap({{"block", "true"}, {"dashboard", "false"}}), " --block ");
  // log-color and include-dashboard keep an explicit false.
  EXPECT_EQ(ConvertParamMap({{"include-dashboard", "false"}, {"log-color", "true"}}),
            " --include-dashboard=false  --log-color=true ");
}

TEST(PodBuilder, SampleHeadStartCommandMatchesKubeRay) {
  const Json cluster = SampleCluster();
  const auto params = RayStartParams(cluster, cluster["spec"]["headGroupSpec"], kHeadNode);
  // The example in semantics/kuberay.md §2.8: keys sorted, double spaces between flags.
  EXPECT_EQ(GenerateRayStartCommand(kHeadNode, params),
            "ray start --head  --block  --dashboard-agent-listen-port=52365  "
            "--dashboard-host=0.0.0.0  --memory=5368709120  --metrics-export-port=8080  --num-cpus=1 ");
}

TEST(PodBuilder, TestSetMissingRayStartParamsWorkerAddress) {
  const Json cluster = SampleCluster();
  auto params = RayStartParams(cluster, cluster["spec"]["workerGroupSpecs"][0], kWorkerNode);
  EXPECT_EQ(params["address"], "raycluster-kuberay-head-svc.default.svc.cluster.local:6379");
  EXPECT_EQ(params.count("dashboard-host"), 0u);
  EXPECT_EQ(params["num-cpus"], "1");
  EXPECT_EQ(params["memory"], "1073741824");
  // A user-set value wins, block is always forced.
  Json custom = SampleCluster();
  custom["spec"]["workerGroupSpecs"][0]["rayStartParams"] = {{"block", "false"}, {"num-cpus", "3"}};
  params = RayStartParams(custom, custom["spec"]["workerGroupSpecs"][0], kWorkerNode);
  EXPECT_EQ(params["block"], "true");
  EXPECT_EQ(params["num-cpus"], "3");
}

TEST(PodBuilder, CpuLimitIsRoundedUpAndRequestIsTheFallback) {
  Json cluster = SampleCluster();
  Json& c = cluster["spec"]["workerGroupSpecs"][0]["template"]["spec"]["containers"][0];
  c["resources"] = {{"limits", {{"cpu", "1500m"}}}};
  EXPECT_EQ(RayStartParams(cluster, cluster["spec"]["workerGroupSpecs"][0], kWorkerNode)["num-cpus"], "2");
  c["resources"] = {{"requests", {{"cpu", "3"}, {"memory", "1Gi"}}}};
  auto params = RayStartParams(cluster, cluster["spec"]["workerGroupSpecs"][0], kWorkerNode);
  EXPECT_EQ(params["num-cpus"], "3");
  EXPECT_EQ(params.count("memory"), 0u);  // memory comes from the limit only
}

TEST(PodBuilder, TestBuildPodHead) {
  const Json pod = BuildHeadPod(SampleCluster(), OperatorConfig{}, "HASH");
  EXPECT_EQ(pod["metadata"]["generateName"], "raycluster-kuberay-head-");
  EXPECT_FALSE(pod["metadata"].contains("name"));
  const Json& labels = pod["metadata"]["labels"];
  EXPECT_EQ(labels["ray.io/cluster"], "raycluster-kuberay");
  EXPECT_EQ(labels["ray.io/node-type"], "head");
  EXPECT_EQ(labels["ray.io/group"], "headgroup");
  EXPECT_EQ(labels["ray.io/is-ray-node"], "yes");
  EXPECT_EQ(labels["ray.io/identifier"], "raycluster-kuberay-head");
  EXPECT_EQ(labels["app.kubernetes.io/name"], "kuberay");
  EXPECT_EQ(labels["app.kubernetes.io/created-by"], "kuberay-operator");
  const Json& annotations = pod["metadata"]["annotations"];
  EXPECT_EQ(annotations["ray.io/ft-enabled"], "false");
  EXPECT_EQ(annotations["ray.io/upgrade-strategy-recreate-hash"], "HASH");
  EXPECT_EQ(annotations["ray.io/kuberay-version"], "v1.7.0");
  EXPECT_EQ(pod["metadata"]["ownerReferences"][0]["kind"], "RayCluster");
  EXPECT_EQ(pod["metadata"]["ownerReferences"][0]["controller"], true);

  const Json& ray = pod["spec"]["containers"][0];
  EXPECT_EQ(ray["command"], Json::array({"/bin/bash", "-c", "--"}));
  ASSERT_EQ(ray["args"].size(), 1u);
  EXPECT_EQ(ray["args"][0].get<std::string>().rfind("ulimit -n ${RAY_START_ULIMIT_OPEN_FILES:-65536}; ray start --head ", 0), 0u);
  // Env order: cluster name, namespace, instance id, node type name, generated command, ...
  std::vector<std::string> names;
  for (const Json& e : ray["env"]) names.push_back(e["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"RAY_CLUSTER_NAME", "RAY_CLUSTER_NAMESPACE", "RAY_CLOUD_INSTANCE_ID",
                                             "RAY_NODE_TYPE_NAME", "KUBERAY_GEN_RAY_START_CMD", "RAY_PORT",
                                             "RAY_ADDRESS", "RAY_USAGE_STATS_KUBERAY_IN_USE",
                                             "RAY_USAGE_STATS_EXTRA_TAGS", "RAY_DASHBOARD_ENABLE_K8S_DISK_USAGE"}));
  EXPECT_EQ((*FindEnv(ray, "RAY_ADDRESS"))["value"], "127.0.0.1:6379");
  EXPECT_EQ((*FindEnv(ray, "RAY_USAGE_STATS_EXTRA_TAGS"))["value"], "kuberay_version=v1.7.0;kuberay_crd=RayCluster");
  // metrics port appended, /dev/shm sized from the memory limit, probes for Ray < 2.53 exec wget.
  EXPECT_EQ(ray["ports"].back(), (Json{{"name", "metrics"}, {"containerPort", 8080}}));
  EXPECT_EQ(pod["spec"]["volumes"][0]["emptyDir"]["medium"], "Memory");
  EXPECT_EQ(pod["spec"]["volumes"][0]["emptyDir"]["sizeLimit"], "5Gi");
  EXPECT_TRUE(ray["readinessProbe"].contains("exec"));
  EXPECT_EQ(ray["readinessProbe"]["timeoutSeconds"], 5);
  EXPECT_EQ(ray["livenessProbe"]["failureThreshold"], 120);
  EXPECT_EQ(pod["spec"]["containers"].size(), 1u);  // no autoscaler sidecar
}

TEST(PodBuilder, UserCommandRunsBeforeRayStart) {
  Json cluster = SampleCluster();
  cluster["spec"]["headGroupSpec"]["template"]["spec"]["containers"][0]["command"] = {"echo", "hi"};
  const Json pod = BuildHeadPod(cluster, OperatorConfig{}, "");
  EXPECT_EQ(pod["spec"]["containers"][0]["args"][0].get<std::string>().rfind(" echo  hi  && ulimit", 0), 0u);
  // A command that already runs `ray start` is left alone.
  cluster["spec"]["headGroupSpec"]["template"]["spec"]["containers"][0]["command"] = {"ray start --head"};
  const Json untouched = BuildHeadPod(cluster, OperatorConfig{}, "");
  EXPECT_EQ(untouched["spec"]["containers"][0]["command"], Json::array({"ray start --head"}));
  EXPECT_FALSE(untouched["spec"]["containers"][0].contains("args"));
}

TEST(PodBuilder, LoginShellAndDeterministicHeadNameAreOperatorSwitches) {
  OperatorConfig config;
  config.env["ENABLE_LOGIN_SHELL"] = "true";
  config.env["ENABLE_DETERMINISTIC_HEAD_POD_NAME"] = "true";
  const Json pod = BuildHeadPod(SampleCluster(), config, "");
  EXPECT_EQ(pod["metadata"]["name"], "raycluster-kuberay-head");
  EXPECT_FALSE(pod["metadata"].contains("generateName"));
  EXPECT_EQ(pod["spec"]["containers"][0]["command"][1], "-lc");
}

TEST(PodBuilder, TestHeadPodTemplate_WithAutoscalingEnabled) {
  Json cluster = SampleCluster("raycluster-autoscaler");
  cluster["spec"]["enableInTreeAutoscaling"] = true;
  const Json pod = BuildHeadPod(cluster, OperatorConfig{}, "");
  ASSERT_EQ(pod["spec"]["containers"].size(), 2u);
  const Json& autoscaler = pod["spec"]["containers"][1];
  EXPECT_EQ(autoscaler["name"], "autoscaler");
  EXPECT_EQ(autoscaler["image"], "rayproject/ray:2.52.0");
  EXPECT_EQ(autoscaler["resources"]["limits"]["cpu"], "500m");
  EXPECT_EQ(autoscaler["args"][0],
            "ray kuberay-autoscaler --cluster-name $(RAY_CLUSTER_NAME) --cluster-namespace $(RAY_CLUSTER_NAMESPACE)");
  EXPECT_EQ(pod["spec"]["serviceAccountName"], "raycluster-autoscaler");
  EXPECT_NE(pod["spec"]["containers"][0]["args"][0].get<std::string>().find(" --no-monitor "), std::string::npos);
  // ray-logs is shared by both containers.
  EXPECT_EQ(pod["spec"]["containers"][1]["volumeMounts"][0]["mountPath"], "/tmp/ray");
  bool ray_mount = false;
  for (const Json& m : pod["spec"]["containers"][0]["volumeMounts"]) ray_mount = ray_mount || m["mountPath"] == "/tmp/ray";
  EXPECT_TRUE(ray_mount);
  // Autoscaler v2 forces restartPolicy Never and sets the env var.
  cluster["spec"]["autoscalerOptions"] = {{"version", "v2"}};
  const Json v2 = BuildHeadPod(cluster, OperatorConfig{}, "");
  EXPECT_EQ(v2["spec"]["restartPolicy"], "Never");
  EXPECT_EQ((*FindEnv(v2["spec"]["containers"][0], "RAY_enable_autoscaler_v2"))["value"], "true");
}

TEST(PodBuilder, TestDefaultWorkerPodTemplateWithName) {
  const Json cluster = SampleCluster();
  const Json pod = BuildWorkerPod(cluster, cluster["spec"]["workerGroupSpecs"][0], OperatorConfig{}, 3, "", 0);
  EXPECT_EQ(pod["metadata"]["generateName"], "raycluster-kuberay-workergroup-worker-");
  EXPECT_EQ(pod["metadata"]["labels"]["ray.io/group"], "workergroup");
  EXPECT_EQ(pod["metadata"]["labels"]["ray.io/node-type"], "worker");
  EXPECT_EQ(pod["metadata"]["labels"]["ray.io/identifier"], "raycluster-kuberay-worker");
  EXPECT_EQ(pod["metadata"]["labels"]["ray.io/worker-group-replica-index"], "3");
  EXPECT_FALSE(pod["metadata"]["labels"].contains("ray.io/worker-group-replica-name"));
  EXPECT_FALSE(pod["metadata"]["annotations"].contains("ray.io/ft-enabled"));  // head only
  const Json& ray = pod["spec"]["containers"][0];
  EXPECT_EQ(ray["env"][0], (Json{{"name", "FQ_RAY_IP"}, {"value", "raycluster-kuberay-head-svc.default.svc.cluster.local"}}));
  EXPECT_EQ(ray["env"][1], (Json{{"name", "RAY_IP"}, {"value", "raycluster-kuberay-head-svc"}}));
  EXPECT_EQ((*FindEnv(ray, "RAY_ADDRESS"))["value"], "raycluster-kuberay-head-svc.default.svc.cluster.local:6379");
  EXPECT_EQ(FindEnv(ray, "RAY_USAGE_STATS_EXTRA_TAGS"), nullptr);
  // TestDefaultInitContainer: wait-gcs-ready with 200m/256Mi and the FQDN env.
  ASSERT_EQ(pod["spec"]["initContainers"].size(), 1u);
  const Json& init = pod["spec"]["initContainers"][0];
  EXPECT_EQ(init["name"], "wait-gcs-ready");
  EXPECT_EQ(init["resources"]["requests"]["cpu"], "200m");
  EXPECT_EQ(init["env"][0]["name"], "FQ_RAY_IP");
}

TEST(PodBuilder, InitContainerAndProbesCanBeSwitchedOff) {
  const Json cluster = SampleCluster();
  OperatorConfig config;
  config.env["ENABLE_INIT_CONTAINER_INJECTION"] = "false";
  config.env["ENABLE_PROBES_INJECTION"] = "false";
  const Json pod = BuildWorkerPod(cluster, cluster["spec"]["workerGroupSpecs"][0], config, 0, "", 0);
  EXPECT_FALSE(pod["spec"].contains("initContainers"));
  EXPECT_FALSE(pod["spec"]["containers"][0].contains("readinessProbe"));
}

TEST(PodBuilder, ReservedLabelsCannotBeOverridden) {
  Json cluster = SampleCluster();
  cluster["spec"]["workerGroupSpecs"][0]["template"]["metadata"]["labels"] = {
      {"ray.io/group", "mine"}, {"ray.io/cluster", "other"}, {"app.kubernetes.io/name", "custom"}, {"team", "a"}};
  const Json pod = BuildWorkerPod(cluster, cluster["spec"]["workerGroupSpecs"][0], OperatorConfig{}, 0, "", 0);
  EXPECT_EQ(pod["metadata"]["labels"]["ray.io/group"], "workergroup");
  EXPECT_EQ(pod["metadata"]["labels"]["ray.io/cluster"], "raycluster-kuberay");
  EXPECT_EQ(pod["metadata"]["labels"]["app.kubernetes.io/name"], "custom");
  EXPECT_EQ(pod["metadata"]["labels"]["team"], "a");
}

TEST(PodBuilder, MultiHostWorkersCarryReplicaNameAndHostIndex) {
  Json cluster = SampleCluster();
  cluster["spec"]["workerGroupSpecs"][0]["numOfHosts"] = 2;
  const Json pod = BuildWorkerPod(cluster, cluster["spec"]["workerGroupSpecs"][0], OperatorConfig{}, 1, "workergroup-abcde", 1);
  EXPECT_EQ(pod["metadata"]["labels"]["ray.io/worker-group-replica-name"], "workergroup-abcde");
  EXPECT_EQ(pod["metadata"]["labels"]["ray.io/replica-host-index"], "1");
  // Gate off: no index labels at all (v1.5 behaviour).
  OperatorConfig off;
  ASSERT_TRUE(off.features.Set("RayMultiHostIndexing", false).ok());
  const Json plain = BuildWorkerPod(cluster, cluster["spec"]["workerGroupSpecs"][0], off, 1, "x", 1);
  EXPECT_FALSE(plain["metadata"]["labels"].contains("ray.io/worker-group-replica-index"));
}

// A reconcile builds one template per group and stamps every worker from it: each stamp
// must land on its own copy, and only the replica labels may differ.
TEST(PodBuilder, WorkerTemplateStampsEachReplicaOnItsOwnCopy) {
  Json cluster = SampleCluster();
  cluster["spec"]["workerGroupSpecs"][0]["numOfHosts"] = 2;
  const Json& group = cluster["spec"]["workerGroupSpecs"][0];
  const Json worker_template = BuildWorkerPodTemplate(cluster, group, OperatorConfig{});
  EXPECT_FALSE(worker_template["metadata"]["labels"].contains("ray.io/worker-group-replica-index"));
  const OperatorConfig config;
  const Json first = StampWorkerReplica(worker_template, group, config, 0, "wg-bcdfg", 0);
  const Json second = StampWorkerReplica(worker_template, group, config, 1, "wg-bcdfg", 1);
  EXPECT_EQ(first["metadata"]["labels"]["ray.io/worker-group-replica-index"], "0");
  EXPECT_EQ(second["metadata"]["labels"]["ray.io/worker-group-replica-index"], "1");
  EXPECT_EQ(second["metadata"]["labels"]["ray.io/replica-host-index"], "1");
  EXPECT_FALSE(worker_template["metadata"]["labels"].contains("ray.io/replica-host-index"));
  Json first_spec = first;
  Json second_spec = second;
  first_spec["metadata"].erase("labels");
  second_spec["metadata"].erase("labels");
  EXPECT_EQ(first_spec, second_spec);
  EXPECT_EQ(first_spec["spec"], worker_template["spec"]);
}

// --- Pods of clusters created by a RayJob or a RayService (common/pod.go's creatorCRDType) ---

Json CreatedBy(const std::string& crd) {
  Json cluster = SampleCluster();
  cluster["metadata"]["labels"]["ray.io/originated-from-crd"] = crd;
  cluster["metadata"]["labels"]["ray.io/originated-from-cr-name"] = "owner";
  return cluster;
}

std::vector<std::string> EnvNames(const Json& container) {
  std::vector<std::string> names;
  for (const Json& e : container["env"]) names.push_back(e["name"]);
  return names;
}

TEST(PodBuilderCreator, RayServiceClustersGetServeEnvTagsAndLabels) {
  const Json cluster = CreatedBy("RayService");
  const Json head = BuildHeadPod(cluster, OperatorConfig{}, "");
  const Json& ray = head["spec"]["containers"][0];
  // The three Serve settings sit between RAY_PORT and RAY_ADDRESS (setContainerEnvVars' order).
  EXPECT_EQ(EnvNames(ray),
            (std::vector<std::string>{"RAY_CLUSTER_NAME", "RAY_CLUSTER_NAMESPACE",
                                      "RAY_CLOUD_INSTANCE_ID", "RAY_NODE_TYPE_NAME",
                                      "KUBERAY_GEN_RAY_START_CMD", "RAY_PORT",
                                      "RAY_timeout_ms_task_wait_for_death_info",
                                      "RAY_gcs_server_request_timeout_seconds",
                                      "RAY_SERVE_KV_TIMEOUT_S", "RAY_ADDRESS",
                                      "RAY_USAGE_STATS_KUBERAY_IN_USE",
                                      "RAY_USAGE_STATS_EXTRA_TAGS",
                                      "RAY_DASHBOARD_ENABLE_K8S_DISK_USAGE"}));
  EXPECT_EQ((*FindEnv(ray, "RAY_timeout_ms_task_wait_for_death_info"))["value"], "0");
  EXPECT_EQ((*FindEnv(ray, "RAY_gcs_server_request_timeout_seconds"))["value"], "5");
  EXPECT_EQ((*FindEnv(ray, "RAY_SERVE_KV_TIMEOUT_S"))["value"], "5");
  EXPECT_EQ((*FindEnv(ray, "RAY_USAGE_STATS_EXTRA_TAGS"))["value"],
            "kuberay_version=v1.7.0;kuberay_crd=RayService");
  EXPECT_EQ(head["metadata"]["labels"]["ray.io/serve"], "false");
  // The head's probes are a RayCluster head's: its serve label is the controller's business.
  EXPECT_EQ(ray["readinessProbe"]["failureThreshold"], 10);

  const Json worker = BuildWorkerPod(cluster, cluster["spec"]["workerGroupSpecs"][0], OperatorConfig{}, 0, "", 0);
  const Json& w = worker["spec"]["containers"][0];
  EXPECT_EQ(worker["metadata"]["labels"]["ray.io/serve"], "true");
  EXPECT_NE(FindEnv(w, "RAY_SERVE_KV_TIMEOUT_S"), nullptr);
  EXPECT_EQ(FindEnv(w, "RAY_USAGE_STATS_EXTRA_TAGS"), nullptr) << "head only";
  // The worker's readiness also asks the Serve proxy, and one failure takes it out.
  EXPECT_EQ(w["readinessProbe"]["failureThreshold"], 1);
  EXPECT_EQ(w["readinessProbe"]["exec"]["command"],
            Json::array({"bash", "-c",
                         "wget --tries 1 -T 2 -q -O- http://localhost:52365/api/local_raylet_healthz "
                         "| grep success && wget --tries 1 -T 10 -q -O- "
                         "http://localhost:8000/-/healthz | grep success"}));
  EXPECT_EQ(w["livenessProbe"]["failureThreshold"], 120) << "liveness is unchanged";
}

TEST(PodBuilderCreator, ServeProxyCheckStaysExecForUnifiedHealthCheckVersions) {
  Json cluster = CreatedBy("RayService");
  cluster["spec"]["rayVersion"] = "2.53.0";
  Json& c = cluster["spec"]["workerGroupSpecs"][0]["template"]["spec"]["containers"][0];
  c["ports"] = Json::array({{{"name", "serve"}, {"containerPort", 9000}}});
  const Json worker = BuildWorkerPod(cluster, cluster["spec"]["workerGroupSpecs"][0], OperatorConfig{}, 0, "", 0);
  const Json& w = worker["spec"]["containers"][0];
  EXPECT_EQ(w["livenessProbe"]["httpGet"], (Json{{"path", "/api/healthz"}, {"port", 52365}}));
  EXPECT_FALSE(w["readinessProbe"].contains("httpGet"));
  EXPECT_EQ(w["readinessProbe"]["exec"]["command"][2],
            "wget --tries 1 -T 2 -q -O- http://localhost:52365/api/local_raylet_healthz | grep "
            "success && wget --tries 1 -T 10 -q -O- http://localhost:9000/-/healthz | grep success");
}

TEST(PodBuilderCreator, RayJobAndRayClusterTagsWithoutServeSettings) {
  const Json job = CreatedBy("RayJob");
  const Json head = BuildHeadPod(job, OperatorConfig{}, "");
  const Json& ray = head["spec"]["containers"][0];
  EXPECT_EQ((*FindEnv(ray, "RAY_USAGE_STATS_EXTRA_TAGS"))["value"],
            "kuberay_version=v1.7.0;kuberay_crd=RayJob");
  EXPECT_EQ(FindEnv(ray, "RAY_SERVE_KV_TIMEOUT_S"), nullptr);
  EXPECT_FALSE(head["metadata"]["labels"].contains("ray.io/serve"));
  // An unknown creator is a RayCluster, as utils.GetCRDType says.
  const Json other = BuildHeadPod(CreatedBy("Mystery"), OperatorConfig{}, "");
  EXPECT_EQ((*FindEnv(other["spec"]["containers"][0], "RAY_USAGE_STATS_EXTRA_TAGS"))["value"],
            "kuberay_version=v1.7.0;kuberay_crd=RayCluster");
  // utils/constant.go BaseWgetHealthCommand: a single try.
  EXPECT_EQ(ray["readinessProbe"]["exec"]["command"][2],
            "wget --tries 1 -T 2 -q -O- http://localhost:52365/api/local_raylet_healthz | grep "
            "success && wget --tries 1 -T 10 -q -O- http://localhost:8265/api/gcs_healthz | grep "
            "success");
}

TEST(PodBuilderCreator, AutoscalerVersionEnvFollowsTheVersionFieldOnly) {
  Json cluster = SampleCluster("raycluster-autoscaler");
  cluster["spec"]["enableInTreeAutoscaling"] = true;
  // No version: neither v1 nor v2 (utils.IsAutoscalingV1Enabled / V2 read the field only).
  const Json none = BuildHeadPod(cluster, OperatorConfig{}, "");
  EXPECT_EQ(FindEnv(none["spec"]["containers"][0], "RAY_enable_autoscaler_v2"), nullptr);
  cluster["spec"]["autoscalerOptions"] = {{"version", "v1"}};
  const Json v1 = BuildHeadPod(cluster, OperatorConfig{}, "");
  EXPECT_EQ((*FindEnv(v1["spec"]["containers"][0], "RAY_enable_autoscaler_v2"))["value"], "false");
  EXPECT_FALSE(v1["spec"].contains("restartPolicy"));
}

TEST(PodBuilderCreator, GcsFaultToleranceGivesWorkersTheReconnectTimeout) {
  Json cluster = SampleCluster();
  cluster["metadata"]["annotations"]["ray.io/ft-enabled"] = "true";
  const Json worker = BuildWorkerPod(cluster, cluster["spec"]["workerGroupSpecs"][0], OperatorConfig{}, 0, "", 0);
  EXPECT_EQ((*FindEnv(worker["spec"]["containers"][0], "RAY_gcs_rpc_server_reconnect_timeout_s"))["value"],
            "600");
  EXPECT_EQ(FindEnv(worker["spec"]["initContainers"][0], "RAY_gcs_rpc_server_reconnect_timeout_s"), nullptr)
      << "the init container copied the template's env before";
  const Json head = BuildHeadPod(cluster, OperatorConfig{}, "");
  EXPECT_EQ(FindEnv(head["spec"]["containers"][0], "RAY_gcs_rpc_server_reconnect_timeout_s"), nullptr);
  EXPECT_EQ(head["metadata"]["annotations"]["ray.io/ft-enabled"], "true");
}

}  // namespace
}  // namespace kuberay
