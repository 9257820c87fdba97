// Pods created from one template share their equal spec members in storage
// (core/api/sibling_specs.h); nothing a client reads may change.
#include <string>

#include <gtest/gtest.h>

#include "core/api/object.h"
#include "core/api/pointer.h"
#include "core/apiserver/api_server.h"
#include "tests/apiserver/api_server_fixture.h"

namespace apiserver {
namespace {

using api::Json;

const Json::object_t& Members(const Json& j) { return j.get_ref<const Json::object_t&>(); }

class SiblingSpecsTest : public ApiServerFixture {
 protected:
  // CreateFromTemplate creates a Pod named by the server from "<prefix>", built afresh each time
  // as a controller builds it from its template.
  api::ObjectPtr CreateFromTemplate(const std::string& prefix, const std::string& image,
                                    const std::string& ns = "default") {
    Json pod{{"apiVersion", "v1"},
             {"kind", "Pod"},
             {"metadata", {{"generateName", prefix}, {"namespace", ns}}},
             {"spec",
              {{"containers", Json::array({Json{{"name", "web"},
                                                {"image", image},
                                                {"env", Json::array({Json{{"name", "A"},
                                                                          {"value", "1"}}})}}})},
               {"volumes", Json::array({Json{{"name", "shm"}, {"emptyDir", Json::object()}}})}}}};
    auto created = api_.Create(admin_, std::move(pod));
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    return created.ok() ? created.value() : nullptr;
  }
};

TEST_F(SiblingSpecsTest, ASiblingViewsTheFirstPodsEqualContainersAndVolumes) {
  api::ObjectPtr first = CreateFromTemplate("web-", "nginx:1.27");
  api::ObjectPtr second = CreateFromTemplate("web-", "nginx:1.27");
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_NE(api::Name(*first), api::Name(*second));
  EXPECT_TRUE(Members((*second)["spec"]["containers"][0])
                  .SameMembers(Members((*first)["spec"]["containers"][0])));
  EXPECT_TRUE(Members((*second)["spec"]["volumes"][0])
                  .SameMembers(Members((*first)["spec"]["volumes"][0])));
  // Defaults were applied before sharing: both read as a defaulted Pod.
  EXPECT_EQ(api::GetString(*second, "/spec/containers/0/imagePullPolicy"), "IfNotPresent");
  EXPECT_EQ((*second)["spec"], (*first)["spec"]);
}

TEST_F(SiblingSpecsTest, DifferentMembersAndOtherTemplatesKeepTheirOwn) {
  api::ObjectPtr first = CreateFromTemplate("web-", "nginx:1.27");
  api::ObjectPtr other_image = CreateFromTemplate("web-", "nginx:1.28");
  api::ObjectPtr other_prefix = CreateFromTemplate("api-", "nginx:1.27");
  ASSERT_NE(other_image, nullptr);
  ASSERT_NE(other_prefix, nullptr);
  EXPECT_FALSE(Members((*other_image)["spec"]["containers"][0])
                   .SameMembers(Members((*first)["spec"]["containers"][0])));
  EXPECT_EQ(api::GetString(*other_image, "/spec/containers/0/image"), "nginx:1.28");
  // The volumes are still equal to the last sibling's (other_image), so those are shared.
  EXPECT_TRUE(Members((*other_image)["spec"]["volumes"][0])
                  .SameMembers(Members((*first)["spec"]["volumes"][0])));
  EXPECT_FALSE(Members((*other_prefix)["spec"]["containers"][0])
                   .SameMembers(Members((*first)["spec"]["containers"][0])));
}

TEST_F(SiblingSpecsTest, SharedMembersOutliveTheFirstPodAndItsLaterWrites) {
  api::ObjectPtr first = CreateFromTemplate("web-", "nginx:1.27");
  api::ObjectPtr second = CreateFromTemplate("web-", "nginx:1.27");
  const std::string second_name = api::Name(*second);
  const std::string before = second->dump();
  // A spec update of the first Pod (its image) copies its own members, leaving the sibling's.
  Json image_patch = {{"spec", {{"containers", Json::array({Json{{"name", "web"},
                                                               {"image", "nginx:1.29"}}})}}}};
  {
    auto patched = api_.Patch(admin_, "Pod", "default", api::Name(*first),
                              PatchType::kStrategicMerge, image_patch);
    ASSERT_TRUE(patched.ok()) << patched.status().ToString();
    EXPECT_EQ(api::GetString(**patched, "/spec/containers/0/image"), "nginx:1.29");
  }
  ASSERT_TRUE(api_.Delete(admin_, "Pod", "default", api::Name(*first)).ok());
  first.reset();
  Settle();
  EXPECT_EQ(second->dump(), before);
  api::ObjectPtr stored = api_.Peek("Pod", "default", second_name);
  ASSERT_NE(stored, nullptr);
  EXPECT_EQ(api::GetString(*stored, "/spec/containers/0/image"), "nginx:1.27");
  EXPECT_EQ(api::GetString(*stored, "/spec/containers/0/env/0/value"), "1");
  // The next sibling of a deleted Pod's successor shares with the newest one still stored.
  api::ObjectPtr third = CreateFromTemplate("web-", "nginx:1.27");
  EXPECT_TRUE(Members((*third)["spec"]["containers"][0])
                  .SameMembers(Members((*stored)["spec"]["containers"][0])));
}

// A worker template as a controller holds it: not defaulted (the API server defaults each Pod).
Json WorkerTemplate(const std::string& prefix, const std::string& image) {
  return Json{
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"generateName", prefix}, {"namespace", "default"}}},
      {"spec",
       {{"containers", Json::array({Json{{"name", "worker"}, {"image", image}}})},
        {"volumes", Json::array({Json{{"name", "cfg"}, {"configMap", {{"name", "ray-cfg"}}}}})}}}};
}

