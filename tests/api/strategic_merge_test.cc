#include "core/api/strategic_merge.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/api/patch.h"

namespace api {
namespace {

using base::StatusCode;
using base::StatusOr;

Json SmpJ(const char* text) {
  Json j = Json::parse(text, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << text;
  return j;
}

// The Deployment of the Kubernetes docs task "Update API Objects in Place Using kubectl patch".
Json PatchDemoDeployment() {
  return SmpJ(R"({
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "patch-demo", "namespace": "default"},
    "spec": {"replicas": 2,
      "selector": {"matchLabels": {"app": "nginx"}},
      "template": {"metadata": {"labels": {"app": "nginx"}},
        "spec": {"containers": [{"name": "patch-demo-ctr", "image": "nginx"}],
                 "tolerations": [{"effect": "NoSchedule", "key": "dedicated", "value": "test-team"}]}}}})");
}

Json Containers(const Json& deploy) { return deploy["spec"]["template"]["spec"]["containers"]; }

StatusOr<Json> Sm(const char* kind, const Json& target, const char* patch) {
  return ApplyStrategicMergePatch(kind, target, SmpJ(patch));
}

// ---- LookupPatchMeta ------------------------------------------------------------------------

TEST(LookupPatchMeta, KnowsTheMergeKeysOfBuiltInKinds) {
  using S = PatchMeta::Strategy;
  struct Case {
    const char* kind;
    std::vector<std::string> path;
    S strategy;
    const char* key;
  } cases[] = {
      {"Pod", {"spec", "containers"}, S::kMergeByKey, "name"},
      {"Pod", {"spec", "initContainers"}, S::kMergeByKey, "name"},
      {"Pod", {"spec", "ephemeralContainers"}, S::kMergeByKey, "name"},
      {"Pod", {"spec", "containers", "env"}, S::kMergeByKey, "name"},
      {"Pod", {"spec", "containers", "ports"}, S::kMergeByKey, "containerPort"},
      {"Pod", {"spec", "initContainers", "volumeMounts"}, S::kMergeByKey, "mountPath"},
      {"Pod", {"spec", "containers", "volumeDevices"}, S::kMergeByKey, "devicePath"},
      {"Pod", {"spec", "volumes"}, S::kMergeByKey, "name"},
      {"Pod", {"spec", "imagePullSecrets"}, S::kMergeByKey, "name"},
      {"Pod", {"spec", "hostAliases"}, S::kMergeByKey, "ip"},
      {"Pod", {"spec", "tolerations"}, S::kReplace, ""},
      {"Pod", {"spec", "containers", "args"}, S::kReplace, ""},
      {"Pod", {"spec", "containers", "command"}, S::kReplace, ""},
      {"Pod", {"status", "conditions"}, S::kMergeByKey, "type"},
      {"Node", {"status", "conditions"}, S::kMergeByKey, "type"},
      {"Pod", {"metadata", "ownerReferences"}, S::kMergeByKey, "uid"},
      {"Pod", {"metadata", "finalizers"}, S::kMergePrimitives, ""},
      {"Deployment", {"spec", "template", "spec", "containers"}, S::kMergeByKey, "name"},
      {"Deployment", {"spec", "template", "spec", "containers", "env"}, S::kMergeByKey, "name"},
      {"Deployment", {"spec", "template", "metadata", "finalizers"}, S::kMergePrimitives, ""},
      {"Deployment", {"spec", "containers"}, S::kReplace, ""},  // not a PodSpec in a Deployment
      {"ReplicaSet", {"spec", "template", "spec", "volumes"}, S::kMergeByKey, "name"},
      {"Job", {"spec", "template", "spec", "containers"}, S::kMergeByKey, "name"},
      {"CronJob", {"spec", "jobTemplate", "spec", "template", "spec", "containers"},
       S::kMergeByKey, "name"},
      {"CronJob", {"spec", "template", "spec", "containers"}, S::kReplace, ""},
      {"Service", {"spec", "ports"}, S::kMergeByKey, "port"},
      {"Pod", {"spec", "ports"}, S::kReplace, ""},
      {"ConfigMap", {"data"}, S::kReplace, ""},
  };
  for (const auto& c : cases) {
    PatchMeta meta = LookupPatchMeta(c.kind, c.path);
    std::string where = std::string(c.kind) + ":";
    for (const auto& p : c.path) where += "." + p;
    EXPECT_EQ(meta.strategy, c.strategy) << where;
    EXPECT_EQ(meta.merge_key, c.key) << where;
  }
}

// ---- ApplyStrategicMergePatch: the Kubernetes docs cases ------------------------------------

TEST(StrategicMergePatch, AddsASecondContainerInsteadOfReplacingTheList) {
  // kubectl patch deployment patch-demo --patch-file patch-file.yaml (docs): the new container
  // comes first, as in the docs' output.
  auto got = Sm("Deployment", PatchDemoDeployment(),
                R"({"spec":{"template":{"spec":{"containers":[
                     {"name":"patch-demo-ctr-2","image":"redis"}]}}}})");
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(Containers(*got), SmpJ(R"([{"name":"patch-demo-ctr-2","image":"redis"},
                                     {"name":"patch-demo-ctr","image":"nginx"}])"));
}

