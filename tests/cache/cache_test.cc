#include "core/cache/cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/apiserver/rbac.h"
#include "tests/informer/fixture.h"

namespace cache {
namespace {

using api::Json;
using base::kMillisecond;
using base::kSecond;
using informer_testing::Cluster;
using informer_testing::Rv;

std::vector<std::string> Keys(const std::vector<api::ObjectPtr>& objects) {
  std::vector<std::string> out;
  for (const api::ObjectPtr& obj : objects) out.push_back(api::ObjectKey(*obj));
  return out;
}

struct CacheTest : public ::testing::Test {
  Cluster c;
  sim::Prng prng{1};
};

TEST_F(CacheTest, ReadsBeforeStartAreErrCacheNotStarted) {
  Cache cache(c.admin, c.scheduler, prng, {});
  auto got = cache.Get("ConfigMap", "default", "a");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(), "the cache is not started, can not read objects");
  EXPECT_FALSE(cache.List("ConfigMap", "default", {}).ok());
  EXPECT_FALSE(cache.WaitForCacheSync());
}

TEST_F(CacheTest, GetReturnsTheSharedStoredObjectAndNotFoundLikeTheApiServer) {
  api::ObjectPtr a = c.Create(Cluster::ConfigMap("a"));
  Cache cache(c.admin, c.scheduler, prng, {});
  cache.Start();
  auto got = cache.Get("ConfigMap", "default", "a");
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(got.value(), a) << "the very object the watch delivered: no copy";
  EXPECT_TRUE(cache.WaitForCacheSync());

  auto missing = cache.Get("ConfigMap", "default", "nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(base::IsNotFound(missing.status()));
  EXPECT_EQ(missing.status().message(), "configmaps \"nope\" not found");
  auto direct = c.admin.Get("ConfigMap", "default", "nope");
  EXPECT_EQ(missing.status().message(), direct.status().message());
}

TEST_F(CacheTest, ObjectsOutsideTheLabelSelectorAreNotFound) {
  c.Create(Cluster::ConfigMap("web", "default", {{"app", "web"}}));
  c.Create(Cluster::ConfigMap("db", "default", {{"app", "db"}}));
  Options options;
  options.by_object["configmaps"].label_selector = "app=web";
  Cache cache(c.admin, c.scheduler, prng, options);
  cache.Start();
  EXPECT_TRUE(cache.Get("ConfigMap", "default", "web").ok());
  auto db = cache.Get("ConfigMap", "default", "db");
  ASSERT_FALSE(db.ok());
  EXPECT_TRUE(base::IsNotFound(db.status()));
  EXPECT_EQ(db.status().message(), "configmaps \"db\" not found");
  EXPECT_EQ(Keys(cache.List("ConfigMap", "", {}).value()),
            (std::vector<std::string>{"default/web"}));
}

TEST_F(CacheTest, TheDefaultLabelSelectorAppliesWithoutAByObjectOne) {
  c.Create(Cluster::ConfigMap("web", "default", {{"app", "web"}}));
  c.Create(Cluster::ConfigMap("db", "default", {{"app", "db"}}));
  Options options;
  options.default_label_selector = "app=db";
  Cache cache(c.admin, c.scheduler, prng, options);
  cache.Start();
  EXPECT_EQ(Keys(cache.List("ConfigMap", "", {}).value()),
            (std::vector<std::string>{"default/db"}));
}

TEST_F(CacheTest, ANamespaceOutsideTheConfiguredSetIsAnError) {
  c.Create(Cluster::ConfigMap("x", "other"));
  Options options;
  options.default_namespaces = {"default"};
  Cache cache(c.admin, c.scheduler, prng, options);
  cache.Start();
  auto got = cache.Get("ConfigMap", "other", "x");
  ASSERT_FALSE(got.ok());
  EXPECT_FALSE(base::IsNotFound(got.status()));
  EXPECT_EQ(got.status().message(),
            "unable to get: other/x because of unknown namespace for the cache");
  auto listed = cache.List("ConfigMap", "other", {});
  ASSERT_FALSE(listed.ok());
  EXPECT_EQ(listed.status().message(),
            "unable to list: other because of unknown namespace for the cache");
  EXPECT_TRUE(cache.List("ConfigMap", "", {}).value().empty()) << "x is not watched at all";
}

TEST_F(CacheTest, OneNamespaceIsOneInformerWithANamespaceFilter) {
  Options options;
  options.name = "op";
  options.default_namespaces = {"team"};
  Cache cache(c.admin, c.scheduler, prng, options);
  auto set = cache.GetInformer("ConfigMap");
  ASSERT_TRUE(set.ok());
  ASSERT_EQ((*set)->members().size(), 1u);
  const auto& [ns, member] = *(*set)->members().begin();
  EXPECT_EQ(ns, "team");
  EXPECT_EQ(member->options().namespace_, "team");
  EXPECT_EQ(member->name(), "op/configmap-informer");
}

TEST_F(CacheTest, SeveralNamespacesAreOneInformerEach) {
  c.Create(Cluster::ConfigMap("b", "team"));
  c.Create(Cluster::ConfigMap("a", "default"));
  c.Create(Cluster::ConfigMap("z", "other"));
  Options options;
  options.name = "op";
  options.default_namespaces = {"team", "default"};
  Cache cache(c.admin, c.scheduler, prng, options);
  cache.Start();
  auto set = cache.GetInformer("ConfigMap");
  ASSERT_TRUE(set.ok());
  EXPECT_EQ((*set)->Namespaces(), (std::vector<std::string>{"default", "team"}));
  EXPECT_EQ((*set)->members().at("team")->name(), "op/configmap-informer@team");
  EXPECT_EQ(Keys(cache.List("ConfigMap", "", {}).value()),
            (std::vector<std::string>{"default/a", "team/b"}));
  EXPECT_EQ(Keys(cache.List("ConfigMap", "team", {}).value()),
            (std::vector<std::string>{"team/b"}));
  EXPECT_TRUE(cache.Get("ConfigMap", "team", "b").ok());
}

TEST_F(CacheTest, ByObjectNamespacesOverrideTheDefaultAndEmptyMeansAll) {
  Options options;
  options.default_namespaces = {"default"};
  options.by_object["Secret"].namespaces = std::vector<std::string>{};
  options.by_object["Pod"].namespaces = std::vector<std::string>{"team"};
  Cache cache(c.admin, c.scheduler, prng, options);
  EXPECT_EQ(cache.NamespacesFor("ConfigMap"), (std::vector<std::string>{"default"}));
  EXPECT_TRUE(cache.NamespacesFor("secrets").empty());
  EXPECT_EQ(cache.NamespacesFor("po"), (std::vector<std::string>{"team"}));
  EXPECT_TRUE(cache.NamespacesFor("Namespace").empty()) << "cluster-scoped kinds ignore it";
}

TEST_F(CacheTest, ClusterScopedKindsIgnoreTheNamespaceRestriction) {
  Options options;
  options.default_namespaces = {"default"};
  Cache cache(c.admin, c.scheduler, prng, options);
  cache.Start();
  auto team = cache.Get("Namespace", "", "team");
  ASSERT_TRUE(team.ok()) << team.status().ToString();
  EXPECT_EQ(cache.List("Namespace", "", {}).value().size(), 3u);
}

TEST_F(CacheTest, AReadRightAfterAWriteIsStaleUntilTheWatchDelivers) {
  api::ObjectPtr v1 = c.Create(Cluster::ConfigMap("a"));
  Cache cache(c.admin, c.scheduler, prng, {});
  cache.Start();
  ASSERT_EQ(Rv(cache.Get("ConfigMap", "default", "a").value()), Rv(v1));
  api::ObjectPtr v2 = c.SetData("a", "two");
  auto stale = cache.Get("ConfigMap", "default", "a");
  ASSERT_TRUE(stale.ok());
  EXPECT_EQ(Rv(stale.value()), Rv(v1)) << "the cache has not seen the write yet";
  c.Run(kMillisecond);
  EXPECT_EQ(Rv(cache.Get("ConfigMap", "default", "a").value()), Rv(v2));
}

TEST_F(CacheTest, GetInformerIsLazyAndStartsAtOnceInAStartedCache) {
  c.Create(Cluster::ConfigMap("a"));
  Cache cache(c.admin, c.scheduler, prng, {});
  EXPECT_TRUE(cache.Informers().empty());
  cache.Start();
  EXPECT_TRUE(cache.WaitForCacheSync()) << "no informers yet: nothing to wait for";
  auto first = cache.GetInformer("configmaps");
  auto second = cache.GetInformer("ConfigMap");
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*first, *second);
  EXPECT_EQ(cache.Informers().size(), 1u);
  EXPECT_TRUE((*first)->HasSynced()) << "started (and listed) on creation";
  EXPECT_EQ(cache.Informers().begin()->first, "ConfigMap");
}

TEST_F(CacheTest, UnknownKindsAndBadSelectorsAreErrors) {
  Options options;
  options.by_object["ConfigMap"].label_selector = "app in (";
  Cache cache(c.admin, c.scheduler, prng, options);
  cache.Start();
  auto unknown = cache.Get("Gadget", "default", "x");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(), "the server doesn't have a resource type \"Gadget\"");
  EXPECT_FALSE(cache.GetInformer("ConfigMap").ok());
  EXPECT_FALSE(cache.List("Pod", "default", {"a in (", ""}).ok());
}

