#include "core/kubectl/printers/table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kubectl::printers {
namespace {

using api::Json;

constexpr base::SimTime kTableNow = 100 * base::kSecond;  // 2026-01-01T00:01:40Z

api::KindInfo TableKind(const std::string& kind, const std::string& group, bool custom = false) {
  api::KindInfo k;
  k.kind = kind;
  k.group = group;
  k.version = "v1";
  k.custom = custom;
  return k;
}

api::ObjectPtr TableObj(const std::string& json) {
  Json doc = Json::parse(json, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << json;
  return api::MakeObject(doc);
}

std::string Get(const api::KindInfo& kind, const std::vector<api::ObjectPtr>& objects,
                PrintOptions opts = {}) {
  return RenderTable(BuildTable(kind, objects, kTableNow, opts));
}

// A Pod with one container in the given state; created at the epoch (AGE 100s).
api::ObjectPtr PodWith(const std::string& container_status, const std::string& extra_status = "",
                       const std::string& metadata_extra = "") {
  return TableObj(
      R"({"metadata":{"name":"p","namespace":"default","creationTimestamp":"2026-01-01T00:00:00Z")" +
      metadata_extra + R"(},"spec":{"containers":[{"name":"c","image":"busybox"}]},
      "status":{"phase":"Running")" +
      extra_status + R"(,"containerStatuses":[)" + container_status + "]}}");
}

struct PodCase {
  std::string name;
  api::ObjectPtr pod;
  std::vector<std::string> cells;  // READY, STATUS, RESTARTS
};

TEST(BuildTable, PodReadyStatusAndRestartsFollowKubectlRules) {
  const std::vector<PodCase> cases = {
      {"running and ready",
       PodWith(R"({"name":"c","ready":true,"restartCount":0,"state":{"running":{}}})"),
       {"1/1", "Running", "0"}},
      {"restarts with the last termination time",
       PodWith(R"({"name":"c","ready":true,"restartCount":2,"state":{"running":{}},
                   "lastState":{"terminated":{"exitCode":1,"finishedAt":"2026-01-01T00:01:35Z"}}})"),
       {"1/1", "Running", "2 (5s ago)"}},
      {"restarts without a termination time",
       PodWith(R"({"name":"c","ready":true,"restartCount":3,"state":{"running":{}}})"),
       {"1/1", "Running", "3"}},
      {"crash loop",
       PodWith(R"({"name":"c","ready":false,"restartCount":4,
                   "state":{"waiting":{"reason":"CrashLoopBackOff"}},
                   "lastState":{"terminated":{"exitCode":1,"reason":"Error","finishedAt":"2026-01-01T00:00:40Z"}}})"),
       {"0/1", "CrashLoopBackOff", "4 (60s ago)"}},
      {"image pull",
       PodWith(R"({"name":"c","ready":false,"restartCount":0,
                   "state":{"waiting":{"reason":"ImagePullBackOff"}}})",
               R"(,"phase":"Pending")"),
       {"0/1", "ImagePullBackOff", "0"}},
      {"creating",
       PodWith(R"({"name":"c","ready":false,"restartCount":0,
                   "state":{"waiting":{"reason":"ContainerCreating"}}})"),
       {"0/1", "ContainerCreating", "0"}},
      {"oom killed",
       PodWith(R"({"name":"c","ready":false,"restartCount":0,
                   "state":{"terminated":{"exitCode":137,"reason":"OOMKilled"}}})"),
       {"0/1", "OOMKilled", "0"}},
      {"exit code without reason",
       PodWith(R"({"name":"c","ready":false,"restartCount":0,
                   "state":{"terminated":{"exitCode":3}}})"),
       {"0/1", "ExitCode:3", "0"}},
      {"terminating",
       PodWith(R"({"name":"c","ready":true,"restartCount":0,"state":{"running":{}}})", "",
               R"(,"deletionTimestamp":"2026-01-01T00:02:10Z")"),
       {"1/1", "Terminating", "0"}},
      {"status reason wins over phase",
       PodWith(R"({"name":"c","ready":false,"restartCount":0,"state":{"running":{}}})",
               R"(,"reason":"Evicted")"),
       {"0/1", "Evicted", "0"}},
      {"running but not ready",
       PodWith(R"({"name":"c","ready":false,"restartCount":0,"state":{"running":{}}})"),
       {"0/1", "Running", "0"}},
  };
  for (const PodCase& c : cases) {
    Table t = BuildTable(TableKind("Pod", ""), {c.pod}, kTableNow, {});
    ASSERT_EQ(t.rows.size(), 1u) << c.name;
    EXPECT_EQ(t.headers, (std::vector<std::string>{"NAME", "READY", "STATUS", "RESTARTS", "AGE"}))
        << c.name;
    EXPECT_EQ(t.rows[0],
              (std::vector<std::string>{"p", c.cells[0], c.cells[1], c.cells[2], "100s"}))
        << c.name;
  }
}