TEST(StrategicMergePatch, JsonMergePatchOfTheSameBodyReplacesTheList) {
  Json got = ApplyMergePatch(PatchDemoDeployment(),
                             SmpJ(R"({"spec":{"template":{"spec":{"containers":[
                                   {"name":"patch-demo-ctr-3","image":"gcr.io/google-samples/hello-app:2.0"}]}}}})"));
  EXPECT_EQ(Containers(got),
            SmpJ(R"([{"name":"patch-demo-ctr-3","image":"gcr.io/google-samples/hello-app:2.0"}])"));
}

TEST(StrategicMergePatch, TolerationsHaveNoMergeKeySoTheyAreReplaced) {
  auto got = Sm("Deployment", PatchDemoDeployment(),
                R"({"spec":{"template":{"spec":{"tolerations":[
                     {"effect":"NoSchedule","key":"disktype","value":"ssd"}]}}}})");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ((*got)["spec"]["template"]["spec"]["tolerations"],
            SmpJ(R"([{"effect":"NoSchedule","key":"disktype","value":"ssd"}])"));
  EXPECT_EQ(Containers(*got).size(), 1u);
}

TEST(StrategicMergePatch, MergesFieldsOfTheContainerWithTheSameName) {
  auto got = Sm("Deployment", PatchDemoDeployment(),
                R"({"spec":{"template":{"spec":{"containers":[
                     {"name":"patch-demo-ctr","image":"nginx:1.25","imagePullPolicy":"Always"}]}}}})");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(Containers(*got),
            SmpJ(R"([{"name":"patch-demo-ctr","image":"nginx:1.25","imagePullPolicy":"Always"}])"));
}