TEST_F(CacheTest, EachInformerGetsTheSyncPeriodWithTenPercentJitter) {
  Options options;
  options.default_namespaces = {"default", "team", "other"};
  Cache cache(c.admin, c.scheduler, prng, options);
  auto set = cache.GetInformer("ConfigMap");
  ASSERT_TRUE(set.ok());
  for (const auto& [ns, member] : (*set)->members()) {
    EXPECT_GE(member->options().resync_period, 9 * base::kHour) << ns;
    EXPECT_LT(member->options().resync_period, 11 * base::kHour) << ns;
  }
  sim::Prng a(5);
  sim::Prng b(5);
  EXPECT_EQ(JitteredSyncPeriod(10 * base::kHour, a), JitteredSyncPeriod(10 * base::kHour, b));
  EXPECT_EQ(JitteredSyncPeriod(0, a), 0);
}

TEST_F(CacheTest, JitteredSyncPeriodCoversTheWholeRange) {
  sim::Prng p(3);
  base::Duration lowest = 1000 * kSecond;
  base::Duration highest = 0;
  for (int i = 0; i < 2000; ++i) {
    const base::Duration d = JitteredSyncPeriod(1000 * kSecond, p);
    lowest = std::min(lowest, d);
    highest = std::max(highest, d);
  }
  EXPECT_EQ(lowest, 900 * kSecond);
  EXPECT_EQ(highest, 1099 * kSecond);
}

