// A learner's CustomResourceDefinition kind through the cache, its informers and the builder:
// resolved by the API server's discovery, and an unknown kind is an error, never an assertion.
#include <gtest/gtest.h>

#include <string>

#include "core/builder/builder.h"
#include "core/cache/cache.h"
#include "core/informer/shared_informer.h"
#include "core/manager/manager.h"
#include "core/reconcile/reconcile.h"
#include "tests/informer/fixture.h"

namespace cache {
namespace {

using api::Json;
using base::kSecond;
using informer_testing::Cluster;

Json WebsiteCrd() {
  return Json::parse(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "metadata":{"name":"websites.lab.example.com"},
    "spec":{"group":"lab.example.com","scope":"Namespaced",
      "names":{"plural":"websites","singular":"website","kind":"Website"},
      "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
        "schema":{"openAPIV3Schema":{"type":"object","properties":{
          "spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
          "status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}]}})");
}

Json Website(const std::string& name) {
  return Json{{"apiVersion", "lab.example.com/v1"},
              {"kind", "Website"},
              {"metadata", {{"name", name}, {"namespace", "default"}}},
              {"spec", {{"replicas", 1}}}};
}

struct CrdKindTest : public ::testing::Test {
  Cluster c;
  sim::Prng prng{1};
};

TEST_F(CrdKindTest, TheCacheServesAServedCrdKindByEveryName) {
  c.Create(WebsiteCrd());
  c.Run(kSecond);
  c.Create(Website("blog"));
  Cache cache(c.admin, c.scheduler, prng, {});
  cache.Start();
  auto got = cache.Get("Website", "default", "blog");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(api::Name(**got), "blog");
  c.Create(Website("shop"));
  c.Run(kSecond);
  auto listed = cache.List("websites", "default", {});
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  EXPECT_EQ(listed->size(), 2u);
  EXPECT_EQ(cache.GetInformer("website").value(), cache.GetInformer("Website").value())
      << "one informer per kind, whatever the spelling";
  EXPECT_NE(cache.Discover("Website"), nullptr);
}

TEST_F(CrdKindTest, AnUnservedKindIsAnErrorNotAnAssertion) {
  Cache cache(c.admin, c.scheduler, prng, {});
  cache.Start();
  auto got = cache.Get("Website", "default", "blog");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(), "the server doesn't have a resource type \"Website\"");
  EXPECT_EQ(cache.Discover("Website"), nullptr);
}

TEST_F(CrdKindTest, AnInformerOfAKindNotYetServedRetriesUntilTheCrdArrives) {
  informer::SharedIndexInformer informer(c.admin, c.scheduler, prng, "Website", {});
  informer.Start();
  c.Run(kSecond);
  EXPECT_FALSE(informer.HasSynced());
  c.Create(WebsiteCrd());
  c.Create(Website("blog"));
  c.Run(30 * kSecond);
  EXPECT_TRUE(informer.HasSynced());
  EXPECT_NE(informer.GetIndexer().GetByKey("default/blog"), nullptr);
}

struct KeyRecorder final : public reconcile::Reconciler {
  std::vector<std::string> seen;
  reconcile::Outcome Reconcile(reconcile::ReconcileContext&,
                               const reconcile::Request& req) override {
    seen.push_back(req.Key());
    return reconcile::Outcome::Ok();
  }
};

TEST_F(CrdKindTest, AControllerReconcilesACrdKindAndRefusesAnUnknownOne) {
  c.Create(WebsiteCrd());
  c.Create(Website("blog"));
  manager::Manager mgr(c.admin, c.scheduler, prng, manager::Options{});
  KeyRecorder recorder;
  auto ctrl = builder::ControllerManagedBy(mgr).For("Website").Owns("ConfigMap").Complete(recorder);
  ASSERT_TRUE(ctrl.ok()) << ctrl.status().ToString();
  KeyRecorder other;
  auto bad = builder::ControllerManagedBy(mgr).For("Gadget").Complete(other);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "no kind is registered for Gadget");
  ASSERT_TRUE(mgr.Start().ok());
  c.Run(5 * kSecond);
  EXPECT_EQ(recorder.seen, (std::vector<std::string>{"default/blog"}));
}

}  // namespace
}  // namespace cache