TEST(StrategicMergePatch, ListsMergeByTheirKeys) {
  struct Case {
    const char* name;
    const char* kind;
    const char* target;
    const char* patch;
    const char* want;  // the whole result
  } cases[] = {
      {"env by name: update one, add one, keep one", "Pod",
       R"({"spec":{"containers":[{"name":"app","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]}]}})",
       R"({"spec":{"containers":[{"name":"app","env":[{"name":"B","value":"3"},{"name":"C","value":"4"}]}]}})",
       R"({"spec":{"containers":[{"name":"app","env":[{"name":"A","value":"1"},{"name":"B","value":"3"},{"name":"C","value":"4"}]}]}})"},
      {"ports by containerPort", "Pod",
       R"({"spec":{"containers":[{"name":"app","ports":[{"containerPort":80,"name":"http"}]}]}})",
       R"({"spec":{"containers":[{"name":"app","ports":[{"containerPort":80,"protocol":"TCP"}]}]}})",
       R"({"spec":{"containers":[{"name":"app","ports":[{"containerPort":80,"name":"http","protocol":"TCP"}]}]}})"},
      {"volumeMounts by mountPath", "Pod",
       R"({"spec":{"containers":[{"name":"app","volumeMounts":[{"mountPath":"/data","name":"a"}]}]}})",
       R"({"spec":{"containers":[{"name":"app","volumeMounts":[{"mountPath":"/data","name":"b"}]}]}})",
       R"({"spec":{"containers":[{"name":"app","volumeMounts":[{"mountPath":"/data","name":"b"}]}]}})"},
      {"volumes by name", "Pod",
       R"({"spec":{"volumes":[{"name":"v","emptyDir":{}}]}})",
       R"({"spec":{"volumes":[{"name":"v","emptyDir":{"medium":"Memory"}}]}})",
       R"({"spec":{"volumes":[{"name":"v","emptyDir":{"medium":"Memory"}}]}})"},
      {"hostAliases by ip", "Pod",
       R"({"spec":{"hostAliases":[{"ip":"10.0.0.1","hostnames":["a"]}]}})",
       R"({"spec":{"hostAliases":[{"ip":"10.0.0.1","hostnames":["b"]}]}})",
       R"({"spec":{"hostAliases":[{"ip":"10.0.0.1","hostnames":["b"]}]}})"},
      {"Service ports by port", "Service",
       R"({"spec":{"ports":[{"port":80,"targetPort":8080}]}})",
       R"({"spec":{"ports":[{"port":80,"targetPort":9090}]}})",
       R"({"spec":{"ports":[{"port":80,"targetPort":9090}]}})"},
      {"Pod conditions by type", "Pod",
       R"({"status":{"conditions":[{"type":"Ready","status":"False"},{"type":"PodScheduled","status":"True"}]}})",
       R"({"status":{"conditions":[{"type":"Ready","status":"True"}]}})",
       R"({"status":{"conditions":[{"type":"Ready","status":"True"},{"type":"PodScheduled","status":"True"}]}})"},
      {"ownerReferences by uid", "ReplicaSet",
       R"({"metadata":{"ownerReferences":[{"uid":"u1","name":"a"}]}})",
       R"({"metadata":{"ownerReferences":[{"uid":"u1","controller":true}]}})",
       R"({"metadata":{"ownerReferences":[{"uid":"u1","name":"a","controller":true}]}})"},
      {"CronJob containers under jobTemplate", "CronJob",
       R"({"spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"x"}]}}}}}})",
       R"({"spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"y"}]}}}}}})",
       R"({"spec":{"jobTemplate":{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"y"}]}}}}}})"},
      {"args are replaced", "Pod",
       R"({"spec":{"containers":[{"name":"app","args":["a","b"]}]}})",
       R"({"spec":{"containers":[{"name":"app","args":["c"]}]}})",
       R"({"spec":{"containers":[{"name":"app","args":["c"]}]}})"},
      {"finalizers merge as a set without duplicates", "Deployment",
       R"({"metadata":{"finalizers":["a","b"]}})", R"({"metadata":{"finalizers":["b","c"]}})",
       R"({"metadata":{"finalizers":["a","b","c"]}})"},
      {"a new finalizer goes first, as apimachinery orders patch items", "Deployment",
       R"({"metadata":{"finalizers":["a"]}})", R"({"metadata":{"finalizers":["b"]}})",
       R"({"metadata":{"finalizers":["b","a"]}})"},
      {"a list of a kind without strategy is replaced", "ConfigMap",
       R"({"data":{"a":"1"},"x":[1,2]})", R"({"x":[3]})", R"({"data":{"a":"1"},"x":[3]})"},
  };
  for (const auto& c : cases) {
    auto got = Sm(c.kind, SmpJ(c.target), c.patch);
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status().message();
    EXPECT_EQ(*got, SmpJ(c.want)) << c.name << "\n got " << got->dump();
  }
}