TEST(BuildTable, PodInitContainersShowInitProgress) {
  api::ObjectPtr pod = TableObj(R"({"metadata":{"name":"p","creationTimestamp":"2026-01-01T00:00:00Z"},
    "spec":{"initContainers":[{"name":"init"}],"containers":[{"name":"c"}]},
    "status":{"phase":"Pending","initContainerStatuses":[{"name":"init","restartCount":0,
      "state":{"running":{}}}],"containerStatuses":[{"name":"c","state":{"waiting":{"reason":"PodInitializing"}}}]}})");
  EXPECT_EQ(BuildTable(TableKind("Pod", ""), {pod}, kTableNow, {}).rows[0][2], "Init:0/1");
}

TEST(RenderTable, PodWideAddsIpNodeNominatedNodeAndReadinessGates) {
  api::ObjectPtr pod = TableObj(
      R"({"metadata":{"name":"raycluster-head-x7k2p","creationTimestamp":"2026-01-01T00:00:00Z"},
    "spec":{"nodeName":"node-1","containers":[{"name":"ray-head"}]},
    "status":{"phase":"Running","podIP":"10.244.0.7",
      "containerStatuses":[{"name":"ray-head","ready":true,"restartCount":0,"state":{"running":{}}}]}})");
  EXPECT_EQ(Get(TableKind("Pod", ""), {pod}, PrintOptions{true, false, false}),
            "NAME                    READY   STATUS    RESTARTS   AGE    IP           NODE     "
            "NOMINATED NODE   READINESS GATES\n"
            "raycluster-head-x7k2p   1/1     Running   0          100s   10.244.0.7   node-1   "
            "<none>           <none>\n");
}

TEST(RenderTable, ServicesShowTypeClusterIpAndPorts) {
  api::ObjectPtr headless =
      TableObj(R"({"metadata":{"name":"raycluster-head-svc","creationTimestamp":"2026-01-01T00:00:00Z"},
    "spec":{"clusterIP":"None","clusterIPs":["None"],"selector":{"ray.io/node-type":"head"},
      "ports":[{"name":"dashboard","port":8265,"protocol":"TCP"},{"name":"gcs","port":6379}]}})");
  api::ObjectPtr lb = TableObj(R"({"metadata":{"name":"web","creationTimestamp":"2026-01-01T00:00:30Z"},
    "spec":{"type":"LoadBalancer","clusterIPs":["10.96.0.20"],"ports":[{"port":80,"nodePort":30080}]}})");
  EXPECT_EQ(
      Get(TableKind("Service", ""), {headless, lb}),
      "NAME                  TYPE           CLUSTER-IP   EXTERNAL-IP   PORT(S)             AGE\n"
      "raycluster-head-svc   ClusterIP      None         <none>        8265/TCP,6379/TCP   100s\n"
      "web                   LoadBalancer   10.96.0.20   <pending>     80:30080/TCP        70s\n");
  EXPECT_EQ(BuildTable(TableKind("Service", ""), {headless}, kTableNow, PrintOptions{true, false, false})
                .rows[0]
                .back(),
            "ray.io/node-type=head");
}

