#include "core/api/fields.h"

#include <string>

#include <gtest/gtest.h>

namespace api {
namespace {

const Json kPod = Json::parse(R"({
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {"name": "p", "namespace": "ns", "uid": 7, "labels": {"app": "a", "n": 1},
               "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs",
                                    "uid": "u1", "controller": true}]},
  "spec": {"nodeName": "node-1",
           "containers": [{"name": "c", "image": "busybox",
                           "resources": {"requests": {"cpu": "1"}}}]},
  "status": {"phase": "Running", "podIPs": [{"ip": "10.0.0.1"}],
             "conditions": [{"type": "Ready", "status": "True", "lastProbeTime": null}],
             "containerStatuses": [{"name": "c", "state": {"terminated": {"exitCode": 0}}}]}
})");

TEST(FieldsTest, TextsAreReadInPlaceAndEmptyWhenAbsentOrNotAString) {
  const Json& name = kPod.at("metadata").at("name");
  EXPECT_EQ(&ObjectMeta(kPod).Name(), &name.get_ref<const std::string&>());  // in place
  EXPECT_EQ(ObjectMeta(kPod).Namespace(), "ns");
  EXPECT_EQ(ObjectMeta(kPod).Uid(), "");              // not a string
  EXPECT_EQ(ObjectMeta(kPod).ResourceVersion(), "");  // absent
  EXPECT_FALSE(ObjectMeta(kPod).HasResourceVersion());
  EXPECT_EQ(ObjectMeta(Json()).Name(), "");           // not an object
  EXPECT_EQ(TypeMeta(kPod).Kind(), "Pod");
  EXPECT_EQ(PodSpec(kPod).NodeName(), "node-1");
  EXPECT_EQ(PodSpec(kPod).SchedulerName(), "");
  EXPECT_EQ(PodStatus(kPod).Phase(), "Running");
  EXPECT_EQ(PodStatus(Json::object()).Phase(), "");
}

TEST(FieldsTest, ObjectsAndListsArePointersNullWhenAbsent) {
  EXPECT_EQ(ObjectMeta(kPod).Labels(), &kPod.at("metadata").at("labels"));
  EXPECT_EQ(ObjectMeta(kPod).Annotations(), nullptr);
  EXPECT_EQ(ObjectMeta(kPod).DeletionTimestamp(), nullptr);
  EXPECT_EQ(SpecOf(kPod), &kPod.at("spec"));
  EXPECT_EQ(StatusOf(Json::object()), nullptr);
  EXPECT_EQ(PodSpec(kPod).InitContainers(), nullptr);
  EXPECT_TRUE(OrNull(nullptr).is_null());
  const Json& container = PodSpec(kPod).Containers()->at(0);
  EXPECT_EQ(Container(container).Name(), "c");
  EXPECT_EQ(Container(container).Image(), "busybox");
  EXPECT_EQ(*Container(container).ResourceRequests(), Json::parse(R"({"cpu": "1"})"));
  const Json& ip = PodStatus(kPod).PodIPs()->at(0);
  EXPECT_EQ(PodIP(ip).IP(), "10.0.0.1");
  const Json& cs = PodStatus(kPod).ContainerStatuses()->at(0);
  EXPECT_EQ(ContainerStatus(cs).Name(), "c");
  EXPECT_EQ(*ContainerStatus(cs).Terminated(), Json::parse(R"({"exitCode": 0})"));
  const Json& ready = PodStatus(kPod).Conditions()->at(0);
  EXPECT_EQ(Condition(ready).Type(), "Ready");
  EXPECT_EQ(Condition(ready).Status(), "True");
  EXPECT_EQ(Condition(ready).Reason(), "");
  EXPECT_TRUE(Condition(ready).LastProbeTime()->is_null());
  EXPECT_EQ(Condition(ready).LastTransitionTime(), nullptr);
  const Json& ref = ObjectMeta(kPod).OwnerReferences()->at(0);
  EXPECT_EQ(OwnerRef(ref).Kind(), "ReplicaSet");
  EXPECT_EQ(OwnerRef(ref).Uid(), "u1");
}

TEST(FieldsTest, ALabelKeyFindsStringValuesOnly) {
  EXPECT_EQ(*LabelKey("app").ValueIn(kPod), "a");
  EXPECT_EQ(LabelKey("n").ValueIn(kPod), nullptr);  // not a string
  EXPECT_EQ(LabelKey("missing").ValueIn(kPod), nullptr);
  EXPECT_EQ(LabelKey("app").ValueIn(Json::object()), nullptr);
}

TEST(FieldsTest, BuildersWriteWhatTheViewsRead) {
  Json obj = Json::object();
  ObjectBuilder b(obj);
  b.SetApiVersion("v1");
  b.SetKind("Pod");
  b.SetName("p");
  b.SetNamespace("ns");
  b.SetResourceVersion("5");
  b.SetGeneration(2);
  EXPECT_EQ(obj, Json::parse(R"({"apiVersion": "v1", "kind": "Pod", "metadata":
                                  {"generation": 2, "name": "p", "namespace": "ns",
                                   "resourceVersion": "5"}})"));
  Json status = Json::object();
  PodStatusBuilder s(status);
  s.SetPhase("Pending");
  s.SetPodIPs(Json::array({PodIPEntry("10.0.0.2")}));
  Json cs = Json::object();
  ContainerStatusBuilder c(cs);
  c.SetName("c");
  c.SetReady(false);
  c.SetState(ContainerStateWaiting("ErrImagePull", ""));
  s.SetContainerStatuses(Json::array({cs}));
  EXPECT_EQ(status, Json::parse(R"({"phase": "Pending", "podIPs": [{"ip": "10.0.0.2"}],
      "containerStatuses": [{"name": "c", "ready": false,
                             "state": {"waiting": {"reason": "ErrImagePull"}}}]})"));
  EXPECT_EQ(ContainerStateRunning("t"), Json::parse(R"({"running": {"startedAt": "t"}})"));
  Json condition = Json::object();
  ConditionBuilder cb(condition);
  cb.SetType("Ready");
  cb.SetStatus("False");
  cb.SetLastProbeTime(nullptr);
  EXPECT_EQ(condition,
            Json::parse(R"({"lastProbeTime": null, "status": "False", "type": "Ready"})"));
}

}  // namespace
}  // namespace api