TEST(StrategicMergePatch, DirectivesDeleteReplaceAndOrder) {
  struct Case {
    const char* name;
    const char* target;
    const char* patch;
    const char* want;
  } cases[] = {
      {"$patch: delete removes the keyed container",
       R"({"spec":{"containers":[{"name":"app","image":"a"},{"name":"sidecar","image":"s"}]}})",
       R"({"spec":{"containers":[{"name":"sidecar","$patch":"delete"}]}})",
       R"({"spec":{"containers":[{"name":"app","image":"a"}]}})"},
      {"$patch: replace in a list replaces the list",
       R"({"spec":{"containers":[{"name":"app","image":"a"},{"name":"b","image":"b"}]}})",
       R"({"spec":{"containers":[{"$patch":"replace"},{"name":"only","image":"o"}]}})",
       R"({"spec":{"containers":[{"name":"only","image":"o"}]}})"},
      {"$patch: replace on a map replaces the map",
       R"({"metadata":{"labels":{"a":"1","b":"2"}}})",
       R"({"metadata":{"labels":{"$patch":"replace","c":"3"}}})",
       R"({"metadata":{"labels":{"c":"3"}}})"},
      {"$patch: delete on a map empties it",
       R"({"spec":{"nodeSelector":{"a":"1"},"x":1}})",
       R"({"spec":{"nodeSelector":{"$patch":"delete"}}})",
       R"({"spec":{"nodeSelector":{},"x":1}})"},
      {"$deleteFromPrimitiveList removes scalars",
       R"({"metadata":{"finalizers":["a","b","c"]}})",
       R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["b","z"]}})",
       R"({"metadata":{"finalizers":["a","c"]}})"},
      {"$setElementOrder orders a keyed list",
       R"({"spec":{"containers":[{"name":"a"},{"name":"b"}]}})",
       R"({"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],
                   "containers":[{"name":"a","image":"x"}]}})",
       R"({"spec":{"containers":[{"name":"b"},{"name":"a","image":"x"}]}})"},
      {"$setElementOrder also places a new element",
       R"({"spec":{"containers":[{"name":"a"},{"name":"c"}]}})",
       R"({"spec":{"$setElementOrder/containers":[{"name":"a"},{"name":"b"},{"name":"c"}],
                   "containers":[{"name":"b"}]}})",
       R"({"spec":{"containers":[{"name":"a"},{"name":"b"},{"name":"c"}]}})"},
      {"$setElementOrder of primitives",
       R"({"metadata":{"finalizers":["x","y"]}})",
       R"({"metadata":{"$setElementOrder/finalizers":["y","x","z"],"finalizers":["z"]}})",
       R"({"metadata":{"finalizers":["y","x","z"]}})"},
      {"$retainKeys clears unlisted keys",
       R"({"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}})",
       R"({"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}})",
       R"({"spec":{"strategy":{"type":"Recreate"}}})"},
      {"null deletes a key", R"({"spec":{"a":1,"b":2}})", R"({"spec":{"a":null}})",
       R"({"spec":{"b":2}})"},
      {"null for an absent key does nothing", R"({"spec":{"b":2}})", R"({"spec":{"a":null}})",
       R"({"spec":{"b":2}})"},
      {"directives do not leak where the target has nothing", R"({"spec":{}})",
       R"({"spec":{"containers":[{"name":"x","$patch":"delete"},{"name":"a","env":[{"name":"E","value":"1"}]}],
                   "nodeSelector":{"k":null,"j":"v"}}})",
       R"({"spec":{"containers":[{"name":"a","env":[{"name":"E","value":"1"}]}],"nodeSelector":{"j":"v"}}})"},
      {"a type change replaces", R"({"spec":{"a":{"b":1}}})", R"({"spec":{"a":[1]}})",
       R"({"spec":{"a":[1]}})"},
  };
  for (const auto& c : cases) {
    auto got = Sm("Pod", SmpJ(c.target), c.patch);
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status().message();
    EXPECT_EQ(*got, SmpJ(c.want)) << c.name << "\n got " << got->dump();
  }
}