TEST(RenderTable, DeploymentAndReplicaSetShowReplicaCounts) {
  api::ObjectPtr d =
      TableObj(R"({"metadata":{"name":"kuberay-operator","creationTimestamp":"2026-01-01T00:00:00Z"},
    "spec":{"replicas":2,"selector":{"matchLabels":{"app":"op"}},
      "template":{"spec":{"containers":[{"name":"op","image":"kuberay/operator:v1.7.0"}]}}},
    "status":{"readyReplicas":1,"updatedReplicas":2,"availableReplicas":1}})");
  EXPECT_EQ(Get(TableKind("Deployment", "apps"), {d}, PrintOptions{true, false, false}),
            "NAME               READY   UP-TO-DATE   AVAILABLE   AGE    CONTAINERS   IMAGES        "
            "            SELECTOR\n"
            "kuberay-operator   1/2     2            1           100s   op           "
            "kuberay/operator:v1.7.0   app=op\n");
  api::ObjectPtr rs = TableObj(
      R"({"metadata":{"name":"kuberay-operator-5d9f","creationTimestamp":"2026-01-01T00:00:00Z"},
    "spec":{"replicas":2},"status":{"replicas":2,"readyReplicas":1}})");
  EXPECT_EQ(BuildTable(TableKind("ReplicaSet", "apps"), {rs}, kTableNow, {}).rows[0],
            (std::vector<std::string>{"kuberay-operator-5d9f", "2", "2", "1", "100s"}));
}

TEST(BuildTable, JobShowsStatusCompletionsAndDuration) {
  api::ObjectPtr done = TableObj(R"({"metadata":{"name":"j","creationTimestamp":"2026-01-01T00:00:00Z"},
    "spec":{"completions":1},"status":{"succeeded":1,"startTime":"2026-01-01T00:00:01Z",
      "completionTime":"2026-01-01T00:00:31Z","conditions":[{"type":"Complete","status":"True"}]}})");
  api::ObjectPtr running =
      TableObj(R"({"metadata":{"name":"r","creationTimestamp":"2026-01-01T00:00:00Z"},
    "spec":{"parallelism":3},"status":{"startTime":"2026-01-01T00:00:40Z"}})");
  Table t = BuildTable(TableKind("Job", "batch"), {done, running}, kTableNow, {});
  EXPECT_EQ(t.headers,
            (std::vector<std::string>{"NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"}));
  EXPECT_EQ(t.rows[0], (std::vector<std::string>{"j", "Complete", "1/1", "30s", "100s"}));
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"r", "Running", "0/1 of 3", "60s", "100s"}));
}

struct SimpleCase {
  std::string kind;
  std::string group;
  std::string json;
  std::vector<std::string> headers;
  std::vector<std::string> row;
};