// A List answers in namespace/name order, as the API server's does, whichever index found the
// objects: created in reverse order, across namespaces, with the cache watching all of them or
// one informer per namespace.
TEST_F(CacheTest, ListsInNamespaceThenNameOrder) {
  for (const char* ns : {"team", "default"}) {
    for (const char* name : {"c", "b", "a"}) c.Create(Cluster::ConfigMap(name, ns, {{"app", "web"}}));
  }
  const std::vector<std::string> in_default = {"default/a", "default/b", "default/c"};
  for (bool per_namespace : {false, true}) {
    Options options;
    if (per_namespace) options.default_namespaces = {"team", "default"};
    Cache cache(c.admin, c.scheduler, prng, options);
    cache.Start();
    EXPECT_EQ(Keys(cache.List("ConfigMap", "default", {}).value()), in_default) << per_namespace;
    EXPECT_EQ(Keys(cache.List("ConfigMap", "default", {"app=web", ""}).value()), in_default)
        << per_namespace;
    EXPECT_EQ(Keys(cache.List("ConfigMap", "", {"app=web", ""}).value()),
              (std::vector<std::string>{"default/a", "default/b", "default/c", "team/a", "team/b",
                                        "team/c"}))
        << per_namespace;
  }
}

TEST_F(CacheTest, ListAppliesLabelAndFieldSelectorsOnCachedObjects) {
  c.Create(Cluster::ConfigMap("a", "default", {{"app", "web"}}));
  c.Create(Cluster::ConfigMap("b", "default", {{"app", "web"}}));
  c.Create(Cluster::ConfigMap("c", "default", {{"app", "db"}}));
  Cache cache(c.admin, c.scheduler, prng, {});
  cache.Start();
  EXPECT_EQ(Keys(cache.List("ConfigMap", "default", {"app=web", ""}).value()),
            (std::vector<std::string>{"default/a", "default/b"}));
  EXPECT_EQ(Keys(cache.List("ConfigMap", "default", {"app=web", "metadata.name!=a"}).value()),
            (std::vector<std::string>{"default/b"}));
  auto unknown_field = cache.List("ConfigMap", "default", {"", "data.k=v"});
  ASSERT_FALSE(unknown_field.ok());
  EXPECT_EQ(unknown_field.status().message(), "Index with name field:data.k does not exist");
}