TEST(StrategicMergePatch, ErrorsFollowTheApiServer) {
  struct Case {
    const char* name;
    const char* kind;
    const char* patch;
    StatusCode code;
    const char* message;
  } cases[] = {
      {"element without its merge key", "Pod",
       R"({"spec":{"containers":[{"image":"nginx"}]}})", StatusCode::kInternal,
       "map: map[image:nginx] does not contain declared merge key: name"},
      {"delete directive without merge key", "Pod",
       R"({"spec":{"containers":[{"$patch":"delete"}]}})", StatusCode::kInternal,
       "map: map[$patch:delete] does not contain declared merge key: name"},
      {"unknown map directive", "Pod", R"({"spec":{"$patch":"frob"}})", StatusCode::kInternal,
       "unknown patch type: frob in map: map[$patch:frob]"},
      {"merge directive in a list", "Pod",
       R"({"spec":{"containers":[{"name":"a","$patch":"merge"}]}})", StatusCode::kInternal,
       "merging lists cannot yet be specified in the patch"},
      {"mixed element types", "Pod", R"({"spec":{"containers":["a"]}})", StatusCode::kInternal,
       "list element types are not identical: [[map[image:a name:app]] [a]]"},
      {"lists of lists", "Pod", R"({"spec":{"volumes":[["a"]]}})", StatusCode::kInvalid,
       "lists of lists are not supported"},
      {"bad retainKeys", "Pod", R"({"spec":{"$retainKeys":"x"}})", StatusCode::kBadRequest,
       "invalid patch format of retainKeys"},
      {"retainKeys missing a patched key", "Pod",
       R"({"spec":{"$retainKeys":["a"],"b":1}})", StatusCode::kBadRequest,
       "invalid patch format of retainKeys"},
      {"bad deleteFromPrimitiveList", "Pod",
       R"({"metadata":{"$deleteFromPrimitiveList/finalizers":"a"}})", StatusCode::kBadRequest,
       "invalid patch format of primitive list"},
      {"patch is a list", "Pod", R"([1])", StatusCode::kBadRequest,
       "json: cannot unmarshal array into Go value of type map[string]interface {}"},
      {"custom resource", "RayCluster", R"({"spec":{}})", StatusCode::kUnsupportedMediaType,
       "the body of the request was in an unknown format - accepted media types include: "
       "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"},
  };
  const Json pod = SmpJ(R"({"metadata":{"finalizers":["f"]},
                         "spec":{"containers":[{"name":"app","image":"a"}]}})");
  for (const auto& c : cases) {
    auto got = Sm(c.kind, pod, c.patch);
    ASSERT_FALSE(got.ok()) << c.name;
    EXPECT_EQ(got.status().code(), c.code) << c.name;
    EXPECT_EQ(got.status().message(), c.message) << c.name;
  }
}

TEST(StrategicMergePatch, KindNamesResolveLikeKubectl) {
  auto got = Sm("deploy", PatchDemoDeployment(),
                R"({"spec":{"template":{"spec":{"containers":[{"name":"x","image":"y"}]}}}})");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(Containers(*got).size(), 2u);
}

// ---- CreateThreeWayMergePatch (kubectl apply) -----------------------------------------------

struct ApplyCase {
  Json last_applied;
  Json manifest;
  Json live;
};

// LiveDeployment is what the API server holds: the applied fields plus defaults and status.
ApplyCase DeploymentApply() {
  ApplyCase c;
  c.last_applied = SmpJ(R"({"apiVersion":"apps/v1","kind":"Deployment",
      "metadata":{"name":"web","labels":{"app":"web","team":"a"}},
      "spec":{"replicas":2,"template":{"spec":{"containers":[
        {"name":"app","image":"nginx:1","env":[{"name":"A","value":"1"}]},
        {"name":"log","image":"busybox"}]}}}})");
  c.live = SmpJ(R"({"apiVersion":"apps/v1","kind":"Deployment",
      "metadata":{"name":"web","uid":"u1","labels":{"app":"web","team":"a","injected":"yes"}},
      "spec":{"replicas":2,"progressDeadlineSeconds":600,"template":{"spec":{"containers":[
        {"name":"app","image":"nginx:1","env":[{"name":"A","value":"1"}],"terminationMessagePath":"/dev/termination-log"},
        {"name":"log","image":"busybox"},
        {"name":"mesh-proxy","image":"envoy"}]}}},
      "status":{"replicas":2}})");
  c.manifest = c.last_applied;
  return c;
}