TEST(BuildTable, SimpleBuiltinKindsPrintTheirKubectlColumns) {
  const std::string meta = R"("metadata":{"name":"x","creationTimestamp":"2026-01-01T00:00:00Z")";
  const std::vector<SimpleCase> cases = {
      {"Namespace", "", "{" + meta + "}}", {"NAME", "STATUS", "AGE"}, {"x", "Active", "100s"}},
      {"ConfigMap",
       "",
       "{" + meta + R"(},"data":{"a":"1","b":"2"}})",
       {"NAME", "DATA", "AGE"},
       {"x", "2", "100s"}},
      {"Secret",
       "",
       "{" + meta + R"(},"data":{"a":"MQ=="}})",
       {"NAME", "TYPE", "DATA", "AGE"},
       {"x", "Opaque", "1", "100s"}},
      {"ServiceAccount", "", "{" + meta + "}}", {"NAME", "SECRETS", "AGE"}, {"x", "0", "100s"}},
      {"Lease",
       "coordination.k8s.io",
       "{" + meta + R"(},"spec":{"holderIdentity":"op-1"}})",
       {"NAME", "HOLDER", "AGE"},
       {"x", "op-1", "100s"}},
      {"Role",
       "rbac.authorization.k8s.io",
       "{" + meta + "}}",
       {"NAME", "CREATED AT"},
       {"x", "2026-01-01T00:00:00Z"}},
      {"RoleBinding",
       "rbac.authorization.k8s.io",
       "{" + meta + R"(},"roleRef":{"kind":"Role","name":"r"}})",
       {"NAME", "ROLE", "AGE"},
       {"x", "Role/r", "100s"}},
      {"Endpoints",
       "",
       "{" + meta + R"(},"subsets":[{"addresses":[{"ip":"10.0.0.1"},{"ip":"10.0.0.2"}],
         "ports":[{"port":8265}]}]})",
       {"NAME", "ENDPOINTS", "AGE"},
       {"x", "10.0.0.1:8265,10.0.0.2:8265", "100s"}},
      {"PersistentVolumeClaim",
       "",
       "{" + meta + R"(},"spec":{"volumeName":"pv1","storageClassName":"standard"},
         "status":{"phase":"Bound","capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"]}})",
       {"NAME", "STATUS", "VOLUME", "CAPACITY", "ACCESS MODES", "STORAGECLASS",
        "VOLUMEATTRIBUTESCLASS", "AGE"},
       {"x", "Bound", "pv1", "1Gi", "RWO", "standard", "<unset>", "100s"}},
      {"Node",
       "",
       "{" + meta + R"(,"labels":{"node-role.kubernetes.io/control-plane":""}},
         "status":{"conditions":[{"type":"Ready","status":"True"}],"nodeInfo":{"kubeletVersion":"v1.34.0"}}})",
       {"NAME", "STATUS", "ROLES", "AGE", "VERSION"},
       {"x", "Ready", "control-plane", "100s", "v1.34.0"}},
      {"NetworkPolicy",
       "networking.k8s.io",
       "{" + meta + R"(},"spec":{"podSelector":{}}})",
       {"NAME", "POD-SELECTOR", "AGE"},
       {"x", "<none>", "100s"}},
      {"CronJob",
       "batch",
       "{" + meta + R"(},"spec":{"schedule":"*/5 * * * *"}})",
       {"NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST SCHEDULE", "AGE"},
       {"x", "*/5 * * * *", "<none>", "False", "0", "<none>", "100s"}},
      {"Ingress",
       "networking.k8s.io",
       "{" + meta + R"(},"spec":{"ingressClassName":"nginx","rules":[{"host":"ray.example.com"}],
         "tls":[{}]},"status":{"loadBalancer":{"ingress":[{"ip":"203.0.113.10"}]}}})",
       {"NAME", "CLASS", "HOSTS", "ADDRESS", "PORTS", "AGE"},
       {"x", "nginx", "ray.example.com", "203.0.113.10", "80, 443", "100s"}},
      {"EndpointSlice",
       "discovery.k8s.io",
       "{" + meta + R"(},"addressType":"IPv4","ports":[{"port":8265},{"name":"gcs"}],
         "endpoints":[{"addresses":["10.0.0.1"]},{"addresses":["10.0.0.2"]}]})",
       {"NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"},
       {"x", "IPv4", "8265,gcs", "10.0.0.1,10.0.0.2", "100s"}},
      {"Secret",
       "",
       "{" + meta +
           R"(},"type":"kubernetes.io/tls","data":{"a":"MQ=="},"stringData":{"a":"1","b":"2"}})",
       {"NAME", "TYPE", "DATA", "AGE"},
       {"x", "kubernetes.io/tls", "2", "100s"}},
  };
  for (const SimpleCase& c : cases) {
    Table t = BuildTable(TableKind(c.kind, c.group), {TableObj(c.json)}, kTableNow, {});
    EXPECT_EQ(t.headers, c.headers) << c.kind;
    ASSERT_EQ(t.rows.size(), 1u) << c.kind;
    EXPECT_EQ(t.rows[0], c.row) << c.kind;
  }
}

