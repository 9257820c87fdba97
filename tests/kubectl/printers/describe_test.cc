#include "core/kubectl/printers/describe.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kubectl::printers {
namespace {

using api::Json;

constexpr base::SimTime kNow = 100 * base::kSecond;  // 2026-01-01T00:01:40Z

api::KindInfo Kind(const std::string& kind, const std::string& group, bool custom = false) {
  api::KindInfo k;
  k.kind = kind;
  k.group = group;
  k.version = "v1";
  k.custom = custom;
  return k;
}

Json Doc(const std::string& json) {
  Json doc = Json::parse(json, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << json;
  return doc;
}

api::ObjectPtr Obj(const std::string& json) { return api::MakeObject(Doc(json)); }

// LineStartingWith returns the first line of text that begins with prefix, or "".
std::string LineStartingWith(const std::string& text, const std::string& prefix) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (text.compare(start, prefix.size(), prefix) == 0) return text.substr(start, end - start);
    start = end + 1;
  }
  return "";
}

const char* kHeadPod = R"({"metadata":{"name":"rc-head-x7k2p","namespace":"default","uid":"u1",
  "labels":{"ray.io/cluster":"rc","ray.io/node-type":"head"},
  "ownerReferences":[{"apiVersion":"ray.io/v1","kind":"RayCluster","name":"rc","uid":"rc1","controller":true}]},
  "spec":{"nodeName":"node-1","containers":[{"name":"ray-head","image":"rayproject/ray:2.46.0",
    "ports":[{"containerPort":8265,"name":"dashboard","protocol":"TCP"}],
    "resources":{"limits":{"cpu":"1"},"requests":{"cpu":"500m"}}}]},
  "status":{"phase":"Running","hostIP":"172.18.0.2","podIP":"10.244.0.7",
    "conditions":[{"type":"Initialized","status":"True"},{"type":"Ready","status":"True"}],
    "containerStatuses":[{"name":"ray-head","ready":true,"restartCount":2,"containerID":"containerd://abc",
      "imageID":"docker.io/rayproject/ray@sha256:1","state":{"running":{"startedAt":"2026-01-01T00:00:30Z"}},
      "lastState":{"terminated":{"exitCode":1,"reason":"Error","startedAt":"2026-01-01T00:00:03Z",
        "finishedAt":"2026-01-01T00:00:29Z"}}}]}})";

TEST(Describe, PodShowsStatusContainersConditionsAndEvents) {
  std::vector<api::ObjectPtr> events = {
      Obj(R"({"metadata":{"name":"e2"},"involvedObject":{"kind":"Pod","name":"rc-head-x7k2p","namespace":"default",
        "uid":"u1"},"type":"Warning","reason":"BackOff","message":"Back-off restarting failed container","count":3,
        "firstTimestamp":"2026-01-01T00:00:20Z","lastTimestamp":"2026-01-01T00:01:30Z","source":{"component":"kubelet"}})"),
      Obj(R"({"metadata":{"name":"e1"},"involvedObject":{"kind":"Pod","name":"rc-head-x7k2p","namespace":"default"},
        "type":"Normal","reason":"Scheduled","message":"Successfully assigned default/rc-head-x7k2p to node-1",
        "firstTimestamp":"2026-01-01T00:00:00Z","lastTimestamp":"2026-01-01T00:00:00Z","source":{"component":"default-scheduler"}})"),
      Obj(R"({"metadata":{"name":"e3"},"involvedObject":{"kind":"Pod","name":"rc-head-x7k2p","namespace":"default",
        "uid":"old"},"type":"Normal","reason":"FromAnEarlierPod","message":"x","firstTimestamp":"2026-01-01T00:00:00Z"})"),
      Obj(R"({"metadata":{"name":"e4"},"involvedObject":{"kind":"Pod","name":"other","namespace":"default"},
        "type":"Normal","reason":"Other","message":"y","firstTimestamp":"2026-01-01T00:00:00Z"})"),
  };
  EXPECT_EQ(Describe(Kind("Pod", ""), Doc(kHeadPod), events, kNow),
            "Name:         rc-head-x7k2p\n"
            "Namespace:    default\n"
            "Node:         node-1/172.18.0.2\n"
            "Labels:       ray.io/cluster=rc\n"
            "              ray.io/node-type=head\n"
            "Annotations:  <none>\n"
            "Status:       Running\n"
            "IP:           10.244.0.7\n"
            "IPs:\n"
            "  IP:           10.244.0.7\n"
            "Controlled By:  RayCluster/rc\n"
            "Containers:\n"
            "  ray-head:\n"
            "    Container ID:   containerd://abc\n"
            "    Image:          rayproject/ray:2.46.0\n"
            "    Image ID:       docker.io/rayproject/ray@sha256:1\n"
            "    Port:           8265/TCP (dashboard)\n"
            "    Host Port:      0/TCP (dashboard)\n"
            "    State:          Running\n"
            "      Started:      Thu, 01 Jan 2026 00:00:30 +0000\n"
            "    Last State:     Terminated\n"
            "      Reason:       Error\n"
            "      Exit Code:    1\n"
            "      Started:      Thu, 01 Jan 2026 00:00:03 +0000\n"
            "      Finished:     Thu, 01 Jan 2026 00:00:29 +0000\n"
            "    Ready:          True\n"
            "    Restart Count:  2\n"
            "    Limits:\n"
            "      cpu:  1\n"
            "    Requests:\n"
            "      cpu:        500m\n"
            "    Environment:  <none>\n"
            "    Mounts:       <none>\n"
            "Conditions:\n"
            // Volumes..Tolerations continue the conditions' tab block, so it is as wide as them.
            "  Type           Status\n"
            "  Initialized    True\n"
            "  Ready          True\n"
            "Volumes:         <none>\n"
            "QoS Class:       Burstable\n"
            "Node-Selectors:  <none>\n"
            "Tolerations:     <none>\n"
            "Events:\n"
            "  Type     Reason     Age                From               Message\n"
            "  ----     ------     ----               ----               -------\n"
            "  Normal   Scheduled  100s               default-scheduler  Successfully assigned "
            "default/rc-head-x7k2p to node-1\n"
            "  Warning  BackOff    10s (x3 over 80s)  kubelet            Back-off restarting "
            "failed container\n");
}