TEST(ThreeWayMergePatch, AnUnchangedManifestGivesAnEmptyPatch) {
  ApplyCase c = DeploymentApply();
  EXPECT_EQ(CreateThreeWayMergePatch("Deployment", c.last_applied, c.manifest, c.live, true),
            Json::object());
}

TEST(ThreeWayMergePatch, WithoutStrategyAListTheServerDefaultedIsSentAgain) {
  // jsonmergepatch compares whole lists, so server-side defaults inside a list make it differ.
  ApplyCase c = DeploymentApply();
  Json patch = CreateThreeWayMergePatch("Deployment", c.last_applied, c.manifest, c.live, false);
  EXPECT_EQ(patch, SmpJ(R"({"spec":{"template":{"spec":{"containers":[
      {"name":"app","image":"nginx:1","env":[{"name":"A","value":"1"}]},
      {"name":"log","image":"busybox"}]}}}})"));
}

TEST(ThreeWayMergePatch, SendsOnlyTheChangedFieldsOfAKeyedElement) {
  ApplyCase c = DeploymentApply();
  c.manifest["spec"]["replicas"] = 3;
  c.manifest["spec"]["template"]["spec"]["containers"][0]["image"] = "nginx:2";
  Json patch = CreateThreeWayMergePatch("Deployment", c.last_applied, c.manifest, c.live, true);
  EXPECT_EQ(patch, SmpJ(R"({"spec":{"replicas":3,"template":{"spec":{
      "$setElementOrder/containers":[{"name":"app"},{"name":"log"}],
      "containers":[{"name":"app","image":"nginx:2"}]}}}})"));
  auto applied = ApplyStrategicMergePatch("Deployment", c.live, patch);
  ASSERT_TRUE(applied.ok()) << applied.status().message();
  const Json& containers = (*applied)["spec"]["template"]["spec"]["containers"];
  ASSERT_EQ(containers.size(), 3u);
  EXPECT_EQ(containers[0]["image"], "nginx:2");
  EXPECT_EQ(containers[0]["terminationMessagePath"], "/dev/termination-log");  // server default kept
  EXPECT_EQ(containers[2]["name"], "mesh-proxy");  // added by someone else, kept
  EXPECT_EQ((*applied)["spec"]["progressDeadlineSeconds"], 600);
}

TEST(ThreeWayMergePatch, DeletesWhatTheLastAppliedHadAndTheManifestDropped) {
  ApplyCase c = DeploymentApply();
  c.manifest["metadata"]["labels"].erase("team");
  c.manifest["spec"]["template"]["spec"]["containers"].erase(1);  // drop "log"
  Json patch = CreateThreeWayMergePatch("Deployment", c.last_applied, c.manifest, c.live, true);
  EXPECT_EQ(patch["metadata"]["labels"], SmpJ(R"({"team":null})"));
  EXPECT_EQ(patch["spec"]["template"]["spec"]["containers"],
            SmpJ(R"([{"name":"log","$patch":"delete"}])"));
  auto applied = ApplyStrategicMergePatch("Deployment", c.live, patch);
  ASSERT_TRUE(applied.ok()) << applied.status().message();
  EXPECT_EQ((*applied)["metadata"]["labels"], SmpJ(R"({"app":"web","injected":"yes"})"));
  const Json& containers = (*applied)["spec"]["template"]["spec"]["containers"];
  ASSERT_EQ(containers.size(), 2u);
  EXPECT_EQ(containers[0]["name"], "app");
  EXPECT_EQ(containers[1]["name"], "mesh-proxy");
}

