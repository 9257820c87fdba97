// A Pod's spec through an update: what kube-apiserver lets change after creation (images,
// activeDeadlineSeconds, added tolerations, removed scheduling gates, a negative grace period
// set to 1) and the 422 for anything else, which leaves the stored Pod as it was.
#include <string>

#include <gtest/gtest.h>

#include "core/api/pointer.h"
#include "tests/apiserver/api_server_fixture.h"

namespace apiserver {
namespace {

using api::Json;

constexpr const char* kForbidden =
    "Pod \"web\" is invalid: spec: Forbidden: pod updates may not change fields other than "
    "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
    "`spec.tolerations` (only additions to existing tolerations),"
    "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

class PodUpdateTest : public ApiServerFixture {
 protected:
  PodUpdateTest() {
    Json pod = Json::parse(R"({"apiVersion":"v1","kind":"Pod",
      "metadata":{"name":"web","namespace":"default","labels":{"app":"web"}},
      "spec":{"containers":[{"name":"web","image":"nginx:1",
                             "resources":{"requests":{"cpu":"500m","memory":"1Gi"}}}],
              "initContainers":[{"name":"init","image":"busybox:1"}],
              "tolerations":[{"key":"gpu","operator":"Exists","effect":"NoExecute",
                              "tolerationSeconds":60}],
              "schedulingGates":[{"name":"quota"},{"name":"review"}]}})");
    auto created = api_.Create(admin_, std::move(pod));
    EXPECT_TRUE(created.ok()) << created.status().ToString();
  }

  base::StatusOr<api::ObjectPtr> Patch(const char* patch) {
    return api_.Patch(admin_, "Pod", "default", "web", PatchType::kJsonMerge, Json::parse(patch));
  }
  std::string StoredRv() { return api::ResourceVersion(*api_.Peek("Pod", "default", "web")); }
  Json StoredSpec() { return (*api_.Peek("Pod", "default", "web"))["spec"]; }

  // ExpectRefused checks a 422 whose message starts with `prefix` and contains `detail`, and
  // that the stored Pod did not move.
  void ExpectRefused(const char* patch, const std::string& prefix, const std::string& detail) {
    const std::string rv = StoredRv();
    const Json spec = StoredSpec();
    auto patched = Patch(patch);
    ASSERT_FALSE(patched.ok()) << patch;
    EXPECT_EQ(patched.status().code(), base::StatusCode::kInvalid);
    EXPECT_EQ(patched.status().message().substr(0, prefix.size()), prefix)
        << patched.status().message();
    EXPECT_NE(patched.status().message().find(detail), std::string::npos)
        << patched.status().message();
    EXPECT_EQ(StoredRv(), rv);
    EXPECT_EQ(StoredSpec(), spec);
  }
};

TEST_F(PodUpdateTest, ContainerResourcesAreRefusedWithTheChangedField) {
  ExpectRefused(
      R"({"spec":{"containers":[{"name":"web","image":"nginx:1",
          "resources":{"requests":{"cpu":"500m","memory":"2Gi"}}}]}})",
      kForbidden, "\n  spec.containers[0].resources.requests.memory: \"1Gi\" -> \"2Gi\"");
}

TEST_F(PodUpdateTest, EnvPortsNodeNameAndAddedContainersAreRefused) {
  ExpectRefused(R"({"spec":{"containers":[{"name":"web","image":"nginx:1",
                  "resources":{"requests":{"cpu":"500m","memory":"1Gi"}},
                  "env":[{"name":"A","value":"1"}]}]}})",
                kForbidden,
                "spec.containers[0].env: <unset> -> [{\"name\":\"A\",\"value\":\"1\"}]");
  ExpectRefused(R"({"spec":{"nodeName":"node-9"}})", kForbidden,
                "spec.nodeName: <unset> -> \"node-9\"");
  ExpectRefused(R"({"spec":{"containers":[
                  {"name":"web","image":"nginx:1",
                   "resources":{"requests":{"cpu":"500m","memory":"1Gi"}}},
                  {"name":"sidecar","image":"envoy:1"}]}})",
                kForbidden, "spec.containers: [");
}

TEST_F(PodUpdateTest, ImagesOfContainersAndInitContainersMayChange) {
  const std::string rv = StoredRv();
  auto patched = Patch(R"({"spec":{"containers":[{"name":"web","image":"nginx:2",
      "resources":{"requests":{"cpu":"500m","memory":"1Gi"}}}],
      "initContainers":[{"name":"init","image":"busybox:2"}]}})");
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  EXPECT_NE(StoredRv(), rv);
  EXPECT_EQ(api::GetString(**patched, "/spec/containers/0/image"), "nginx:2");
  EXPECT_EQ(api::GetString(**patched, "/spec/initContainers/0/image"), "busybox:2");
}

