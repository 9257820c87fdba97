#include "core/world/workloads/endpoints_controller.h"

#include <gtest/gtest.h>

#include <string>

#include "core/informer/label_index.h"

#include "tests/world/workloads/world_fixture.h"

namespace world {
namespace {

using api::Json;
using testing::DeploymentJson;
using testing::WorldFixture;

Json ServiceJson(const std::string& name, const Json& target_port) {
  return Json{
      {"apiVersion", "v1"},
      {"kind", "Service"},
      {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", {{"team", "a"}}}}},
      {"spec",
       {{"selector", {{"app", name}}},
        {"ports",
         Json::array({Json{{"name", "http"}, {"port", 80}, {"targetPort", target_port}}})}}}};
}

size_t Size(const api::ObjectPtr& ep, const char* list) {
  if (ep == nullptr) return 0;
  const Json& subsets = JsonAt(*ep, "/subsets");
  if (!subsets.is_array()) return 0;
  size_t n = 0;
  for (const Json& s : subsets) {
    if (s.contains(list)) n += s[list].size();
  }
  return n;
}

TEST(EndpointsController, TracksReadinessOfSelectedPods) {
  WorldFixture f;
  f.Create(ServiceJson("web", 8080));
  f.Run(20 * base::kMillisecond);
  auto ep = f.Get("Endpoints", "web");
  ASSERT_NE(ep, nullptr);
  EXPECT_FALSE(ep->contains("subsets"));
  EXPECT_EQ(api::Labels(*ep).at("team"), "a");

  f.Create(DeploymentJson("web", 2));
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", "web"), "notReadyAddresses") == 2; },
                         5 * base::kSecond));
  EXPECT_EQ(Size(f.Get("Endpoints", "web"), "addresses"), 0u);
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", "web"), "addresses") == 2; },
                         10 * base::kSecond));
  ep = f.Get("Endpoints", "web");
  EXPECT_EQ(Size(ep, "notReadyAddresses"), 0u);
  const Json& subset = (*ep)["subsets"][0];
  EXPECT_EQ(subset["ports"][0], (Json{{"name", "http"}, {"port", 8080}, {"protocol", "TCP"}}));
  EXPECT_EQ(subset["addresses"][0]["targetRef"]["kind"], "Pod");
  EXPECT_TRUE(subset["addresses"][0].contains("nodeName"));
  EXPECT_LT(subset["addresses"][0]["ip"].get<std::string>(),
            subset["addresses"][1]["ip"].get<std::string>());

  // A killed container is not ready: its address moves until it is ready again.
  const std::string pod = subset["addresses"][0]["targetRef"]["name"];
  ASSERT_TRUE(f.world->KillPod("default", pod, "Error").ok());
  f.Run(20 * base::kMillisecond);
  EXPECT_EQ(Size(f.Get("Endpoints", "web"), "addresses"), 1u);
  EXPECT_EQ(Size(f.Get("Endpoints", "web"), "notReadyAddresses"), 1u);
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", "web"), "addresses") == 2; },
                         10 * base::kSecond));
}

// The controller remembers which Services select each Pod between the Pod's status writes; a
// Service created after the Pods must still hear their later readiness changes.
TEST(EndpointsController, AServiceCreatedAfterItsPodsFollowsTheirReadiness) {
  WorldFixture f;
  f.Create(DeploymentJson("web", 2));
  f.Run(300 * base::kMillisecond);  // the Pods exist and have had status writes, not yet ready
  f.Create(ServiceJson("web", 8080));
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", "web"), "notReadyAddresses") == 2; },
                         base::kSecond));
  EXPECT_EQ(Size(f.Get("Endpoints", "web"), "addresses"), 0u);
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", "web"), "addresses") == 2; },
                         10 * base::kSecond));
  EXPECT_EQ(Size(f.Get("Endpoints", "web"), "notReadyAddresses"), 0u);
}

// The same when a Service's selector changes to Pods whose memberships were remembered: the
// change must reach them, so their later readiness changes update the Service's Endpoints.
TEST(EndpointsController, AServiceWhoseSelectorMovesFollowsItsNewPods) {
  WorldFixture f;
  Json svc = ServiceJson("front", 8080);
  svc["spec"]["selector"] = {{"app", "nothing-yet"}};
  f.Create(svc);
  f.Create(DeploymentJson("web", 2));
  f.Run(300 * base::kMillisecond);  // the Pods exist and have had status writes, not yet ready
  EXPECT_EQ(Size(f.Get("Endpoints", "front"), "notReadyAddresses"), 0u);
  auto moved = f.admin.Patch("Service", "default", "front", client::PatchType::kJsonMerge,
                             Json{{"spec", {{"selector", {{"app", "web"}}}}}});
  ASSERT_TRUE(moved.ok()) << moved.status().ToString();
  ASSERT_TRUE(f.RunUntil(
      [&] { return Size(f.Get("Endpoints", "front"), "notReadyAddresses") == 2; }, base::kSecond));
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", "front"), "addresses") == 2; },
                         10 * base::kSecond));
  EXPECT_EQ(Size(f.Get("Endpoints", "front"), "notReadyAddresses"), 0u);
}

