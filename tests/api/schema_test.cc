#include "core/api/schema.h"

#include <gtest/gtest.h>

#include "core/api/manifest.h"
#include "tests/testing/kuberay_samples.h"

namespace api {
namespace {

using base::StatusCode;

const KindInfo& K(const char* name) {
  const KindInfo* info = FindKind(name);
  RLAB_ASSERT(info != nullptr, "unknown kind in test");
  return *info;
}

Json Parse(const std::string& json) {
  Json j = Json::parse(json, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << json;
  return j;
}

const std::string kSubdomainRule =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const std::string kLabelRule =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const std::string kQualifiedRule =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
    "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

TEST(ValidateObjectMeta, ChecksNamesLabelsAndAnnotations) {
  struct Case {
    const char* kind;
    std::string metadata;
    std::string message;  // "" = valid
  } cases[] = {
      {"RayCluster", R"({"name":"raycluster-kuberay"})", ""},
      {"RayCluster", R"({"name":"Bad_Name"})",
       "RayCluster.ray.io \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": " +
           kSubdomainRule},
      {"Pod", R"({"name":"web.v1-0"})", ""},
      {"Pod", R"({"name":"web."})",
       "Pod \"web.\" is invalid: metadata.name: Invalid value: \"web.\": " + kSubdomainRule},
      {"Pod", "{\"name\":\"" + std::string(254, 'a') + "\"}",
       "Pod \"" + std::string(254, 'a') + "\" is invalid: metadata.name: Invalid value: \"" +
           std::string(254, 'a') + "\": must be no more than 253 characters"},
      {"Namespace", R"({"name":"team-a"})", ""},
      {"Namespace", R"({"name":"a.b"})",
       "Namespace \"a.b\" is invalid: metadata.name: Invalid value: \"a.b\": " + kLabelRule},
      {"Service", R"({"name":"web-svc"})", ""},
      {"Service", R"({"name":"1abc"})",
       "Service \"1abc\" is invalid: metadata.name: Invalid value: \"1abc\": a DNS-1035 label must "
       "consist of lower case alphanumeric characters or '-', start with an alphabetic character, "
       "and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
       "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"},
      {"ClusterRole", R"({"name":"system:controller:Job_Runner"})", ""},
      {"ClusterRole", R"({"name":"a/b%c"})",
       "ClusterRole.rbac.authorization.k8s.io \"a/b%c\" is invalid: [metadata.name: Invalid value: "
       "\"a/b%c\": may not contain '/', metadata.name: Invalid value: \"a/b%c\": may not contain "
       "'%']"},
      {"Role", R"({"name":".."})",
       "Role.rbac.authorization.k8s.io \"..\" is invalid: metadata.name: Invalid value: \"..\": "
       "may "
       "not be '..'"},
      {"ConfigMap", R"({})",
       "ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is "
       "required"},
      {"ConfigMap", R"({"generateName":"cfg-"})", ""},
      {"ConfigMap", R"({"generateName":"Cfg-"})",
       "ConfigMap \"\" is invalid: metadata.generateName: Invalid value: \"Cfg-\": " +
           kSubdomainRule},
      {"ConfigMap", R"({"name":5})",
       "ConfigMap \"\" is invalid: metadata.name: Invalid value: \"integer\": metadata.name in "
       "body "
       "must be of type string: \"integer\""},
      {"Pod", R"({"name":"p","labels":{"app":"web","example.com/tier":"a_b.c-d","empty":""}})", ""},
      {"Pod", R"({"name":"p","labels":{"bad key!":"v"}})",
       "Pod \"p\" is invalid: metadata.labels: Invalid value: \"bad key!\": name part " +
           kQualifiedRule},
      {"Pod", R"({"name":"p","labels":{"Example.com/app":"v"}})",
       "Pod \"p\" is invalid: metadata.labels: Invalid value: \"Example.com/app\": prefix part " +
           kSubdomainRule},
      {"Pod", R"({"name":"p","labels":{"/app":"v"}})",
       "Pod \"p\" is invalid: metadata.labels: Invalid value: \"/app\": prefix part must be "
       "non-empty"},
      {"Pod", R"({"name":"p","labels":{"a/b/c":"v"}})",
       "Pod \"p\" is invalid: metadata.labels: Invalid value: \"a/b/c\": a qualified name " +
           kQualifiedRule +
           " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"},
      {"Pod", R"({"name":"p","labels":{"app":"bad value"}})",
       "Pod \"p\" is invalid: metadata.labels: Invalid value: \"bad value\": a valid label must be "
       "an "
       "empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and "
       "end "
       "with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used "
       "for "
       "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
      {"Pod", "{\"name\":\"p\",\"labels\":{\"app\":\"" + std::string(64, 'v') + "\"}}",
       "Pod \"p\" is invalid: metadata.labels: Invalid value: \"" + std::string(64, 'v') +
           "\": must be no more than 63 characters"},
      {"Pod", R"({"name":"p","labels":{"app":1}})",
       "Pod \"p\" is invalid: metadata.labels.app: Invalid value: \"integer\": metadata.labels.app "
       "in "
       "body must be of type string: \"integer\""},
      {"Pod", R"({"name":"p","annotations":{"Kubectl.Kubernetes.io/Restarted":"x","a":"b"}})", ""},
      {"Pod", R"({"name":"p","annotations":{"bad key":"x"}})",
       "Pod \"p\" is invalid: metadata.annotations: Invalid value: \"bad key\": name part " +
           kQualifiedRule},
      {"Pod", "{\"name\":\"p\",\"annotations\":{\"big\":\"" + std::string(256 * 1024, 'x') + "\"}}",
       "Pod \"p\" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes"},
      {"Deployment", R"({"name":"Web","labels":{"app":"-x"}})",
       "Deployment.apps \"Web\" is invalid: [metadata.name: Invalid value: \"Web\": " +
           kSubdomainRule +
           ", metadata.labels: Invalid value: \"-x\": a valid label must be an empty string or "
           "consist "
           "of alphanumeric characters, '-', '_' or '.', and must start and end with an "
           "alphanumeric "
           "character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
           "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]"},
  };
  for (const Case& c : cases) {
    const Json obj = {{"metadata", Parse(c.metadata)}};
    const base::Status s = ValidateObjectMeta(K(c.kind), obj);
    if (c.message.empty()) {
      EXPECT_TRUE(s.ok()) << c.kind << " " << c.metadata.substr(0, 80) << ": " << s.message();
    } else {
      EXPECT_EQ(s.code(), StatusCode::kInvalid) << c.metadata.substr(0, 80);
      EXPECT_EQ(s.message(), c.message) << c.metadata.substr(0, 80);
    }
  }
}

// A label key found valid is remembered with its interned text; an invalid one is reported on
// every validation, also while the documents holding it keep its text alive.
TEST(ValidateObjectMeta, RemembersOnlyValidLabelKeys) {
  const Json bad = {{"metadata", {{"name", "p"}, {"labels", {{"bad key!", "v"}}}}}};
  const Json good = {{"metadata", {{"name", "p"}, {"labels", {{"app", "v"}}}}}};
  for (int round = 0; round < 2; ++round) {
    const base::Status s = ValidateObjectMeta(K("Pod"), bad);
    EXPECT_EQ(s.code(), StatusCode::kInvalid) << "round " << round;
    EXPECT_NE(s.message().find("\"bad key!\": name part"), std::string::npos) << s.message();
    EXPECT_TRUE(ValidateObjectMeta(K("Pod"), good).ok()) << "round " << round;
  }
}

TEST(ApplyDefaults, FillsPodSpecLikeTheApiServer) {
  Json pod = Parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{
      "containers":[{"name":"c","image":"nginx","ports":[{"containerPort":80}]},
                    {"name":"d","image":"busybox:1.36","imagePullPolicy":"Never"}],
      "volumes":[{"name":"v","configMap":{"name":"cm"}}]}})");
  ApplyDefaults(K("Pod"), pod);
  EXPECT_EQ(pod["spec"], Parse(R"({
      "containers":[{"name":"c","image":"nginx","imagePullPolicy":"Always",
                     "ports":[{"containerPort":80,"protocol":"TCP"}],"resources":{},
                     "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"},
                    {"name":"d","image":"busybox:1.36","imagePullPolicy":"Never","resources":{},
                     "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
      "volumes":[{"name":"v","configMap":{"name":"cm","defaultMode":420}}],
      "restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",
      "schedulerName":"default-scheduler","securityContext":{},"enableServiceLinks":true,
      "priority":0,"preemptionPolicy":"PreemptLowerPriority"})"));
}

TEST(ApplyDefaults, PicksImagePullPolicyFromTheTag) {
  struct Case {
    const char* image;
    const char* policy;
  } cases[] = {
      {"nginx", "Always"},
      {"nginx:latest", "Always"},
      {"nginx:1.25", "IfNotPresent"},
      {"localhost:5000/nginx", "Always"},
      {"localhost:5000/nginx:1", "IfNotPresent"},
      {"rayproject/ray:2.52.0", "IfNotPresent"},
      {"nginx@sha256:0123abcd", "IfNotPresent"},
  };
  for (const Case& c : cases) {
    Json pod = {{"spec", {{"containers", {{{"name", "c"}, {"image", c.image}}}}}}};
    ApplyDefaults(K("Pod"), pod);
    EXPECT_EQ(pod["spec"]["containers"][0]["imagePullPolicy"], c.policy) << c.image;
  }
}

TEST(ApplyDefaults, FillsBuiltinWorkloadsAndServices) {
  struct Case {
    const char* kind;
    std::string spec;
    std::string expected_subset;  // every key here must equal the defaulted spec's
  } cases[] = {
      {"Service", R"({"ports":[{"port":80},{"port":443,"targetPort":8443,"protocol":"UDP"}]})",
       R"({"type":"ClusterIP","sessionAffinity":"None","internalTrafficPolicy":"Cluster",
           "ports":[{"port":80,"protocol":"TCP","targetPort":80},
                    {"port":443,"targetPort":8443,"protocol":"UDP"}]})"},
      {"Service", R"({"type":"NodePort"})",
       R"({"type":"NodePort","externalTrafficPolicy":"Cluster","internalTrafficPolicy":"Cluster"})"},
      {"Deployment", R"({"template":{"spec":{"containers":[{"name":"c","image":"x:1"}]}}})",
       R"({"replicas":1,"revisionHistoryLimit":10,"progressDeadlineSeconds":600,
           "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}}})"},
      {"Deployment", R"({"replicas":0,"strategy":{"type":"Recreate"}})",
       R"({"replicas":0,"strategy":{"type":"Recreate"}})"},
      {"Deployment", R"({"strategy":{"rollingUpdate":{"maxSurge":1}}})",
       R"({"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1,"maxUnavailable":"25%"}}})"},
      {"ReplicaSet", R"({})", R"({"replicas":1})"},
      {"Job", R"({})",
       R"({"completions":1,"parallelism":1,"backoffLimit":6,"completionMode":"NonIndexed",
           "suspend":false,"podReplacementPolicy":"TerminatingOrFailed"})"},
      {"Job", R"({"parallelism":3})", R"({"parallelism":3,"backoffLimit":6})"},
      {"CronJob", R"({"schedule":"* * * * *"})",
       R"({"concurrencyPolicy":"Allow","suspend":false,"successfulJobsHistoryLimit":3,
           "failedJobsHistoryLimit":1})"},
  };
  for (const Case& c : cases) {
    Json obj = {{"spec", Parse(c.spec)}};
    ApplyDefaults(K(c.kind), obj);
    const Json expected = Parse(c.expected_subset);
    for (auto it = expected.begin(); it != expected.end(); ++it) {
      EXPECT_EQ(obj["spec"][it.key()], it.value()) << c.kind << " " << c.spec << " ." << it.key();
    }
  }
  Json job = {{"spec", {{"parallelism", 3}}}};
  ApplyDefaults(K("Job"), job);
  EXPECT_FALSE(job["spec"].contains("completions"));  // only defaulted when both are unset
}

