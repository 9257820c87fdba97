// Patch objects: the exact bodies client.MergeFrom, MergeFromWithOptimisticLock,
// StrategicMergeFrom, Merge and Apply send, and what the API server does with them — above all
// the 409 Conflict an optimistic-lock patch from a stale base gets, where a plain MergeFrom
// silently overwrites.
// mirrors controller-runtime pkg/client/patch.go and its patch_test.go / client_test.go
// (MergeFrom, MergeFromWithOptimisticLock), evanphx/json-patch v5 CreateMergePatch and
// apimachinery strategicpatch CreateTwoWayMergePatch
#include "core/client/patch.h"

#include <string>

#include <gtest/gtest.h>

#include "tests/informer/fixture.h"

namespace client {
namespace {

using api::Json;
using informer_testing::Cluster;

Json Deployment(const std::string& image = "vllm:0.6.3", int replicas = 1) {
  return Json{{"apiVersion", "apps/v1"},
              {"kind", "Deployment"},
              {"metadata", {{"name", "web"}, {"namespace", "default"}, {"labels", {{"app", "web"}, {"tier", "serving"}}}}},
              {"spec",
               {{"replicas", replicas},
                {"selector", {{"matchLabels", {{"app", "web"}}}}},
                {"template",
                 {{"metadata", {{"labels", {{"app", "web"}}}}},
                  {"spec", {{"containers", Json::array({{{"name", "server"}, {"image", image}}})}}}}}}}};
}

std::string Body(const PatchPtr& patch, const Json& obj) {
  auto data = patch->Data(obj);
  EXPECT_TRUE(data.ok()) << data.status().ToString();
  return data.ok() ? *data : "";
}

TEST(PatchBody, MergeFromSendsOnlyWhatChangedWithSortedKeys) {
  const Json base = Deployment();
  Json modified = base;
  modified["spec"]["replicas"] = 3;
  EXPECT_EQ(Body(MergeFrom(base), modified), R"({"spec":{"replicas":3}})");
  EXPECT_EQ(MergeFrom(base)->Type(), PatchType::kJsonMerge);
  EXPECT_STREQ(ContentType(PatchType::kJsonMerge), "application/merge-patch+json");
  EXPECT_EQ(Body(MergeFrom(base), base), "{}") << "nothing changed: an empty patch";
}

TEST(PatchBody, MergeFromSendsAChangedListWholeAndNullForARemovedKey) {
  const Json base = Deployment();
  Json modified = Deployment("vllm:0.7.0");
  modified["metadata"]["labels"].erase("tier");
  EXPECT_EQ(Body(MergeFrom(base), modified),
            R"({"metadata":{"labels":{"tier":null}},)"
            R"("spec":{"template":{"spec":{"containers":[{"image":"vllm:0.7.0","name":"server"}]}}}})");
}

TEST(PatchBody, StringsAreEscapedAsGoEscapesThem) {
  const Json base = Deployment();
  Json modified = base;
  modified["metadata"]["annotations"] = {{"note", "<a & b>\b\f\x01"}};
  EXPECT_EQ(Body(MergeFrom(base), modified),
            R"({"metadata":{"annotations":{"note":"\u003ca \u0026 b\u003e\b\f\u0001"}}})");
}

TEST(PatchBody, OptimisticLockAddsTheBasesResourceVersion) {
  Json base = Deployment();
  base["metadata"]["resourceVersion"] = "42";
  Json modified = base;
  modified["spec"]["replicas"] = 3;
  EXPECT_EQ(Body(MergeFromWithOptions(base, MergeFromWithOptimisticLock{}), modified),
            R"({"metadata":{"resourceVersion":"42"},"spec":{"replicas":3}})");
  // Even when nothing else changed, the version is sent: the patch is a compare-and-swap.
  EXPECT_EQ(Body(MergeFromWithOptions(base, MergeFromWithOptimisticLock{}), base),
            R"({"metadata":{"resourceVersion":"42"}})");
  // Whatever version the modified copy carries, the base's is the one compared.
  modified["metadata"]["resourceVersion"] = "43";
  EXPECT_EQ(Body(MergeFromWithOptions(base, MergeFromWithOptimisticLock{}), modified),
            R"({"metadata":{"resourceVersion":"42"},"spec":{"replicas":3}})");
  auto none = MergeFromWithOptions(Deployment(), MergeFromWithOptimisticLock{})->Data(modified);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(),
            "cannot use OptimisticLock, object \"default/web\" does not have any resource "
            "version we can use");
}

TEST(PatchBody, StrategicMergeFromDiffsKeyedListsByMergeKey) {
  const Json base = Deployment();
  Json image = Deployment("vllm:0.7.0");
  EXPECT_EQ(Body(StrategicMergeFrom(base), image),
            R"({"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"server"}],)"
            R"("containers":[{"image":"vllm:0.7.0","name":"server"}]}}}})");
  EXPECT_EQ(StrategicMergeFrom(base)->Type(), PatchType::kStrategicMerge);

  Json two = base;
  two["spec"]["template"]["spec"]["containers"].push_back({{"name", "sidecar"}, {"image", "envoy"}});
  // Added: the new element whole, after the unchanged one in $setElementOrder.
  EXPECT_EQ(Body(StrategicMergeFrom(base), two),
            R"({"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"server"},)"
            R"({"name":"sidecar"}],"containers":[{"image":"envoy","name":"sidecar"}]}}}})");
  // Removed: a $patch: delete entry for its key.
  EXPECT_EQ(Body(StrategicMergeFrom(two), base),
            R"({"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"server"}],)"
            R"("containers":[{"$patch":"delete","name":"sidecar"}]}}}})");
  // Reordered only: no content, but the new order.
  Json swapped = two;
  std::swap(swapped["spec"]["template"]["spec"]["containers"][0],
            swapped["spec"]["template"]["spec"]["containers"][1]);
  EXPECT_EQ(Body(StrategicMergeFrom(two), swapped),
            R"({"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"sidecar"},)"
            R"({"name":"server"}]}}}})");
}