TEST(RenderTable, EventsShowLastSeenTypeReasonObjectMessage) {
  api::ObjectPtr ev =
      TableObj(R"({"metadata":{"name":"p.1","namespace":"default"},"type":"Warning","reason":"BackOff",
    "involvedObject":{"kind":"Pod","name":"p"},"message":"Back-off restarting failed container\n","count":3,
    "firstTimestamp":"2026-01-01T00:00:20Z","lastTimestamp":"2026-01-01T00:01:30Z"})");
  EXPECT_EQ(Get(TableKind("Event", ""), {ev}),
            "LAST SEEN   TYPE      REASON    OBJECT   MESSAGE\n"
            "10s         Warning   BackOff   pod/p    Back-off restarting failed container\n");
}

TEST(RenderTable, RayClusterUsesKubeRayPrinterColumns) {
  api::ObjectPtr rc =
      TableObj(R"({"metadata":{"name":"raycluster-kuberay","creationTimestamp":"2026-01-01T00:00:00Z"},
    "status":{"desiredWorkerReplicas":1,"availableWorkerReplicas":1,"desiredCPU":"2","desiredMemory":"3G",
      "desiredGPU":"0","desiredTPU":"0","state":"ready","head":{"podIP":"10.244.0.6","serviceIP":"10.96.0.9"}}})");
  api::ObjectPtr fresh =
      TableObj(R"({"metadata":{"name":"new","creationTimestamp":"2026-01-01T00:01:39Z"}})");
  const api::KindInfo kind = TableKind("RayCluster", "ray.io", true);
  EXPECT_EQ(Get(kind, {rc, fresh}),
            "NAME                 DESIRED WORKERS   AVAILABLE WORKERS   CPUS   MEMORY   GPUS   "
            "STATUS   AGE\n"
            "raycluster-kuberay   1                 1                   2      3G       0      "
            "ready    100s\n"
            "new                                                                                   "
            "     1s\n");
  EXPECT_EQ(BuildTable(kind, {rc}, kTableNow, PrintOptions{true, false, false}).headers,
            (std::vector<std::string>{"NAME", "DESIRED WORKERS", "AVAILABLE WORKERS", "CPUS",
                                      "MEMORY", "GPUS", "TPUS", "STATUS", "AGE", "HEAD POD IP",
                                      "HEAD SERVICE IP"}));
}

TEST(BuildTable, RayJobRayServiceAndInferenceServiceUseTheirCrdColumns) {
  api::ObjectPtr job =
      TableObj(R"({"metadata":{"name":"rayjob-sample","creationTimestamp":"2026-01-01T00:00:00Z"},
    "status":{"jobStatus":"RUNNING","jobDeploymentStatus":"Running","rayClusterName":"rayjob-sample-abcde",
      "startTime":"2026-01-01T00:00:10Z"}})");
  Table t = BuildTable(TableKind("RayJob", "ray.io", true), {job}, kTableNow, {});
  EXPECT_EQ(t.headers,
            (std::vector<std::string>{"NAME", "JOB STATUS", "DEPLOYMENT STATUS", "RAY CLUSTER NAME",
                                      "START TIME", "END TIME", "AGE"}));
  EXPECT_EQ(t.rows[0],
            (std::vector<std::string>{"rayjob-sample", "RUNNING", "Running", "rayjob-sample-abcde",
                                      "2026-01-01T00:00:10Z", "", "100s"}));

  api::ObjectPtr svc =
      TableObj(R"({"metadata":{"name":"rayservice-sample"},"status":{"serviceStatus":"Running",
    "numServeEndpoints":2}})");
  t = BuildTable(TableKind("RayService", "ray.io", true), {svc}, kTableNow, {});
  EXPECT_EQ(t.headers, (std::vector<std::string>{"NAME", "SERVICE STATUS", "NUM SERVE ENDPOINTS"}));
  EXPECT_EQ(t.rows[0], (std::vector<std::string>{"rayservice-sample", "Running", "2"}));

  api::ObjectPtr isvc =
      TableObj(R"({"metadata":{"name":"llama","creationTimestamp":"2026-01-01T00:00:00Z"},
    "spec":{"replicas":4,"image":"vllm:0.7.0"},"status":{"readyReplicas":2}})");
  t = BuildTable(TableKind("InferenceService", "serving.reconcile-lab.io", true), {isvc}, kTableNow, {});
  EXPECT_EQ(t.headers, (std::vector<std::string>{"NAME", "READY", "REPLICAS", "IMAGE", "AGE"}));
  EXPECT_EQ(t.rows[0], (std::vector<std::string>{"llama", "2", "4", "vllm:0.7.0", "100s"}));
}