TEST(ApplyDefaults, FillsPodTemplatesButNotPodOnlyFields) {
  Json deploy =
      Parse(R"({"spec":{"template":{"spec":{"containers":[{"name":"c","image":"x"}]}}}})");
  ApplyDefaults(K("Deployment"), deploy);
  const Json& pod_spec = deploy["spec"]["template"]["spec"];
  EXPECT_EQ(pod_spec["restartPolicy"], "Always");
  EXPECT_EQ(pod_spec["containers"][0]["imagePullPolicy"], "Always");
  EXPECT_FALSE(pod_spec.contains("enableServiceLinks"));
  EXPECT_FALSE(pod_spec.contains("priority"));
  Json cron = Parse(
      R"({"spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"x"}]}}}}}})");
  ApplyDefaults(K("CronJob"), cron);
  EXPECT_EQ(cron["spec"]["jobTemplate"]["spec"]["template"]["spec"]["dnsPolicy"], "ClusterFirst");
}

const char kRayClusterSpec[] = R"({
    "headGroupSpec":{"rayStartParams":{},"template":{"spec":{"containers":[
        {"name":"ray-head","image":"rayproject/ray:2.52.0","ports":[{"containerPort":6379,"name":"gcs"}]}]}},
        "headService":{"spec":{"ports":[{"port":8265}]}}},
    "workerGroupSpecs":[
        {"groupName":"small","template":{"spec":{"containers":[{"name":"w","image":"rayproject/ray:2.52.0"}]}}},
        {"groupName":"big","replicas":3,"minReplicas":1,"maxReplicas":5,"numOfHosts":2,"priority":7,
         "template":{}}]})";