TEST(ThreeWayMergePatch, KeepsFieldsThatOnlyOthersSet) {
  ApplyCase c = DeploymentApply();
  c.last_applied = Json::object();  // first apply over an object created another way
  Json patch = CreateThreeWayMergePatch("Deployment", c.last_applied, c.manifest, c.live, true);
  EXPECT_EQ(patch, Json::object());
}

TEST(ThreeWayMergePatch, EnvEntriesMergeByName) {
  ApplyCase c = DeploymentApply();
  c.manifest["spec"]["template"]["spec"]["containers"][0]["env"] =
      SmpJ(R"([{"name":"A","value":"1"},{"name":"B","value":"2"}])");
  Json patch = CreateThreeWayMergePatch("Deployment", c.last_applied, c.manifest, c.live, true);
  auto applied = ApplyStrategicMergePatch("Deployment", c.live, patch);
  ASSERT_TRUE(applied.ok()) << applied.status().message();
  EXPECT_EQ((*applied)["spec"]["template"]["spec"]["containers"][0]["env"],
            SmpJ(R"([{"name":"A","value":"1"},{"name":"B","value":"2"}])"));
}

TEST(ThreeWayMergePatch, FinalizersUseThePrimitiveListDirectives) {
  Json last = SmpJ(R"({"metadata":{"finalizers":["a","b"]}})");
  Json manifest = SmpJ(R"({"metadata":{"finalizers":["a","c"]}})");
  Json live = SmpJ(R"({"metadata":{"finalizers":["a","b","x"]}})");
  Json patch = CreateThreeWayMergePatch("Deployment", last, manifest, live, true);
  EXPECT_EQ(patch, SmpJ(R"({"metadata":{"finalizers":["c"],
      "$deleteFromPrimitiveList/finalizers":["b"],
      "$setElementOrder/finalizers":["a","c"]}})"));
  auto applied = ApplyStrategicMergePatch("Deployment", live, patch);
  ASSERT_TRUE(applied.ok()) << applied.status().message();
  EXPECT_EQ((*applied)["metadata"]["finalizers"], SmpJ(R"(["a","c","x"])"));
}

TEST(ThreeWayMergePatch, CustomResourcesGetAJsonMergePatchWithWholeLists) {
  Json last = SmpJ(R"({"spec":{"workerGroupSpecs":[{"groupName":"g","replicas":1}],"old":1}})");
  Json manifest = SmpJ(R"({"spec":{"workerGroupSpecs":[{"groupName":"g","replicas":2}]}})");
  Json live = SmpJ(R"({"spec":{"workerGroupSpecs":[{"groupName":"g","replicas":1}],"old":1,
                            "defaulted":true},"status":{"state":"ready"}})");
  Json patch = CreateThreeWayMergePatch("RayCluster", last, manifest, live, false);
  EXPECT_EQ(patch, SmpJ(R"({"spec":{"old":null,"workerGroupSpecs":[{"groupName":"g","replicas":2}]}})"));
  Json applied = ApplyMergePatch(live, patch);
  EXPECT_EQ(applied["spec"], SmpJ(R"({"workerGroupSpecs":[{"groupName":"g","replicas":2}],"defaulted":true})"));
  EXPECT_EQ(applied["status"]["state"], "ready");
}

TEST(ThreeWayMergePatch, AnElementWithoutItsKeySendsTheListAndTheServerComplains) {
  ApplyCase c = DeploymentApply();
  c.manifest["spec"]["template"]["spec"]["containers"] = SmpJ(R"([{"image":"nginx"}])");
  Json patch = CreateThreeWayMergePatch("Deployment", c.last_applied, c.manifest, c.live, true);
  EXPECT_EQ(patch["spec"]["template"]["spec"]["containers"], SmpJ(R"([{"image":"nginx"}])"));
  auto applied = ApplyStrategicMergePatch("Deployment", c.live, patch);
  ASSERT_FALSE(applied.ok());
  EXPECT_EQ(applied.status().message(),
            "map: map[image:nginx] does not contain declared merge key: name");
}

}  // namespace
}  // namespace api