TEST(BuildTable, UnknownCustomResourceGetsNameAndAge) {
  Table t =
      BuildTable(TableKind("Widget", "example.com", true),
                 {TableObj(R"({"metadata":{"name":"w","creationTimestamp":"2026-01-01T00:00:00Z"}})"),
                  TableObj(R"({"metadata":{"name":"v"}})")},
                 kTableNow, {});
  EXPECT_EQ(t.headers, (std::vector<std::string>{"NAME", "AGE"}));
  EXPECT_EQ(t.rows[0], (std::vector<std::string>{"w", "100s"}));
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"v", ""}));
}

TEST(RenderTable, AllNamespacesAddsNamespaceColumnAndKindPrefixesTheName) {
  api::ObjectPtr a = TableObj(
      R"({"metadata":{"name":"raycluster-a","namespace":"team-a","creationTimestamp":"2026-01-01T00:00:00Z"}})");
  EXPECT_EQ(Get(TableKind("RayCluster", "ray.io", true), {a}, PrintOptions{false, true, true}),
            "NAMESPACE   NAME                             DESIRED WORKERS   AVAILABLE WORKERS   "
            "CPUS   MEMORY   GPUS   STATUS   AGE\n"
            "team-a      raycluster.ray.io/raycluster-a                                            "
            "                             100s\n");
  Table t = BuildTable(TableKind("Deployment", "apps"), {a}, kTableNow, PrintOptions{false, false, true});
  EXPECT_EQ(t.rows[0][0], "deployment.apps/raycluster-a");
}

TEST(RenderTable, CellsAreCutAtLineBreaksAndEmptyTablesPrintNothing) {
  Table t{{"NAME", "MESSAGE"}, {{"a", "first line\nsecond"}}};
  EXPECT_EQ(RenderTable(t), "NAME   MESSAGE\na      first line...\n");
  EXPECT_EQ(RenderTable(Table{{"NAME"}, {}}), "");
}

TEST(RenderNames, PrintsGroupQualifiedKindSlashName) {
  std::vector<api::ObjectPtr> objs = {TableObj(R"({"metadata":{"name":"x"}})")};
  EXPECT_EQ(RenderNames(TableKind("Pod", ""), objs), "pod/x\n");
  EXPECT_EQ(RenderNames(TableKind("RayCluster", "ray.io", true), objs), "raycluster.ray.io/x\n");
}

TEST(NoResourcesMessage, NamesTheNamespaceOnlyForNamespacedQueries) {
  EXPECT_EQ(NoResourcesMessage(false, "default", false),
            "No resources found in default namespace.");
  EXPECT_EQ(NoResourcesMessage(true, "default", false), "No resources found");
  EXPECT_EQ(NoResourcesMessage(false, "default", true), "No resources found");
}

}  // namespace
}  // namespace kubectl::printers