TEST(Describe, TerminatingPodShowsGracePeriodAndNoEvents) {
  Json pod = Doc(
      R"({"metadata":{"name":"p","namespace":"default","deletionTimestamp":"2026-01-01T00:02:10Z",
    "deletionGracePeriodSeconds":30},"spec":{"containers":[]},"status":{"phase":"Running"}})");
  const std::string out = Describe(Kind("Pod", ""), pod, {}, kNow);
  // The deletion timestamp is in the future during the grace period; kubectl prints <invalid>.
  EXPECT_EQ(LineStartingWith(out, "Status:"),
            "Status:                    Terminating (lasts <invalid>)");
  EXPECT_EQ(LineStartingWith(out, "Termination Grace Period:"), "Termination Grace Period:  30s");
  EXPECT_EQ(LineStartingWith(out, "Node:"), "Node:                      <none>");
  EXPECT_EQ(LineStartingWith(out, "Containers:"), "Containers: <none>");
  EXPECT_EQ(LineStartingWith(out, "QoS Class:"), "QoS Class:       BestEffort");
  EXPECT_EQ(LineStartingWith(out, "Events:"), "Events:          <none>");
}

struct QosCase {
  std::string name;
  std::string resources;
  std::string want;
};

TEST(Describe, PodQosClassFollowsRequestsAndLimits) {
  const std::vector<QosCase> cases = {
      {"nothing set", "{}", "BestEffort"},
      {"limits only (requests default to limits)", R"({"limits":{"cpu":"1","memory":"1Gi"}})",
       "Guaranteed"},
      {"equal in other units",
       R"({"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"1000m","memory":"1024Mi"}})",
       "Guaranteed"},
      {"request below limit",
       R"({"limits":{"cpu":"1","memory":"1Gi"},"requests":{"cpu":"500m","memory":"1Gi"}})",
       "Burstable"},
      {"cpu limit only", R"({"limits":{"cpu":"1"}})", "Burstable"},
  };
  for (const QosCase& c : cases) {
    Json pod = Doc(R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":)" +
                   c.resources + "}]}}");
    const std::string line =
        LineStartingWith(Describe(Kind("Pod", ""), pod, {}, kNow), "QoS Class:");
    EXPECT_EQ(line.substr(line.find_last_of(' ') + 1), c.want) << c.name;
  }
}