TEST_F(SiblingSpecsTest, PodsStampedFromOneTemplateTakeTheFirstOnesDefaultedSpec) {
  const Json tmpl = WorkerTemplate("ray-worker-", "rayproject/ray:2.9.0");
  const std::string tmpl_before = tmpl.dump();
  auto first = api_.Create(admin_, api::ShareEachMember(tmpl, 0));
  auto second = api_.Create(admin_, api::ShareEachMember(tmpl, 0));
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  const Json& spec = (**second)["spec"];
  // The second Pod's whole spec is the first one's stored spec, defaulted once.
  EXPECT_TRUE(Members(spec).SameMembers(Members((**first)["spec"])));
  EXPECT_EQ(api::GetString(spec, "/dnsPolicy"), "ClusterFirst");
  EXPECT_EQ(api::GetString(spec, "/containers/0/imagePullPolicy"), "IfNotPresent");
  EXPECT_EQ(spec["volumes"][0]["configMap"]["defaultMode"], 420);
  // Each is what defaulting a Pod of its own gives.
  auto own = api_.Create(admin_, Json(tmpl));
  ASSERT_TRUE(own.ok()) << own.status().ToString();
  EXPECT_EQ((**own)["spec"], spec);
  EXPECT_EQ((**first)["spec"], spec);
  // Defaulting the first (its spec copied from the template's) wrote nothing into the template.
  EXPECT_EQ(tmpl.dump(), tmpl_before);
}

// With every top-level default already set, defaulting only writes into the containers and
// volumes: below the spec's top level, where a view would pass the writes on to its template.
TEST_F(SiblingSpecsTest, DefaultsBelowTheTopLevelNeverReachTheTemplate) {
  Json tmpl = WorkerTemplate("ray-worker-", "rayproject/ray:2.9.0");
  Json& spec = tmpl["spec"];
  spec["restartPolicy"] = "Always";
  spec["terminationGracePeriodSeconds"] = 30;
  spec["dnsPolicy"] = "ClusterFirst";
  spec["schedulerName"] = "default-scheduler";
  spec["securityContext"] = Json::object();
  spec["enableServiceLinks"] = true;
  spec["priority"] = 0;
  spec["preemptionPolicy"] = "PreemptLowerPriority";
  const std::string before = tmpl.dump();
  auto created = api_.Create(admin_, api::ShareEachMember(tmpl, 0));
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(api::GetString(**created, "/spec/containers/0/terminationMessagePath"),
            "/dev/termination-log");
  EXPECT_EQ(tmpl.dump(), before);
  EXPECT_EQ(api::GetString(tmpl, "/spec/containers/0/terminationMessagePath"), "");
}

TEST_F(SiblingSpecsTest, AnotherTemplateBlockIsDefaultedAfresh) {
  const Json tmpl = WorkerTemplate("ray-worker-", "rayproject/ray:2.9.0");
  auto first = api_.Create(admin_, api::ShareEachMember(tmpl, 0));
  // Equal content in another block (the next reconcile's template): defaulted again, then its
  // members shared with the sibling's as before; the spec object is its own.
  const Json next_tmpl = WorkerTemplate("ray-worker-", "rayproject/ray:2.9.0");
  auto next = api_.Create(admin_, api::ShareEachMember(next_tmpl, 0));
  // A different image under the same template name is not taken for the sibling's.
  const Json other_tmpl = WorkerTemplate("ray-worker-", "rayproject/ray:latest");
  auto other = api_.Create(admin_, api::ShareEachMember(other_tmpl, 0));
  ASSERT_TRUE(first.ok() && next.ok() && other.ok());
  EXPECT_FALSE(Members((**next)["spec"]).SameMembers(Members((**first)["spec"])));
  EXPECT_EQ((**next)["spec"], (**first)["spec"]);
  EXPECT_TRUE(Members((**next)["spec"]["containers"][0])
                  .SameMembers(Members((**first)["spec"]["containers"][0])));
  EXPECT_EQ(api::GetString(**other, "/spec/containers/0/imagePullPolicy"), "Always");
  EXPECT_EQ(api::GetString(**other, "/spec/containers/0/image"), "rayproject/ray:latest");
}

TEST_F(SiblingSpecsTest, OtherKindsViewingATemplateAreDefaultedOnTheirOwnMembers) {
  const Json tmpl = {
      {"apiVersion", "apps/v1"},
      {"kind", "ReplicaSet"},
      {"metadata", {{"name", "web"}, {"namespace", "default"}}},
      {"spec",
       {{"selector", {{"matchLabels", {{"app", "web"}}}}},
        {"template",
         {{"metadata", {{"labels", {{"app", "web"}}}}},
          {"spec", {{"containers", Json::array({Json{{"name", "web"}, {"image", "nginx"}}})}}}}}}}};
  const std::string before = tmpl.dump();
  auto created = api_.Create(admin_, api::ShareEachMember(tmpl, 0));
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ((**created)["spec"]["replicas"], 1);
  EXPECT_EQ(api::GetString(**created, "/spec/template/spec/containers/0/imagePullPolicy"),
            "Always");
  EXPECT_EQ(tmpl.dump(), before);
}

}  // namespace
}  // namespace apiserver