void ExpectRayClusterDefaults(const Json& spec) {
  const Json& small = spec["workerGroupSpecs"][0];
  EXPECT_EQ(small["replicas"], 0);
  EXPECT_EQ(small["minReplicas"], 0);
  EXPECT_EQ(small["maxReplicas"], 2147483647);
  EXPECT_EQ(small["numOfHosts"], 1);
  EXPECT_EQ(small["priority"], 0);
  const Json& big = spec["workerGroupSpecs"][1];
  EXPECT_EQ(big["replicas"], 3);
  EXPECT_EQ(big["minReplicas"], 1);
  EXPECT_EQ(big["maxReplicas"], 5);
  EXPECT_EQ(big["numOfHosts"], 2);
  EXPECT_EQ(big["priority"], 7);
  const Json& head = spec["headGroupSpec"];
  EXPECT_EQ(head["template"]["spec"]["containers"][0]["ports"][0]["protocol"], "TCP");
  EXPECT_EQ(head["headService"]["spec"]["ports"][0]["protocol"], "TCP");
  // CRD pod templates only get what the CRD schema defaults.
  EXPECT_FALSE(head["template"]["spec"].contains("restartPolicy"));
  EXPECT_FALSE(head["template"]["spec"]["containers"][0].contains("imagePullPolicy"));
}

TEST(ApplyDefaults, FillsKubeRayCrdDefaults) {
  Json cluster = {{"spec", Parse(kRayClusterSpec)}};
  ApplyDefaults(K("RayCluster"), cluster);
  ExpectRayClusterDefaults(cluster["spec"]);
  EXPECT_FALSE(cluster["spec"].contains("networkPolicy"));

  Json job = {
      {"spec",
       {{"entrypoint", "python x.py"},
        {"rayClusterSpec", Parse(kRayClusterSpec)},
        {"deletionStrategy",
         {{"deletionRules",
           {{{"policy", "DeleteCluster"}, {"condition", {{"jobStatus", "SUCCEEDED"}}}}}}}}}},
      {"status", Json::object()}};
  ApplyDefaults(K("RayJob"), job);
  EXPECT_EQ(job["spec"]["submissionMode"], "K8sJobMode");
  EXPECT_EQ(job["spec"]["backoffLimit"], 0);
  EXPECT_EQ(job["spec"]["ttlSecondsAfterFinished"], 0);
  EXPECT_FALSE(job["spec"].contains("shutdownAfterJobFinishes"));  // no CRD default
  EXPECT_EQ(job["spec"]["deletionStrategy"]["deletionRules"][0]["condition"]["ttlSeconds"], 0);
  EXPECT_EQ(job["status"]["succeeded"], 0);
  EXPECT_EQ(job["status"]["failed"], 0);
  ExpectRayClusterDefaults(job["spec"]["rayClusterSpec"]);

  Json service = {
      {"spec",
       {{"serveConfigV2", "applications: []\n"},
        {"rayClusterConfig", Parse(kRayClusterSpec)},
        {"upgradeStrategy",
         {{"type", "NewClusterWithIncrementalUpgrade"}, {"clusterUpgradeOptions", Json::object()}}},
        {"serveService", {{"spec", {{"ports", {{{"port", 8000}}}}}}}}}}};
  ApplyDefaults(K("RayService"), service);
  ExpectRayClusterDefaults(service["spec"]["rayClusterConfig"]);
  EXPECT_EQ(service["spec"]["upgradeStrategy"]["clusterUpgradeOptions"]["maxSurgePercent"], 100);
  EXPECT_EQ(service["spec"]["serveService"]["spec"]["ports"][0]["protocol"], "TCP");

  Json cron = {{"spec",
                {{"schedule", "*/5 * * * *"},
                 {"jobTemplate", {{"rayClusterSpec", Parse(kRayClusterSpec)}}}}}};
  ApplyDefaults(K("RayCronJob"), cron);
  EXPECT_EQ(cron["spec"]["jobTemplate"]["submissionMode"], "K8sJobMode");
  ExpectRayClusterDefaults(cron["spec"]["jobTemplate"]["rayClusterSpec"]);

  Json policy = {{"spec", {{"networkPolicy", Json::object()}}}};
  ApplyDefaults(K("RayCluster"), policy);
  EXPECT_EQ(policy["spec"]["networkPolicy"]["mode"], "DenyAll");
}