TEST(Describe, DeploymentShowsReplicasTemplateAndReplicaSets) {
  Json d = Doc(
      R"({"metadata":{"name":"op","namespace":"default","uid":"d1","creationTimestamp":"2026-01-01T00:00:00Z",
    "labels":{"app":"op"},"annotations":{"deployment.kubernetes.io/revision":"2"}},
    "spec":{"replicas":1,"selector":{"matchLabels":{"app":"op"}},
      "template":{"metadata":{"labels":{"app":"op"}},"spec":{"containers":[{"name":"manager","image":"op:v2",
        "ports":[{"containerPort":8080}]}]}}},
    "status":{"replicas":1,"updatedReplicas":1,"availableReplicas":1,
      "conditions":[{"type":"Available","status":"True","reason":"MinimumReplicasAvailable"}]}})");
  const std::string owner =
      R"("ownerReferences":[{"kind":"Deployment","name":"op","uid":"d1","controller":true}])";
  std::vector<api::ObjectPtr> related = {
      Obj(R"({"kind":"ReplicaSet","metadata":{"name":"op-7d4b9","namespace":"default","creationTimestamp":"2026-01-01T00:00:50Z",)" +
          owner +
          R"(},"spec":{"replicas":1,"template":{"metadata":{"labels":{"app":"op","pod-template-hash":"7d4b9"}},
          "spec":{"containers":[{"name":"manager","image":"op:v2","ports":[{"containerPort":8080}]}]}}},"status":{"replicas":1}})"),
      Obj(R"({"kind":"ReplicaSet","metadata":{"name":"op-5c8f6","namespace":"default","creationTimestamp":"2026-01-01T00:00:00Z",)" +
          owner +
          R"(},"spec":{"replicas":0,"template":{"metadata":{"labels":{"app":"op","pod-template-hash":"5c8f6"}},
          "spec":{"containers":[{"name":"manager","image":"op:v1"}]}}},"status":{"replicas":0}})"),
      Obj(R"({"kind":"ReplicaSet","metadata":{"name":"unrelated","namespace":"default"},"spec":{"replicas":1}})"),
  };
  EXPECT_EQ(
      Describe(Kind("Deployment", "apps"), d, {}, kNow, related),
      "Name:                   op\n"
      "Namespace:              default\n"
      "CreationTimestamp:      Thu, 01 Jan 2026 00:00:00 +0000\n"
      "Labels:                 app=op\n"
      "Annotations:            deployment.kubernetes.io/revision: 2\n"
      "Selector:               app=op\n"
      "Replicas:               1 desired | 1 updated | 1 total | 1 available | 0 unavailable\n"
      "StrategyType:           RollingUpdate\n"
      "MinReadySeconds:        0\n"
      "RollingUpdateStrategy:  25% max unavailable, 25% max surge\n"
      "Pod Template:\n"
      "  Labels:  app=op\n"
      "  Containers:\n"
      "   manager:\n"
      "    Image:         op:v2\n"
      "    Port:          8080/TCP\n"
      "    Host Port:     0/TCP\n"
      "    Environment:   <none>\n"
      "    Mounts:        <none>\n"
      "  Volumes:         <none>\n"
      "  Node-Selectors:  <none>\n"
      "  Tolerations:     <none>\n"
      "Conditions:\n"
      "  Type           Status  Reason\n"
      "  ----           ------  ------\n"
      "  Available      True    MinimumReplicasAvailable\n"
      "OldReplicaSets:  op-5c8f6 (0/0 replicas created)\n"
      "NewReplicaSet:   op-7d4b9 (1/1 replicas created)\n"
      "Events:          <none>\n");
}

TEST(Describe, HeadlessServiceListsPortsAndReadyEndpoints) {
  Json svc =
      Doc(R"({"metadata":{"name":"rc-head-svc","namespace":"default"},"spec":{"clusterIP":"None",
    "selector":{"ray.io/node-type":"head"},"ports":[{"name":"dashboard","port":8265,"targetPort":8265},{"port":6379}]}})");
  std::vector<api::ObjectPtr> related = {
      Obj(R"({"kind":"EndpointSlice","metadata":{"name":"s1","namespace":"default",
    "labels":{"kubernetes.io/service-name":"rc-head-svc"}},"ports":[{"name":"dashboard","port":8265},{"name":"","port":6379}],
    "endpoints":[{"addresses":["10.244.0.7"],"conditions":{"ready":true}},{"addresses":["10.244.0.9"],"conditions":{"ready":false}}]})")};
  EXPECT_EQ(Describe(Kind("Service", ""), svc, {}, kNow, related),
            "Name:                     rc-head-svc\n"
            "Namespace:                default\n"
            "Labels:                   <none>\n"
            "Annotations:              <none>\n"
            "Selector:                 ray.io/node-type=head\n"
            "Type:                     ClusterIP\n"
            "IP Family Policy:         SingleStack\n"
            "IP Families:              IPv4\n"
            "IP:                       None\n"
            "IPs:                      None\n"
            "Port:                     dashboard  8265/TCP\n"
            "TargetPort:               8265/TCP\n"
            "Endpoints:                10.244.0.7:8265\n"
            "Port:                     <unset>  6379/TCP\n"
            "TargetPort:               6379/TCP\n"
            "Endpoints:                10.244.0.7:6379\n"
            "Session Affinity:         None\n"
            "Internal Traffic Policy:  Cluster\n"
            "Events:                   <none>\n");
}