TEST(PatchBody, StrategicMergeFromPrimitiveListsAndRetainKeys) {
  Json base = Deployment();
  base["metadata"]["finalizers"] = Json::array({"a.io/x", "a.io/y"});
  Json fewer = base;
  fewer["metadata"]["finalizers"] = Json::array({"a.io/y"});
  EXPECT_EQ(Body(StrategicMergeFrom(base), fewer),
            R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["a.io/x"],)"
            R"("$setElementOrder/finalizers":["a.io/y"]}})");
  Json more = base;
  more["metadata"]["finalizers"].push_back("a.io/z");
  EXPECT_EQ(Body(StrategicMergeFrom(base), more),
            R"({"metadata":{"$setElementOrder/finalizers":["a.io/x","a.io/y","a.io/z"],)"
            R"("finalizers":["a.io/z"]}})");

  // Pod volumes are patchStrategy:"merge,retainKeys": a changed volume lists the keys it keeps,
  // so the API server drops the old volume source.
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", "p"}, {"namespace", "default"}}},
              {"spec",
               {{"containers", Json::array({{{"name", "c"}, {"image", "busybox"}}})},
                {"volumes", Json::array({{{"name", "data"}, {"emptyDir", Json::object()}}})}}}};
  Json config = pod;
  config["spec"]["volumes"][0] = {{"name", "data"}, {"configMap", {{"name", "cm"}}}};
  EXPECT_EQ(Body(StrategicMergeFrom(pod), config),
            R"({"spec":{"$setElementOrder/volumes":[{"name":"data"}],"volumes":[{"$retainKeys":)"
            R"(["configMap","name"],"configMap":{"name":"cm"},"emptyDir":null,"name":"data"}]}})");
}

TEST(PatchBody, StrategicMergeFromTypeChangeReplacesAndCustomListsGoWhole) {
  Json base = Deployment();
  base["metadata"]["annotations"] = {{"weight", 1}};
  Json changed = base;
  changed["metadata"]["annotations"]["weight"] = 1.5;
  EXPECT_EQ(Body(StrategicMergeFrom(base), changed),
            R"({"metadata":{"annotations":{"weight":1.5}}})");
  Json cluster = {{"apiVersion", "ray.io/v1"},
                  {"kind", "RayCluster"},
                  {"metadata", {{"name", "rc"}, {"namespace", "default"}}},
                  {"spec", {{"workerGroupSpecs", Json::array({{{"groupName", "a"}, {"replicas", 1}}})}}}};
  Json scaled = cluster;
  scaled["spec"]["workerGroupSpecs"][0]["replicas"] = 2;
  EXPECT_EQ(Body(StrategicMergeFrom(cluster), scaled),
            R"({"spec":{"workerGroupSpecs":[{"groupName":"a","replicas":2}]}})")
      << "no patch tags on a custom resource's Go types: the list is replaced";
}

TEST(PatchBody, MergeAndApplySendTheObjectItself) {
  const Json obj = Deployment();
  const std::string marshalled =
      R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"labels":{"app":"web",)"
      R"("tier":"serving"},"name":"web","namespace":"default"},"spec":{"replicas":1,)"
      R"("selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":)"
      R"({"app":"web"}},"spec":{"containers":[{"image":"vllm:0.6.3","name":"server"}]}}}})";
  EXPECT_EQ(Body(Merge(), obj), marshalled);
  EXPECT_EQ(Body(Apply(), obj), marshalled);
  EXPECT_EQ(Apply()->Type(), PatchType::kApply);
  EXPECT_STREQ(ContentType(PatchType::kApply), "application/apply-patch+yaml");
  EXPECT_EQ(Body(RawPatch(PatchType::kJsonPatch, R"([{"op":"remove","path":"/spec"}])"), obj),
            R"([{"op":"remove","path":"/spec"}])");
}

struct PatchServerTest : public ::testing::Test {
  Cluster c;
};