TEST(ApplyDefaults, InferenceServiceGetsOneReplica) {
  Json isvc = {{"spec", {{"image", "model:1"}}}};
  ApplyDefaults(K("InferenceService"), isvc);
  EXPECT_EQ(isvc["spec"]["replicas"], 1);
  Json three = {{"spec", {{"image", "model:1"}, {"replicas", 3}}}};
  ApplyDefaults(K("InferenceService"), three);
  EXPECT_EQ(three["spec"]["replicas"], 3);
  Json null_replicas = {{"spec", {{"image", "model:1"}, {"replicas", nullptr}}}};
  ApplyDefaults(K("InferenceService"), null_replicas);
  EXPECT_EQ(null_replicas["spec"]["replicas"], 1);  // null counts as unset
}

TEST(ApplyDefaults, LeavesMistypedInputAlone) {
  const std::string pod_defaults =
      R"("restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",)"
      R"("schedulerName":"default-scheduler","securityContext":{},"enableServiceLinks":true,)"
      R"("priority":0,"preemptionPolicy":"PreemptLowerPriority")";
  struct Case {
    const char* kind;
    std::string obj;
    std::string expected;
  } cases[] = {
      {"RayCluster", R"({"spec":"x"})", R"({"spec":"x"})"},
      {"RayCluster", R"({"spec":{"workerGroupSpecs":"x","headGroupSpec":[1]}})",
       R"({"spec":{"workerGroupSpecs":"x","headGroupSpec":[1]}})"},
      {"RayCluster", R"({"spec":{"workerGroupSpecs":[1,"a",null]}})",
       R"({"spec":{"workerGroupSpecs":[1,"a",null]}})"},
      {"RayJob", R"({"spec":{"rayClusterSpec":5},"status":"x"})",
       R"({"spec":{"rayClusterSpec":5,"submissionMode":"K8sJobMode","backoffLimit":0,)"
       R"("ttlSecondsAfterFinished":0},"status":"x"})"},
      {"Pod", R"({"spec":{"containers":5,"volumes":[{"configMap":"x"}]}})",
       R"({"spec":{"containers":5,"volumes":[{"configMap":"x"}],)" + pod_defaults + "}}"},
      {"Pod", R"({"spec":{"containers":[{"image":5}]}})",
       R"({"spec":{"containers":[{"image":5,"resources":{},"terminationMessagePath":"/dev/termination-log",)"
       R"("terminationMessagePolicy":"File"}],)" +
           pod_defaults + "}}"},
      {"Deployment", R"({"spec":{"strategy":"x","template":[]}})",
       R"({"spec":{"strategy":"x","template":[],"replicas":1,"revisionHistoryLimit":10,)"
       R"("progressDeadlineSeconds":600}})"},
      {"Service", R"({"spec":{"ports":[{"port":"http"},3]}})",
       R"({"spec":{"ports":[{"port":"http","protocol":"TCP","targetPort":"http"},3],"type":"ClusterIP",)"
       R"("sessionAffinity":"None","internalTrafficPolicy":"Cluster"}})"},
      {"ConfigMap", R"({"data":{"a":"b"}})", R"({"data":{"a":"b"}})"},
      {"Pod", R"([1,2])", R"([1,2])"},
      {"Pod", R"({"spec":null})", R"({"spec":null})"},
  };
  for (const Case& c : cases) {
    Json obj = Parse(c.obj);
    ApplyDefaults(K(c.kind), obj);
    EXPECT_EQ(obj, Parse(c.expected)) << c.kind << " " << c.obj;
  }
}

struct SchemaCase {
  const char* kind;
  std::string obj;
  StatusCode code;      // kOk = valid
  std::string message;  // checked when not empty
};

void RunSchemaCases(const std::vector<SchemaCase>& cases) {
  for (const SchemaCase& c : cases) {
    Json obj = Parse(c.obj);
    ApplyDefaults(K(c.kind), obj);
    const base::Status s = ValidateSchema(K(c.kind), obj);
    EXPECT_EQ(s.code(), c.code) << c.obj << "\n" << s.message();
    if (!c.message.empty()) {
      EXPECT_EQ(s.message(), c.message) << c.obj;
    }
  }
}

const char kHead[] =
    R"("headGroupSpec":{"template":{"spec":{"containers":[{"name":"h","image":"r"}]}}})";

std::string RayCluster(const std::string& spec_fields) {
  return R"({"metadata":{"name":"raycluster-kuberay"},"spec":{)" + spec_fields + "}}";
}