TEST(Describe, CustomResourcesUseTheGenericTree) {
  Json rc = Doc(
      R"({"apiVersion":"ray.io/v1","kind":"RayCluster","metadata":{"name":"rc","namespace":"default",
    "generation":1,"uid":"rc1","creationTimestamp":"2026-01-01T00:00:00Z","managedFields":[{"manager":"kubectl"}],
    "annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}"}},
    "spec":{"headGroupSpec":{"rayStartParams":{"dashboard-host":"0.0.0.0"}},
      "workerGroupSpecs":[{"groupName":"small","replicas":1}]},
    "status":{"state":"ready","desiredCPU":"2","head":{"podIP":"10.244.0.7"}}})");
  std::vector<api::ObjectPtr> events = {
      Obj(R"({"metadata":{"name":"rc.1"},"involvedObject":{"kind":"RayCluster",
    "name":"rc","namespace":"default"},"type":"Normal","reason":"CreatedService","message":"Created service default/rc-head-svc",
    "eventTime":"2026-01-01T00:00:01.000000Z","reportingComponent":"raycluster-controller"})")};
  EXPECT_EQ(Describe(Kind("RayCluster", "ray.io", true), rc, events, kNow),
            "Name:         rc\n"
            "Namespace:    default\n"
            "Labels:       <none>\n"
            "Annotations:  <none>\n"
            "API Version:  ray.io/v1\n"
            "Kind:         RayCluster\n"
            "Metadata:\n"
            "  Creation Timestamp:  2026-01-01T00:00:00Z\n"
            "  Generation:          1\n"
            "  UID:                 rc1\n"
            "Spec:\n"
            "  Head Group Spec:\n"
            "    Ray Start Params:\n"
            "      Dashboard - Host:  0.0.0.0\n"
            "  Worker Group Specs:\n"
            "    Group Name:  small\n"
            "    Replicas:    1\n"
            "Status:\n"
            "  Desired CPU:  2\n"
            "  Head:\n"
            "    Pod IP:  10.244.0.7\n"
            "  State:     ready\n"
            "Events:\n"
            "  Type    Reason          Age   From                   Message\n"
            "  ----    ------          ----  ----                   -------\n"
            "  Normal  CreatedService  99s   raycluster-controller  Created service "
            "default/rc-head-svc\n");
}

TEST(Describe, LongAndMultiLineAnnotationsGetTheirOwnLines) {
  Json obj = Doc(R"({"metadata":{"name":"c","annotations":{"a":"short","b":"line1\nline2\n"}}})");
  const std::string out = Describe(Kind("ConfigMap", ""), obj, {}, kNow);
  EXPECT_NE(out.find("Annotations:  a: short\n              b:\n                line1\n            "
                     "    line2\n"),
            std::string::npos)
      << out;
}

TEST(SmartLabel, SplitsCamelCaseAndKeepsAcronyms) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"apiVersion", "API Version"},
      {"uid", "UID"},
      {"desiredCPU", "Desired CPU"},
      {"podIP", "Pod IP"},
      {"podIPs", "Pod I Ps"},
      {"dashboard-host", "Dashboard - Host"},
      {"numOfHosts", "Num Of Hosts"},
      {"HTTPServer", "HTTP Server"},
      {"ray.io/node-type", "ray.io/node-type"},
      {"num-cpus2", "num-cpus2"},
  };
  for (const auto& [in, want] : cases) EXPECT_EQ(SmartLabel(in), want) << in;
}

}  // namespace
}  // namespace kubectl::printers