TEST_F(PodUpdateTest, MetadataMayChangeOnARunningPod) {
  auto patched = Patch(R"({"metadata":{"labels":{"app":"web","tier":"front"}}})");
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  EXPECT_EQ(api::GetString(**patched, "/metadata/labels/tier"), "front");
}

TEST_F(PodUpdateTest, ActiveDeadlineSecondsMayBeSetAndLoweredOnly) {
  ASSERT_TRUE(Patch(R"({"spec":{"activeDeadlineSeconds":300}})").ok());
  ASSERT_TRUE(Patch(R"({"spec":{"activeDeadlineSeconds":200}})").ok());
  ExpectRefused(R"({"spec":{"activeDeadlineSeconds":400}})",
                "Pod \"web\" is invalid: spec.activeDeadlineSeconds: Invalid value: 400: "
                "must be less than or equal to previous value",
                "");
  ExpectRefused(R"({"spec":{"activeDeadlineSeconds":null}})",
                "Pod \"web\" is invalid: spec.activeDeadlineSeconds: Invalid value: \"null\": "
                "must not update from a positive integer to nil value",
                "");
  ExpectRefused(R"({"spec":{"activeDeadlineSeconds":-1}})",
                "Pod \"web\" is invalid: spec.activeDeadlineSeconds: Invalid value: -1: "
                "must be between 0 and 2147483647, inclusive",
                "");
  EXPECT_EQ(StoredSpec()["activeDeadlineSeconds"], Json(200));
}

TEST_F(PodUpdateTest, TolerationsMayBeAddedOrChangeTheirSecondsOnly) {
  ASSERT_TRUE(Patch(R"({"spec":{"tolerations":[
      {"key":"gpu","operator":"Exists","effect":"NoExecute","tolerationSeconds":30},
      {"key":"spot","operator":"Exists","effect":"NoSchedule"}]}})")
                  .ok());
  EXPECT_EQ(StoredSpec()["tolerations"].size(), 2u);
  ExpectRefused(R"({"spec":{"tolerations":[
                  {"key":"gpu","operator":"Exists","effect":"NoSchedule"}]}})",
                "Pod \"web\" is invalid: spec.tolerations: Forbidden: existing toleration "
                "can not be modified except its tolerationSeconds",
                "");
}

TEST_F(PodUpdateTest, SchedulingGatesMayOnlyBeRemoved) {
  ASSERT_TRUE(Patch(R"({"spec":{"schedulingGates":[{"name":"review"}]}})").ok());
  ExpectRefused(R"({"spec":{"schedulingGates":[{"name":"review"},{"name":"late"}]}})",
                "Pod \"web\" is invalid: spec.schedulingGates[1].name: Forbidden: only "
                "deletion is allowed, but found new scheduling gate 'late'",
                "");
}

TEST_F(PodUpdateTest, ANegativeGracePeriodMayBecomeOneAndNothingElse) {
  ExpectRefused(R"({"spec":{"terminationGracePeriodSeconds":5}})", kForbidden,
                "spec.terminationGracePeriodSeconds: 30 -> 5");
  // A Pod stored with a negative grace period.
  Json pod = Json::parse(R"({"apiVersion":"v1","kind":"Pod",
      "metadata":{"name":"neg","namespace":"default"},
      "spec":{"terminationGracePeriodSeconds":-1,
              "containers":[{"name":"web","image":"nginx:1"}]}})");
  ASSERT_TRUE(api_.Create(admin_, std::move(pod)).ok());
  auto patched = api_.Patch(admin_, "Pod", "default", "neg", PatchType::kJsonMerge,
                            Json::parse(R"({"spec":{"terminationGracePeriodSeconds":1}})"));
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  EXPECT_EQ((**patched)["spec"]["terminationGracePeriodSeconds"], Json(1));
}

TEST_F(PodUpdateTest, StatusWritesAreNotSpecUpdates) {
  auto patched = api_.Patch(admin_, "Pod", "default", "web", PatchType::kJsonMerge,
                            Json::parse(R"({"status":{"phase":"Running"}})"), "status");
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  EXPECT_EQ(api::GetString(**patched, "/status/phase"), "Running");
}

}  // namespace
}  // namespace apiserver