TEST(EndpointsController, ResolvesNamedTargetPortsAndDropsDeletedServices) {
  WorldFixture f;
  f.Create(ServiceJson("api", "web"));
  Json d = DeploymentJson("api", 1);
  d["spec"]["template"]["spec"]["containers"][0]["ports"] =
      Json::array({Json{{"name", "web"}, {"containerPort", 9000}}});
  f.Create(d);
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", "api"), "addresses") == 1; },
                         10 * base::kSecond));
  EXPECT_EQ((*f.Get("Endpoints", "api"))["subsets"][0]["ports"][0]["port"], 9000);

  ASSERT_TRUE(f.admin.Delete("Service", "default", "api").ok());
  f.Run(20 * base::kMillisecond);
  EXPECT_EQ(f.Get("Endpoints", "api"), nullptr);
}

// Upstream's controller watches Endpoints for deletions only (onEndpointsDelete): a deleted
// Endpoints comes back at once, an edited one stays as edited until the Service or one of its
// Pods next changes.
TEST(EndpointsController, ADeletedEndpointsComesBackAnEditWaitsForTheNextChange) {
  WorldFixture f;
  f.Create(ServiceJson("web", 8080));
  f.Create(DeploymentJson("web", 1));
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", "web"), "addresses") == 1; },
                         10 * base::kSecond));
  ASSERT_TRUE(f.admin
                  .Patch("Endpoints", "default", "web", client::PatchType::kJsonMerge,
                         Json{{"subsets", nullptr}})
                  .ok());
  f.Run(1 * base::kSecond);
  EXPECT_FALSE(f.Get("Endpoints", "web")->contains("subsets")) << "an edit is not undone";

  ASSERT_TRUE(f.admin.Delete("Endpoints", "default", "web").ok());
  f.Run(20 * base::kMillisecond);
  ASSERT_NE(f.Get("Endpoints", "web"), nullptr) << "a deletion is";
  EXPECT_EQ(Size(f.Get("Endpoints", "web"), "addresses"), 1u);
}

TEST(EndpointsController, LeavesServicesWithoutSelectorAlone) {
  WorldFixture f;
  Json svc = ServiceJson("manual", 80);
  svc["spec"].erase("selector");
  f.Create(svc);
  f.Run(50 * base::kMillisecond);
  EXPECT_EQ(f.Get("Endpoints", "manual"), nullptr);
}

TEST(EndpointsController, TerminatingPodsLeaveTheEndpoints) {
  WorldFixture f;
  f.Create(ServiceJson("web", 80));
  f.Create(testing::PodJson("web"));
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", "web"), "addresses") == 1; },
                         10 * base::kSecond));
  ASSERT_TRUE(f.admin.Delete("Pod", "default", "web").ok());
  f.Run(20 * base::kMillisecond);
  EXPECT_EQ(f.Get("Pod", "web") != nullptr, true);  // still terminating
  EXPECT_EQ(Size(f.Get("Endpoints", "web"), "addresses"), 0u);
  EXPECT_EQ(Size(f.Get("Endpoints", "web"), "notReadyAddresses"), 0u);
}

// A label change moves the Pod in the controller's label index: status writes keep the labels
// and skip the index, so a relabel must still take the Pod out of (and back into) the Endpoints.
TEST(EndpointsController, RelabelledPodsLeaveAndRejoinTheEndpoints) {
  WorldFixture f;
  f.Create(ServiceJson("web", 80));
  f.Create(testing::PodJson("web"));
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", "web"), "addresses") == 1; },
                         10 * base::kSecond));
  auto relabel = [&](const std::string& app) {
    auto patched = f.admin.Patch("Pod", "default", "web", client::PatchType::kJsonMerge,
                                 Json{{"metadata", {{"labels", {{"app", app}}}}}});
    ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  };
  relabel("db");
  f.Run(20 * base::kMillisecond);
  EXPECT_EQ(Size(f.Get("Endpoints", "web"), "addresses"), 0u);
  relabel("web");
  f.Run(20 * base::kMillisecond);
  EXPECT_EQ(Size(f.Get("Endpoints", "web"), "addresses"), 1u);
}