TEST(ValidateSchema, ChecksRayClusterTypesLikeCrdValidation) {
  const std::string head = kHead;
  const std::string name = "RayCluster.ray.io \"raycluster-kuberay\" is invalid: ";
  RunSchemaCases({
      {"RayCluster",
       RayCluster(head + R"(,"workerGroupSpecs":[{"groupName":"g","replicas":2,"template":{}}])"),
       StatusCode::kOk, ""},
      {"RayCluster",
       RayCluster(head +
                  R"(,"workerGroupSpecs":[{"groupName":"g","replicas":"string","template":{}}])"),
       StatusCode::kInvalid,
       name + "spec.workerGroupSpecs[0].replicas: Invalid value: \"string\": "
              "spec.workerGroupSpecs[0].replicas in body must be of type integer: \"string\""},
      {"RayCluster",
       RayCluster(
           head +
           R"(,"workerGroupSpecs":[{"groupName":"g","template":{},"minReplicas":1.5,"maxReplicas":true}])"),
       StatusCode::kInvalid,
       name + "[spec.workerGroupSpecs[0].minReplicas: Invalid value: \"number\": "
              "spec.workerGroupSpecs[0].minReplicas in body must be of type integer: \"number\", "
              "spec.workerGroupSpecs[0].maxReplicas: Invalid value: \"boolean\": "
              "spec.workerGroupSpecs[0].maxReplicas in body must be of type integer: \"boolean\"]"},
      {"RayCluster", R"({"metadata":{"name":"c"},"spec":"string"})", StatusCode::kInvalid,
       "RayCluster.ray.io \"c\" is invalid: spec: Invalid value: \"string\": spec in body must be "
       "of "
       "type object: \"string\""},
      {"RayCluster", RayCluster(R"("rayVersion":"2.52.0")"), StatusCode::kInvalid,
       name + "spec.headGroupSpec: Required value"},
      {"RayCluster",
       RayCluster(R"("headGroupSpec":{"rayStartParams":{"num-cpus":1,"block":"true"}})"),
       StatusCode::kInvalid,
       name + "[spec.headGroupSpec.template: Required value, "
              "spec.headGroupSpec.rayStartParams.num-cpus: "
              "Invalid value: \"integer\": spec.headGroupSpec.rayStartParams.num-cpus in body must "
              "be of "
              "type string: \"integer\"]"},
      {"RayCluster", RayCluster(head + R"(,"workerGroupSpecs":[{"replicas":1}])"),
       StatusCode::kInvalid,
       name + "[spec.workerGroupSpecs[0].groupName: Required value, "
              "spec.workerGroupSpecs[0].template: Required value]"},
      {"RayCluster", RayCluster(head + R"(,"workerGroupSpecs":[{"groupName":7,"template":[]}])"),
       StatusCode::kInvalid,
       name + "[spec.workerGroupSpecs[0].groupName: Invalid value: \"integer\": "
              "spec.workerGroupSpecs[0].groupName in body must be of type string: \"integer\", "
              "spec.workerGroupSpecs[0].template: Invalid value: \"array\": "
              "spec.workerGroupSpecs[0].template in body must be of type object: \"array\"]"},
      {"RayCluster", RayCluster(head + R"(,"workerGroupSpecs":{"groupName":"g"})"),
       StatusCode::kInvalid,
       name +
           "spec.workerGroupSpecs: Invalid value: \"object\": spec.workerGroupSpecs in body must "
           "be of type array: \"object\""},
      {"RayCluster", RayCluster(head + R"(,"workerGroupSpecs":["x"])"), StatusCode::kInvalid,
       name +
           "spec.workerGroupSpecs[0]: Invalid value: \"string\": spec.workerGroupSpecs[0] in body "
           "must be of type object: \"string\""},
      {"RayCluster", RayCluster(head + R"(,"enableInTreeAutoscaling":"yes","futureField":{"x":1})"),
       StatusCode::kInvalid,
       name +
           "spec.enableInTreeAutoscaling: Invalid value: \"string\": spec.enableInTreeAutoscaling "
           "in body must be of type boolean: \"string\""},
      // unknown fields are kept and never an error; a missing spec is not checked
      {"RayCluster", RayCluster(head + R"(,"futureField":{"x":1})"), StatusCode::kOk, ""},
      {"RayCluster", R"({"metadata":{"name":"c"}})", StatusCode::kOk, ""},
  });
}

TEST(ValidateSchema, ChecksRayJobRayServiceAndRayCronJob) {
  const std::string head = kHead;
  RunSchemaCases({
      {"RayJob",
       R"({"metadata":{"name":"j"},"spec":{"entrypoint":"python x.py","rayClusterSpec":{)" + head +
           "}}}",
       StatusCode::kOk, ""},
      // submissionMode is a free string in KubeRay v1.7.0's CRD; the controller validates it.
      {"RayJob",
       R"({"metadata":{"name":"j"},"spec":{"submissionMode":"Bogus","clusterSelector":{"ray.io/cluster":"c"}}})",
       StatusCode::kOk, ""},
      {"RayJob", R"({"metadata":{"name":"j"},"spec":{"entrypoint":5}})", StatusCode::kInvalid,
       "RayJob.ray.io \"j\" is invalid: spec.entrypoint: Invalid value: \"integer\": "
       "spec.entrypoint "
       "in body must be of type string: \"integer\""},
      {"RayJob", R"({"metadata":{"name":"j"},"spec":{"clusterSelector":{"ray.io/cluster":1}}})",
       StatusCode::kInvalid,
       "RayJob.ray.io \"j\" is invalid: spec.clusterSelector.ray.io/cluster: Invalid value: "
       "\"integer\": spec.clusterSelector.ray.io/cluster in body must be of type string: "
       "\"integer\""},
      {"RayJob", R"({"metadata":{"name":"j"},"spec":{"rayClusterSpec":"x","submissionMode":1}})",
       StatusCode::kInvalid,
       "RayJob.ray.io \"j\" is invalid: [spec.submissionMode: Invalid value: \"integer\": "
       "spec.submissionMode in body must be of type string: \"integer\", spec.rayClusterSpec: "
       "Invalid "
       "value: \"string\": spec.rayClusterSpec in body must be of type object: \"string\"]"},
      {"RayJob",
       R"({"metadata":{"name":"j"},"spec":{"rayClusterSpec":{"workerGroupSpecs":[{"groupName":"g","template":{},"replicas":"2"}]}}})",
       StatusCode::kInvalid,
       "RayJob.ray.io \"j\" is invalid: [spec.rayClusterSpec.headGroupSpec: Required value, "
       "spec.rayClusterSpec.workerGroupSpecs[0].replicas: Invalid value: \"string\": "
       "spec.rayClusterSpec.workerGroupSpecs[0].replicas in body must be of type integer: "
       "\"string\"]"},
      {"RayJob", R"({"metadata":{"name":"j"},"spec":{"preRunningDeadlineSeconds":0}})",
       StatusCode::kInvalid,
       "RayJob.ray.io \"j\" is invalid: spec.preRunningDeadlineSeconds: Invalid value: 0: "
       "spec.preRunningDeadlineSeconds in body should be greater than or equal to 1"},
      {"RayService",
       R"({"metadata":{"name":"s"},"spec":{"serveConfigV2":"applications: []\n","rayClusterConfig":{)" +
           head + "}}}",
       StatusCode::kOk, ""},
      {"RayService", R"({"metadata":{"name":"s"},"spec":{"serveConfigV2":{"applications":[]}}})",
       StatusCode::kInvalid,
       "RayService.ray.io \"s\" is invalid: [spec.rayClusterConfig: Required value, "
       "spec.serveConfigV2: Invalid value: \"object\": spec.serveConfigV2 in body must be of type "
       "string: \"object\"]"},
      {"RayService",
       R"({"metadata":{"name":"s"},"spec":{"rayClusterConfig":[],"rayClusterDeletionDelaySeconds":-1}})",
       StatusCode::kInvalid,
       "RayService.ray.io \"s\" is invalid: [spec.rayClusterDeletionDelaySeconds: Invalid value: "
       "-1: "
       "spec.rayClusterDeletionDelaySeconds in body should be greater than or equal to 0, "
       "spec.rayClusterConfig: Invalid value: \"array\": spec.rayClusterConfig in body must be of "
       "type "
       "object: \"array\"]"},
      {"RayCronJob", R"({"metadata":{"name":"cj"},"spec":{}})", StatusCode::kInvalid,
       "RayCronJob.ray.io \"cj\" is invalid: [spec.jobTemplate: Required value, spec.schedule: "
       "Required value]"},
      {"RayCronJob",
       R"({"metadata":{"name":"cj"},"spec":{"schedule":"@hourly","jobTemplate":{"entrypoint":[]}}})",
       StatusCode::kInvalid,
       "RayCronJob.ray.io \"cj\" is invalid: spec.jobTemplate.entrypoint: Invalid value: "
       "\"array\": "
       "spec.jobTemplate.entrypoint in body must be of type string: \"array\""},
  });
}