// A List pinning a label is answered from the label index from its first use, follows later
// writes, and gives the same answer once the index takes no more label keys (the namespace walk).
TEST_F(CacheTest, ListsByLabelAgreeWithAndWithoutTheLabelIndex) {
  c.Create(Cluster::ConfigMap("b", "default", {{"app", "web"}, {"tier", "front"}}));
  c.Create(Cluster::ConfigMap("a", "default", {{"app", "web"}}));
  c.Create(Cluster::ConfigMap("x", "other", {{"app", "web"}}));
  Cache cache(c.admin, c.scheduler, prng, {});
  cache.Start();
  EXPECT_EQ(Keys(cache.List("ConfigMap", "default", {"app=web", ""}).value()),
            (std::vector<std::string>{"default/a", "default/b"}));
  EXPECT_EQ(Keys(cache.List("ConfigMap", "", {"app in (web),tier=front", ""}).value()),
            (std::vector<std::string>{"default/b"}));
  c.Create(Cluster::ConfigMap("c", "default", {{"app", "web"}}));
  c.Create(Cluster::ConfigMap("late", "other", {{"late", "1"}}));
  c.Run(kSecond);
  EXPECT_EQ(Keys(cache.List("ConfigMap", "default", {"app==web", ""}).value()),
            (std::vector<std::string>{"default/a", "default/b", "default/c"}));
  for (size_t i = 0; i < informer::LabelIndex::kMaxLabels; ++i) {
    EXPECT_TRUE(cache.List("ConfigMap", "", {"k" + std::to_string(i) + "=v", ""}).value().empty());
  }
  EXPECT_EQ(Keys(cache.List("ConfigMap", "", {"late=1", ""}).value()),
            (std::vector<std::string>{"other/late"}))
      << "a label key past the index's bound is answered by walking";
}

TEST_F(CacheTest, IndexFieldAnswersExactFieldSelectors) {
  c.Create(Cluster::ConfigMap("a"));
  Json other = Cluster::ConfigMap("b");
  other["data"]["k"] = "w";
  c.Create(other);
  Cache cache(c.admin, c.scheduler, prng, {});
  ASSERT_TRUE(cache
                  .IndexField("ConfigMap", "data.k",
                              [](const Json& obj) {
                                return std::vector<std::string>{
                                    obj["data"].value("k", std::string())};
                              })
                  .ok());
  cache.Start();
  EXPECT_EQ(Keys(cache.List("ConfigMap", "", {"", "data.k=w"}).value()),
            (std::vector<std::string>{"default/b"}));
  auto inexact = cache.List("ConfigMap", "", {"", "data.k!=w"});
  ASSERT_FALSE(inexact.ok());
  EXPECT_EQ(inexact.status().message(), "non-exact field matches are not supported by the cache");
  EXPECT_EQ(
      cache
          .IndexField("ConfigMap", "data.x", [](const Json&) { return std::vector<std::string>{}; })
          .message(),
      "informer has already started");
}

TEST_F(CacheTest, ReadsWaitForTheInformerToSyncWithoutBlocking) {
  apiserver::RbacAuthorizer rbac(c.api);
  c.api.SetAuthorizer(rbac.AsAuthorizer());
  client::DirectClient denied(c.api, "system:serviceaccount:default:op");
  std::vector<std::string> errors;
  Options options;
  options.on_error = [&](const std::string& kind, const base::Status& status,
                         const std::string& verb) {
    errors.push_back(kind + " " + verb + " " + std::to_string(status.http_code()));
  };
  Cache cache(denied, c.scheduler, prng, options);
  cache.Start();
  auto got = cache.Get("ConfigMap", "default", "a");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), base::StatusCode::kTimeout);
  EXPECT_EQ(got.status().message(), "failed waiting for ConfigMap Informer to sync");
  EXPECT_FALSE(cache.WaitForCacheSync());
  EXPECT_EQ(errors, (std::vector<std::string>{"ConfigMap list 403"}));
}

TEST_F(CacheTest, StartStartsInformersCreatedBeforeIt) {
  c.Create(Cluster::ConfigMap("a"));
  Cache cache(c.admin, c.scheduler, prng, {});
  auto set = cache.GetInformer("ConfigMap");
  ASSERT_TRUE(set.ok());
  EXPECT_FALSE((*set)->HasSynced());
  EXPECT_FALSE(cache.WaitForCacheSync());
  cache.Start();
  EXPECT_TRUE((*set)->HasSynced());
  EXPECT_TRUE(cache.WaitForCacheSync());
  cache.Stop();
  EXPECT_TRUE((*set)->IsStopped());
}

}  // namespace
}  // namespace cache
