// Pods created from one template share their equal spec members in storage
// (core/apiserver/internal/sibling_specs.h); nothing a client reads may change.
#include <string>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace apiserver
