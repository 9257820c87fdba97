// The API server's Service ClusterIP allocation: in creation order from 10.96.0.0/12, none for
// headless or ExternalName Services, kept across updates, freed on delete, a requested address
// honoured when free and in range.
// Mirrors: kubernetes pkg/registry/core/service/ipallocator/bitmap_test.go (TestAllocate,
// TestAllocateReserved, "not in the valid range") and pkg/registry/core/service/storage/
// storage_test.go (TestCreateInitClusterIPsFromClusterIP, TestUpdatePatchAllocatedValues,
// TestDeleteReleasesAllocations).
#include "core/apiserver/api_server.h"
#include "tests/apiserver/api_server_fixture.h"

#include <string>

#include <gtest/gtest.h>

namespace apiserver {
namespace {

using api::Json;

class ClusterIPTest : public ApiServerFixture {
 protected:
  static Json Service(const std::string& name, Json spec = Json::object()) {
    spec["selector"] = {{"app", name}};
    spec["ports"] = Json::array({Json{{"port", 80}}});
    return {{"apiVersion", "v1"},
            {"kind", "Service"},
            {"metadata", {{"name", name}, {"namespace", "default"}}},
            {"spec", spec}};
  }
  // Create returns the created Service's spec.clusterIP, or the error message.
  std::string Create(Json svc) {
    auto created = api_.Create(admin_, std::move(svc));
    if (!created.ok()) return created.status().message();
    return (**created)["spec"].value("clusterIP", "<unset>");
  }
  Json Stored(const std::string& name) { return *api_.Peek("Service", "default", name); }
};

TEST_F(ClusterIPTest, AllocatesInCreationOrderSkippingTheWellKnownServices) {
  EXPECT_EQ(Create(Service("a")), "10.96.0.2") << "10.96.0.1 is the kubernetes Service's";
  EXPECT_EQ(Create(Service("b")), "10.96.0.3");
  EXPECT_EQ(Stored("b")["spec"]["clusterIPs"], Json::array({"10.96.0.3"}));
  for (int i = 4; i <= 9; ++i) Create(Service("s" + std::to_string(i)));
  EXPECT_EQ(Create(Service("c")), "10.96.0.11") << "10.96.0.10 is kube-dns's";
}

TEST_F(ClusterIPTest, HeadlessAndExternalNameGetNoAddress) {
  EXPECT_EQ(Create(Service("headless", {{"clusterIP", "None"}})), "None");
  EXPECT_EQ(Stored("headless")["spec"]["clusterIPs"], Json::array({"None"}));
  EXPECT_EQ(Create(Service("ext", {{"type", "ExternalName"}, {"externalName", "example.com"}})),
            "<unset>");
  EXPECT_EQ(Create(Service("next")), "10.96.0.2") << "neither used an address";
}

TEST_F(ClusterIPTest, RequestedAddressMustBeFreeAndInRange) {
  EXPECT_EQ(Create(Service("pinned", {{"clusterIP", "10.96.5.5"}})), "10.96.5.5");
  EXPECT_EQ(Create(Service("again", {{"clusterIP", "10.96.5.5"}})),
            "Service \"again\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.96.5.5\"}: "
            "failed to allocate IP 10.96.5.5: provided IP is already allocated");
  const std::string outside = Create(Service("outside", {{"clusterIP", "10.112.0.1"}}));
  EXPECT_NE(outside.find("is not in the valid range. The range of valid IPs is 10.96.0.0/12"),
            std::string::npos)
      << outside;
  EXPECT_NE(Create(Service("garbage", {{"clusterIP", "10.96.0.300"}})).find("must be a valid IP address"),
            std::string::npos);
  EXPECT_EQ(api_.Peek("Service", "default", "again"), nullptr) << "a rejected create stores nothing";
}

TEST_F(ClusterIPTest, UpdateKeepsTheAddressAndMayNotChangeIt) {
  ASSERT_EQ(Create(Service("web")), "10.96.0.2");
  Json next = Stored("web");
  next["spec"].erase("clusterIP");
  next["spec"].erase("clusterIPs");
  next["metadata"]["labels"] = {{"tier", "front"}};
  auto updated = api_.Update(admin_, next);
  ASSERT_TRUE(updated.ok()) << updated.status().ToString();
  EXPECT_EQ((**updated)["spec"]["clusterIP"], "10.96.0.2") << "an update that omits it keeps it";

  Json moved = **updated;
  moved["spec"]["clusterIP"] = "10.96.0.9";
  moved["spec"]["clusterIPs"] = Json::array({"10.96.0.9"});
  auto rejected = api_.Update(admin_, moved);
  ASSERT_FALSE(rejected.ok());
  EXPECT_NE(rejected.status().message().find("may not change once set"), std::string::npos);
}

TEST_F(ClusterIPTest, DeleteReleasesTheAddress) {
  ASSERT_EQ(Create(Service("old", {{"clusterIP", "10.96.7.7"}})), "10.96.7.7");
  EXPECT_NE(Create(Service("dup", {{"clusterIP", "10.96.7.7"}})), "10.96.7.7");
  ASSERT_TRUE(api_.Delete(admin_, "Service", "default", "old").ok());
  EXPECT_EQ(Create(Service("new", {{"clusterIP", "10.96.7.7"}})), "10.96.7.7");
}

}  // namespace
}  // namespace apiserver