TEST(ValidateSchema, ChecksInferenceService) {
  RunSchemaCases({
      {"InferenceService", R"({"metadata":{"name":"m"},"spec":{"image":"model:1","replicas":0}})",
       StatusCode::kOk, ""},
      {"InferenceService", R"({"metadata":{"name":"m"},"spec":{"image":"model:1","replicas":-1}})",
       StatusCode::kInvalid,
       "InferenceService.inference.io \"m\" is invalid: spec.replicas: Invalid value: -1: "
       "spec.replicas in body should be greater than or equal to 0"},
      {"InferenceService", R"({"metadata":{"name":"m"},"spec":{"replicas":"2"}})",
       StatusCode::kInvalid,
       "InferenceService.inference.io \"m\" is invalid: [spec.image: Required value, "
       "spec.replicas: "
       "Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"]"},
      {"InferenceService", R"({"metadata":{"name":"m"}})", StatusCode::kInvalid,
       "InferenceService.inference.io \"m\" is invalid: spec: Required value"},
      {"InferenceService", R"({"metadata":{"name":"m"},"spec":{"image":7}})", StatusCode::kInvalid,
       "InferenceService.inference.io \"m\" is invalid: spec.image: Invalid value: \"integer\": "
       "spec.image in body must be of type string: \"integer\""},
  });
}

TEST(ValidateSchema, ChecksPodContainers) {
  RunSchemaCases({
      {"Pod", R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"nginx"}]}})",
       StatusCode::kOk, ""},
      {"Pod", R"({"metadata":{"name":"p"},"spec":{}})", StatusCode::kInvalid,
       "Pod \"p\" is invalid: spec.containers: Required value"},
      {"Pod", R"({"metadata":{"name":"p"}})", StatusCode::kInvalid,
       "Pod \"p\" is invalid: spec.containers: Required value"},
      {"Pod", R"({"metadata":{"name":"p"},"spec":{"containers":[]}})", StatusCode::kInvalid,
       "Pod \"p\" is invalid: spec.containers: Required value"},
      {"Pod", R"({"metadata":{"name":"p"},"spec":{"containers":[{}]}})", StatusCode::kInvalid,
       "Pod \"p\" is invalid: [spec.containers[0].name: Required value, spec.containers[0].image: "
       "Required value]"},
      {"Pod",
       R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"Web","image":"x"},{"name":"a","image":"x"},{"name":"a","image":"y"}]}})",
       StatusCode::kInvalid,
       "Pod \"p\" is invalid: [spec.containers[0].name: Invalid value: \"Web\": " +
           std::string("a lowercase RFC 1123 label must consist of lower case alphanumeric "
                       "characters or '-', and "
                       "must start and end with an alphanumeric character (e.g. 'my-name',  or "
                       "'123-abc', regex "
                       "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')") +
           ", spec.containers[2].name: Duplicate value: \"a\"]"},
      {"Pod",
       R"({"metadata":{"name":"p"},"spec":{"restartPolicy":"Sometimes","containers":[{"name":"c","image":"x"}]}})",
       StatusCode::kInvalid,
       "Pod \"p\" is invalid: spec.restartPolicy: Unsupported value: \"Sometimes\": supported "
       "values: "
       "\"Always\", \"OnFailure\", \"Never\""},
      {"Pod", R"({"metadata":{"name":"p"},"spec":{"containers":{"name":"c"}}})",
       StatusCode::kBadRequest,
       "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal object into Go "
       "struct "
       "field PodSpec.spec.containers of type []v1.Container"},
      {"Pod", R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":5}]}})",
       StatusCode::kBadRequest,
       "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal number into Go "
       "struct "
       "field Container.spec.containers.image of type string"},
  });
}

std::string Deployment(const std::string& spec) {
  return R"({"metadata":{"name":"web"},"spec":)" + spec + "}";
}
const char kTemplate[] =
    R"("template":{"metadata":{"labels":{"app":"web","tier":"fe"}},"spec":{"containers":[{"name":"c","image":"x"}]}})";