// The lost update an optimistic lock prevents: two writers start from the same version.
TEST_F(PatchServerTest, OptimisticLockFromAStaleBaseGets409WhereMergeFromOverwrites) {
  api::ObjectPtr created = c.Create(Deployment());
  ASSERT_NE(created, nullptr);
  const Json stale = *created;  // writer A read this
  // Writer B scales first.
  Json b = stale;
  b["spec"]["replicas"] = 5;
  ASSERT_TRUE(PatchObject(c.admin, b, *MergeFrom(stale)).ok());

  // Writer A changes the image from its stale copy, with the lock.
  Json a = stale;
  a["spec"]["template"]["spec"]["containers"][0]["image"] = "vllm:0.7.0";
  auto locked = PatchObject(c.admin, a, *MergeFromWithOptions(stale, MergeFromWithOptimisticLock{}));
  ASSERT_FALSE(locked.ok());
  EXPECT_EQ(locked.status().code(), base::StatusCode::kConflict);
  EXPECT_EQ(locked.status().message(),
            "Operation cannot be fulfilled on deployments.apps \"web\": the object has been "
            "modified; please apply your changes to the latest version and try again");
  const auto requests = c.Records("api.request");
  ASSERT_FALSE(requests.empty());
  EXPECT_EQ(requests.back().FieldString("verb"), "patch");
  EXPECT_EQ(requests.back().FieldString("code"), "409");
  auto live = c.admin.Get("Deployment", "default", "web");
  ASSERT_TRUE(live.ok());
  EXPECT_EQ((**live)["spec"]["replicas"], 5);
  EXPECT_EQ((**live)["spec"]["template"]["spec"]["containers"][0]["image"], "vllm:0.6.3");

  // Re-read, recompute: the lock now holds.
  Json fresh = **live;
  Json retry = fresh;
  retry["spec"]["template"]["spec"]["containers"][0]["image"] = "vllm:0.7.0";
  ASSERT_TRUE(PatchObject(c.admin, retry, *MergeFromWithOptions(fresh, MergeFromWithOptimisticLock{})).ok());

  // Without the lock, a stale base's patch goes through: only the fields it names change.
  Json blind = stale;
  blind["metadata"]["labels"]["tier"] = "canary";
  ASSERT_TRUE(PatchObject(c.admin, blind, *MergeFrom(stale)).ok());
  live = c.admin.Get("Deployment", "default", "web");
  ASSERT_TRUE(live.ok());
  EXPECT_EQ((**live)["metadata"]["labels"]["tier"], "canary");
  EXPECT_EQ((**live)["spec"]["replicas"], 5);
}

TEST_F(PatchServerTest, StrategicMergeFromKeepsOtherContainersAndIsRefusedForCustomResources) {
  Json two = Deployment();
  two["spec"]["template"]["spec"]["containers"].push_back({{"name", "sidecar"}, {"image", "envoy"}});
  api::ObjectPtr created = c.Create(two);
  ASSERT_NE(created, nullptr);
  Json modified = *created;
  modified["spec"]["template"]["spec"]["containers"][0]["image"] = "vllm:0.7.0";
  auto patched = PatchObject(c.admin, modified, *StrategicMergeFrom(*created));
  ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  EXPECT_EQ((**patched)["spec"]["template"]["spec"]["containers"].size(), 2u);
  EXPECT_EQ((**patched)["spec"]["template"]["spec"]["containers"][0]["image"], "vllm:0.7.0");

  Json isvc = {{"apiVersion", "inference.io/v1"},
               {"kind", "InferenceService"},
               {"metadata", {{"name", "llama"}, {"namespace", "default"}}},
               {"spec", {{"replicas", 1}, {"image", "vllm:0.6.3"}}}};
  api::ObjectPtr cr = c.Create(isvc);
  ASSERT_NE(cr, nullptr);
  Json scaled = *cr;
  scaled["spec"]["replicas"] = 2;
  auto refused = PatchObject(c.admin, scaled, *StrategicMergeFrom(*cr));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), base::StatusCode::kUnsupportedMediaType);
  EXPECT_TRUE(PatchObject(c.admin, scaled, *MergeFrom(*cr)).ok());
}

TEST_F(PatchServerTest, ApplyCreatesThenMerges) {
  auto applied = PatchObject(c.admin, Deployment(), *Apply());
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  EXPECT_EQ((**applied)["spec"]["replicas"], 1);
  Json config = {{"apiVersion", "apps/v1"},
                 {"kind", "Deployment"},
                 {"metadata", {{"name", "web"}, {"namespace", "default"}}},
                 {"spec", {{"replicas", 2}}}};
  applied = PatchObject(c.admin, config, *Apply());
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  EXPECT_EQ((**applied)["spec"]["replicas"], 2);
  EXPECT_EQ((**applied)["spec"]["template"]["spec"]["containers"][0]["image"], "vllm:0.6.3")
      << "fields the configuration does not name are kept";
}

}  // namespace
}  // namespace client