// mirrors controller_utils.go GetServicesToUpdateOnPodChange: a Pod update that keeps the labels,
// the readiness, the IPs and no deletion syncs no Service, so an edit of the Endpoints stays
// until something that matters changes.
TEST(EndpointsController, PodUpdatesThatKeepReadinessAndIpsSyncNothing) {
  WorldFixture f;
  f.Create(ServiceJson("web", 80));
  f.Create(testing::PodJson("web"));
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", "web"), "addresses") == 1; },
                         10 * base::kSecond));
  ASSERT_TRUE(f.admin
                  .Patch("Endpoints", "default", "web", client::PatchType::kJsonMerge,
                         Json{{"subsets", nullptr}})
                  .ok());
  auto annotated = f.admin.Patch("Pod", "default", "web", client::PatchType::kJsonMerge,
                                 Json{{"metadata", {{"annotations", {{"note", "hello"}}}}}});
  ASSERT_TRUE(annotated.ok()) << annotated.status().ToString();
  f.Run(1 * base::kSecond);
  EXPECT_FALSE(f.Get("Endpoints", "web")->contains("subsets")) << "an annotation syncs nothing";

  // A readiness change does: the killed container's address comes back, not ready.
  ASSERT_TRUE(f.world->KillPod("default", "web", "Error").ok());
  f.Run(20 * base::kMillisecond);
  EXPECT_EQ(Size(f.Get("Endpoints", "web"), "notReadyAddresses"), 1u);
}

// mirrors controller_utils.go determineNeededServiceUpdates: when only the labels change, only
// the Services the Pod joined or left are synced, not those that select it before and after.
TEST(EndpointsController, ARelabelSyncsOnlyTheServicesThePodJoinedOrLeft) {
  WorldFixture f;
  f.Create(ServiceJson("web", 80));
  f.Create(ServiceJson("db", 80));
  f.Create(testing::PodJson("web"));
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", "web"), "addresses") == 1; },
                         10 * base::kSecond));
  ASSERT_TRUE(f.admin
                  .Patch("Endpoints", "default", "web", client::PatchType::kJsonMerge,
                         Json{{"subsets", nullptr}})
                  .ok());
  auto label = [&](const Json& labels) {
    auto patched = f.admin.Patch("Pod", "default", "web", client::PatchType::kJsonMerge,
                                 Json{{"metadata", {{"labels", labels}}}});
    ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  };
  label(Json{{"team", "a"}});  // still selected by web: web is not synced
  f.Run(1 * base::kSecond);
  EXPECT_FALSE(f.Get("Endpoints", "web")->contains("subsets"));

  label(Json{{"app", "db"}});  // leaves web, joins db
  f.Run(20 * base::kMillisecond);
  EXPECT_EQ(Size(f.Get("Endpoints", "db"), "addresses"), 1u);
}

// The controller's label index holds Pods of every namespace under one label value; a Service
// still lists only the Pods of its own namespace.
TEST(EndpointsController, PodsOfAnotherNamespaceStayOut) {
  WorldFixture f;
  f.Create(Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "other"}}}});
  f.Create(ServiceJson("web", 80));
  Json stranger = testing::PodJson("web");
  stranger["metadata"]["namespace"] = "other";
  f.Create(stranger);
  f.Create(testing::PodJson("web"));
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", "web"), "addresses") == 1; },
                         10 * base::kSecond));
  f.Run(base::kSecond);
  const auto ep = f.Get("Endpoints", "web");
  EXPECT_EQ(Size(ep, "addresses") + Size(ep, "notReadyAddresses"), 1u);
  EXPECT_EQ((*ep)["subsets"][0]["addresses"][0]["targetRef"]["namespace"], "default");
}

// Past informer::LabelIndex::kMaxLabels distinct selector keys the index cannot answer for a
// new key: every Pod is then a candidate, and readiness changes still reach the Service.
TEST(EndpointsController, SelectorsOnMoreLabelKeysThanTheIndexHoldsStillWork) {
  WorldFixture f;
  const size_t keys = informer::LabelIndex::kMaxLabels + 1;
  for (size_t i = 0; i < keys; ++i) {
    Json svc = ServiceJson("svc" + std::to_string(i), 80);
    svc["spec"]["selector"] = {{"key" + std::to_string(i), "web"}};
    f.Create(svc);
  }
  f.Run(20 * base::kMillisecond);
  Json pod = testing::PodJson("web");
  pod["metadata"]["labels"]["key" + std::to_string(keys - 1)] = "web";
  f.Create(pod);
  const std::string last = "svc" + std::to_string(keys - 1);
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", last), "notReadyAddresses") == 1; },
                         5 * base::kSecond));
  ASSERT_TRUE(f.RunUntil([&] { return Size(f.Get("Endpoints", last), "addresses") == 1; },
                         10 * base::kSecond));
  EXPECT_EQ(Size(f.Get("Endpoints", "svc0"), "addresses"), 0u);
}

}  // namespace
}  // namespace world