TEST(ValidateSchema, ChecksDeploymentSelectorAndReplicas) {
  const std::string t = kTemplate;
  const std::string name = "Deployment.apps \"web\" is invalid: ";
  RunSchemaCases({
      {"Deployment", Deployment(R"({"selector":{"matchLabels":{"app":"web"}},)" + t + "}"),
       StatusCode::kOk, ""},
      {"Deployment",
       Deployment(
           R"({"selector":{"matchExpressions":[{"key":"tier","operator":"In","values":["fe","be"]},{"key":"canary","operator":"DoesNotExist"},{"key":"app","operator":"Exists"},{"key":"tier","operator":"NotIn","values":["db"]}]},)" +
           t + "}"),
       StatusCode::kOk, ""},
      {"Deployment", Deployment("{" + t + "}"), StatusCode::kInvalid,
       name + "[spec.selector: Required value, spec.template.metadata.labels: Invalid value: "
              "{\"app\":\"web\",\"tier\":\"fe\"}: `selector` does not match template `labels`]"},
      {"Deployment", Deployment(R"({"selector":{"matchLabels":{"app":"api"}},)" + t + "}"),
       StatusCode::kInvalid,
       name + "spec.template.metadata.labels: Invalid value: {\"app\":\"web\",\"tier\":\"fe\"}: "
              "`selector` does not match template `labels`"},
      {"Deployment",
       Deployment(
           R"({"selector":{"matchExpressions":[{"key":"tier","operator":"NotIn","values":["fe"]}]},)" +
           t + "}"),
       StatusCode::kInvalid,
       name + "spec.template.metadata.labels: Invalid value: {\"app\":\"web\",\"tier\":\"fe\"}: "
              "`selector` does not match template `labels`"},
      {"Deployment", Deployment(R"({"selector":{},)" + t + "}"), StatusCode::kInvalid,
       name + "spec.selector: Invalid value: {}: empty selector is invalid for deployment"},
      {"Deployment",
       Deployment(R"({"replicas":-1,"selector":{"matchLabels":{"app":"web"}},)" + t + "}"),
       StatusCode::kInvalid,
       name + "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
      {"Deployment",
       Deployment(R"({"replicas":"3","selector":{"matchLabels":{"app":"web"}},)" + t + "}"),
       StatusCode::kBadRequest,
       "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal "
       "string "
       "into Go struct field DeploymentSpec.spec.replicas of type int32"},
      {"Deployment", Deployment(R"({"selector":"app=web",)" + t + "}"), StatusCode::kBadRequest,
       "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal "
       "string "
       "into Go struct field DeploymentSpec.spec.selector of type v1.LabelSelector"},
      {"Deployment",
       Deployment(
           R"({"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"restartPolicy":"Never","containers":[]}}})"),
       StatusCode::kInvalid,
       name + "[spec.template.spec.containers: Required value, spec.template.spec.restartPolicy: "
              "Unsupported value: \"Never\": supported values: \"Always\"]"},
      {"ReplicaSet",
       R"({"metadata":{"name":"rs"},"spec":{"selector":{"matchLabels":{"tier":"frontend"}},"template":{"metadata":{"labels":{"tier":"nginx"}},"spec":{"containers":[{"name":"c","image":"x"}]}}}})",
       StatusCode::kInvalid,
       "ReplicaSet.apps \"rs\" is invalid: spec.template.metadata.labels: Invalid value: "
       "{\"tier\":\"nginx\"}: `selector` does not match template `labels`"},
  });
}

TEST(ValidateSchema, ChecksJobs) {
  RunSchemaCases({
      {"Job",
       R"({"metadata":{"name":"j"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"x"}]}}}})",
       StatusCode::kOk, ""},
      // restartPolicy defaults to Always, which a Job does not allow
      {"Job",
       R"({"metadata":{"name":"j"},"spec":{"template":{"spec":{"containers":[{"name":"c","image":"x"}]}}}})",
       StatusCode::kInvalid,
       "Job.batch \"j\" is invalid: spec.template.spec.restartPolicy: Unsupported value: "
       "\"Always\": "
       "supported values: \"OnFailure\", \"Never\""},
      {"Job",
       R"({"metadata":{"name":"j"},"spec":{"parallelism":-1,"backoffLimit":-2,"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c","image":"x"}]}}}})",
       StatusCode::kInvalid,
       "Job.batch \"j\" is invalid: [spec.parallelism: Invalid value: -1: must be greater than or "
       "equal to 0, spec.backoffLimit: Invalid value: -2: must be greater than or equal to 0]"},
      {"ConfigMap", R"({"metadata":{"name":"cm"},"data":{"a":"b"},"anything":[1]})",
       StatusCode::kOk, ""},
  });
}

TEST(ValidateObject, ListsMetadataCausesBeforeSchemaCauses) {
  Json obj = Parse(R"({"metadata":{"name":"Bad_Name"},"spec":{"workerGroupSpecs":[]}})");
  ApplyDefaults(K("RayCluster"), obj);
  const base::Status s = ValidateObject(K("RayCluster"), obj);
  EXPECT_EQ(s.code(), StatusCode::kInvalid);
  EXPECT_EQ(s.message(),
            "RayCluster.ray.io \"Bad_Name\" is invalid: [metadata.name: Invalid value: "
            "\"Bad_Name\": " +
                kSubdomainRule + ", spec.headGroupSpec: Required value]");
  const base::Status decode = ValidateObject(
      K("Deployment"), Parse(R"({"metadata":{"name":"Bad"},"spec":{"replicas":true}})"));
  EXPECT_EQ(decode.code(), StatusCode::kBadRequest);
  EXPECT_TRUE(ValidateObject(K("ConfigMap"), Parse(R"({"metadata":{"name":"ok"}})")).ok());
}

TEST(InvalidMessage, FollowsNewInvalidAndAggregateFormatting) {
  EXPECT_EQ(InvalidMessage(K("Pod"), "p", {"a: Required value"}),
            "Pod \"p\" is invalid: a: Required value");
  EXPECT_EQ(InvalidMessage(K("RayJob"), "j", {"x", "y", "x"}),
            "RayJob.ray.io \"j\" is invalid: [x, y]");
  EXPECT_EQ(InvalidMessage(K("Deployment"), "we\"ird", {"c"}),
            "Deployment.apps \"we\\\"ird\" is invalid: c");
}

TEST(ValidateObject, AcceptsTheKubeRaySamplesAfterDefaulting) {
  REQUIRE_KUBERAY_SAMPLES(dir);
  const auto files = labtest::KubeRaySampleYamls(dir);
  ASSERT_GE(files.size(), 7u);
  for (const auto& [file, text] : files) {
    auto docs = DecodeManifests(text, file);
    ASSERT_TRUE(docs.ok()) << file << ": " << docs.status().message();
    for (Json& doc : *docs) {
      const KindInfo* kind = FindKindFor(ApiVersion(doc), Kind(doc));
      ASSERT_NE(kind, nullptr) << file << " " << Kind(doc);
      ApplyDefaults(*kind, doc);
      const base::Status s = ValidateObject(*kind, doc);
      EXPECT_TRUE(s.ok()) << file << ": " << s.message();
    }
  }
}

// Integer fields take what their Go type holds: an int32 field refuses 2^31 (the decoder's 400
// for built-in kinds, kube-openapi's format check for custom resources), 2^63 is no int64.
TEST(ValidateSchema, IntegerFieldsFitTheirGoType) {
  const std::string t = kTemplate;
  const std::string sel = R"("selector":{"matchLabels":{"app":"web"}},)";
  RunSchemaCases({
      {"Deployment", Deployment(R"({"replicas":2147483647,)" + sel + t + "}"), StatusCode::kOk, ""},
      {"Deployment", Deployment(R"({"replicas":2147483648,)" + sel + t + "}"),
       StatusCode::kBadRequest,
       "Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal "
       "number 2147483648 into Go struct field DeploymentSpec.spec.replicas of type int32"},
      {"Deployment", Deployment(R"({"replicas":9223372036854775808,)" + sel + t + "}"),
       StatusCode::kBadRequest, ""},
      {"Service", R"({"metadata":{"name":"s"},"spec":{"ports":[{"port":1000000000000}]}})",
       StatusCode::kBadRequest,
       "Service in version \"v1\" cannot be handled as a Service: json: cannot unmarshal number "
       "1000000000000 into Go struct field ServicePort.spec.ports.port of type int32"},
      {"Service", R"({"metadata":{"name":"s"},"spec":{"ports":[{"port":70000}]}})",
       StatusCode::kInvalid,
       // targetPort defaults to port, so both are reported, as the API server does.
       "Service \"s\" is invalid: [spec.ports[0].port: Invalid value: 70000: must be between 1 "
       "and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 70000: must be between 1 "
       "and 65535, inclusive]"},
      {"RayCluster",
       RayCluster(R"("workerGroupSpecs":[{"groupName":"g","replicas":2147483648,"rayStartParams":{},"template":{"spec":{"containers":[{"name":"w","image":"r"}]}}}])"),
       StatusCode::kInvalid, ""},
  });
  Json rc = Parse(RayCluster(
      R"("workerGroupSpecs":[{"groupName":"g","replicas":2147483648,"rayStartParams":{},"template":{"spec":{"containers":[{"name":"w","image":"r"}]}}}])"));
  const base::Status s = ValidateSchema(K("RayCluster"), rc);
  EXPECT_NE(s.message().find("Checked value must be of type integer with format int32 in "
                             "spec.workerGroupSpecs[0].replicas"),
            std::string::npos)
      << s.message();
}

// ConfigMap.data is a map[string]string: a nested map, a number or a boolean does not decode.
TEST(ValidateSchema, ConfigMapDataHoldsOnlyStrings) {
  const std::string head = "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: ";
  RunSchemaCases({
      {"ConfigMap", R"({"metadata":{"name":"c"},"data":{"a":"1","b":null}})", StatusCode::kOk, ""},
      {"ConfigMap", R"({"metadata":{"name":"c"},"data":{"a":{"b":"c"}}})", StatusCode::kBadRequest,
       head + "cannot unmarshal object into Go struct field ConfigMap.data of type string"},
      {"ConfigMap", R"({"metadata":{"name":"c"},"data":{"a":1}})", StatusCode::kBadRequest,
       head + "cannot unmarshal number into Go struct field ConfigMap.data of type string"},
      {"ConfigMap", R"({"metadata":{"name":"c"},"data":{"a":true}})", StatusCode::kBadRequest,
       head + "cannot unmarshal bool into Go struct field ConfigMap.data of type string"},
      {"ConfigMap", R"({"metadata":{"name":"c"},"data":["a"]})", StatusCode::kBadRequest,
       head + "cannot unmarshal array into Go struct field ConfigMap.data of type "
              "map[string]string"},
  });
}

// metadata.finalizers is a list of strings; a name that is not a string is named by its type.
TEST(ValidateObject, FinalizersAndNameHaveTheirTypes) {
  const base::Status f =
      ValidateObject(K("ConfigMap"), Parse(R"({"metadata":{"name":"c","finalizers":7}})"));
  EXPECT_EQ(f.code(), StatusCode::kInvalid);
  EXPECT_EQ(f.message(),
            "ConfigMap \"c\" is invalid: metadata.finalizers: Invalid value: \"integer\": "
            "metadata.finalizers in body must be of type array: \"integer\"");
  const base::Status item =
      ValidateObject(K("ConfigMap"), Parse(R"({"metadata":{"name":"c","finalizers":["a",7]}})"));
  EXPECT_EQ(item.code(), StatusCode::kInvalid);
  EXPECT_NE(item.message().find("metadata.finalizers[1] in body must be of type string"),
            std::string::npos)
      << item.message();
  const base::Status n = ValidateObject(K("ConfigMap"), Parse(R"({"metadata":{"name":12345}})"));
  EXPECT_EQ(n.code(), StatusCode::kInvalid);
  EXPECT_NE(n.message().find("metadata.name in body must be of type string: \"integer\""),
            std::string::npos)
      << n.message();
}

}  // namespace
}  // namespace api
