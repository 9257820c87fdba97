#include "core/world/gc/garbage_collector.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/apiserver/api_server.h"
#include "core/client/client.h"
#include "core/client/fault_injecting_client.h"
#include "core/client/fault_rules.h"
#include "core/sim/clock.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"
#include "core/sim/trace.h"

namespace world {
namespace {

using apiserver::PropagationPolicy;

const char kHold[] = "example.com/hold";

struct Owner {
  api::ObjectPtr object;
  bool block = false;
};

// GcFixture runs a real API server and the collector, which talks through a fault-injecting
// client so tests can make its requests fail.
struct GcFixture {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  apiserver::ApiServer api{scheduler, trace, sim::Prng(1)};
  client::DirectClient admin{api, apiserver::kAdminUser};
  client::DirectClient gc_direct{api, kGarbageCollectorUser};
  client::FaultRules faults;
  client::FaultInjectingClient gc_client{gc_direct, faults, api};
  // kube-controller-manager's shared informers, which the collector follows when `shared`.
  client::DirectClient kcm{api, kControllerManagerUser};
  SharedInformerFactory informers{kcm, scheduler, kControllerManagerWatcher, /*traced=*/false};
  GarbageCollector gc{gc_client, scheduler, GarbageCollector::Options{}};

  explicit GcFixture(bool shared) {
    if (shared) gc.UseSharedInformers(&informers);
    auto ns = admin.Create(api::Json{
        {"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "default"}}}});
    EXPECT_TRUE(ns.ok()) << ns.status().ToString();
    gc.Start();
  }

  void Run(base::Duration d) { scheduler.RunUntil(clock.Now() + d, 1'000'000); }

  api::ObjectPtr ConfigMap(const std::string& name, const std::vector<Owner>& owners = {},
                           const std::vector<std::string>& finalizers = {}) {
    api::Json obj = {{"apiVersion", "v1"},
                     {"kind", "ConfigMap"},
                     {"metadata", {{"name", name}, {"namespace", "default"}}}};
    for (const Owner& owner : owners) {
      api::OwnerReference ref;
      ref.apiVersion = api::ApiVersion(*owner.object);
      ref.kind = api::Kind(*owner.object);
      ref.name = api::Name(*owner.object);
      ref.uid = api::Uid(*owner.object);
      ref.blockOwnerDeletion = owner.block;
      obj["metadata"]["ownerReferences"].push_back(ref.ToJson());
    }
    if (!finalizers.empty()) obj["metadata"]["finalizers"] = finalizers;
    return Create(std::move(obj));
  }

  api::ObjectPtr Create(api::Json obj) {
    auto created = admin.Create(std::move(obj));
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    return created.ok() ? created.value() : nullptr;
  }

  void Delete(const std::string& name, std::optional<PropagationPolicy> policy) {
    apiserver::DeleteOptions opts;
    opts.propagation = policy;
    auto deleted = admin.Delete("ConfigMap", "default", name, opts);
    EXPECT_TRUE(deleted.ok()) << deleted.status().ToString();
  }

  void DropFinalizers(const std::string& name) {
    auto patched = admin.Patch("ConfigMap", "default", name, apiserver::PatchType::kJsonMerge,
                               api::Json{{"metadata", {{"finalizers", nullptr}}}});
    EXPECT_TRUE(patched.ok()) << patched.status().ToString();
  }

  api::ObjectPtr Get(const std::string& name) const {
    return api.Peek("ConfigMap", "default", name);
  }

  std::vector<std::string> OwnerNames(const std::string& name) const {
    std::vector<std::string> out;
    api::ObjectPtr obj = Get(name);
    if (obj == nullptr) return out;
    for (const api::OwnerReference& ref : api::OwnerReferences(*obj)) out.push_back(ref.name);
    return out;
  }

  // Actions lists "action object" for every gc.action record.
  std::vector<std::string> Actions() const {
    std::vector<std::string> out;
    for (const sim::TraceEvent& e : trace.events()) {
      if (e.type == "gc.action") {
        out.push_back(e.FieldString("action") + " " + e.FieldString("object"));
      }
    }
    return out;
  }
};

// Every behaviour holds with the collector's own watches and with kube-controller-manager's
// shared ones (as in a Simulation with a World).
class GarbageCollectorIn : public ::testing::TestWithParam<bool> {};
INSTANTIATE_TEST_SUITE_P(Watches, GarbageCollectorIn, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "SharedWatches" : "OwnWatches";
                         });

TEST_P(GarbageCollectorIn, BackgroundDeletionRemovesChildrenAndGrandchildren) {
  GcFixture f(GetParam());
  api::ObjectPtr parent = f.ConfigMap("parent");
  api::ObjectPtr child = f.ConfigMap("child", {{parent}});
  f.ConfigMap("grandchild", {{child}});
  f.ConfigMap("bystander");
  f.Run(50 * base::kMillisecond);
  ASSERT_NE(f.Get("child"), nullptr);
  ASSERT_NE(f.Get("grandchild"), nullptr);

  f.Delete("parent", std::nullopt);  // custom default and built-in default: Background
  EXPECT_EQ(f.Get("parent"), nullptr);  // gone at once; the children follow
  EXPECT_NE(f.Get("child"), nullptr);
  f.Run(1 * base::kSecond);
  EXPECT_EQ(f.Get("child"), nullptr);
  EXPECT_EQ(f.Get("grandchild"), nullptr);
  EXPECT_NE(f.Get("bystander"), nullptr);
  EXPECT_EQ(f.Actions(), (std::vector<std::string>{"delete ConfigMap/default/child",
                                                   "delete ConfigMap/default/grandchild"}));
  EXPECT_EQ(f.gc.pending(), 0u);
}

TEST_P(GarbageCollectorIn, ChildWithTwoOwnersLosesOnlyTheDanglingReference) {
  GcFixture f(GetParam());
  api::ObjectPtr a = f.ConfigMap("owner-a");
  api::ObjectPtr b = f.ConfigMap("owner-b");
  f.ConfigMap("shared", {{a}, {b}});
  f.Run(50 * base::kMillisecond);

  f.Delete("owner-a", PropagationPolicy::kBackground);
  f.Run(1 * base::kSecond);
  ASSERT_NE(f.Get("shared"), nullptr);
  EXPECT_EQ(f.OwnerNames("shared"), (std::vector<std::string>{"owner-b"}));

  // Once the last owner goes, the child goes too.
  f.Delete("owner-b", PropagationPolicy::kBackground);
  f.Run(1 * base::kSecond);
  EXPECT_EQ(f.Get("shared"), nullptr);
}

TEST_P(GarbageCollectorIn, ForegroundKeepsTheOwnerUntilBlockingChildrenAreGone) {
  GcFixture f(GetParam());
  api::ObjectPtr owner = f.ConfigMap("owner");
  f.ConfigMap("held", {{owner, /*block=*/true}}, {kHold});
  f.ConfigMap("quick", {{owner, /*block=*/true}});
  f.Run(50 * base::kMillisecond);

  f.Delete("owner", PropagationPolicy::kForeground);
  f.Run(1 * base::kSecond);
  api::ObjectPtr waiting = f.Get("owner");
  ASSERT_NE(waiting, nullptr) << "a blocking child still exists";
  EXPECT_TRUE(api::IsBeingDeleted(*waiting));
  EXPECT_TRUE(api::HasFinalizer(*waiting, kForegroundDeletionFinalizer));
  EXPECT_EQ(f.Get("quick"), nullptr);
  api::ObjectPtr held = f.Get("held");
  ASSERT_NE(held, nullptr);
  EXPECT_TRUE(api::IsBeingDeleted(*held)) << "the collector asked to delete it";

  f.DropFinalizers("held");  // its own controller finishes cleaning up
  EXPECT_EQ(f.Get("held"), nullptr);
  f.Run(1 * base::kSecond);
  EXPECT_EQ(f.Get("owner"), nullptr);
}

// The collector compares an update with what its graph holds; an update that changes only a
// reference's blockOwnerDeletion must still be seen (the waiting owner is released), and one that
// changes nothing the graph holds (a label) must leave the owner waiting.
TEST_P(GarbageCollectorIn, AReferenceThatStopsBlockingReleasesTheWaitingOwner) {
  GcFixture f(GetParam());
  api::ObjectPtr owner = f.ConfigMap("owner");
  f.ConfigMap("held", {{owner, /*block=*/true}}, {kHold});
  f.Run(50 * base::kMillisecond);
  f.Delete("owner", PropagationPolicy::kForeground);
  f.Run(1 * base::kSecond);
  ASSERT_NE(f.Get("owner"), nullptr) << "a blocking child still exists";

  auto labelled = f.admin.Patch("ConfigMap", "default", "held", apiserver::PatchType::kJsonMerge,
                                api::Json{{"metadata", {{"labels", {{"touched", "yes"}}}}}});
  ASSERT_TRUE(labelled.ok()) << labelled.status().ToString();
  f.Run(1 * base::kSecond);
  ASSERT_NE(f.Get("owner"), nullptr) << "a label changes nothing the collector tracks";

  api::Json refs = (*f.Get("held"))["metadata"]["ownerReferences"];
  refs[0]["blockOwnerDeletion"] = false;
  auto unblocked = f.admin.Patch("ConfigMap", "default", "held", apiserver::PatchType::kJsonMerge,
                                 api::Json{{"metadata", {{"ownerReferences", refs}}}});
  ASSERT_TRUE(unblocked.ok()) << unblocked.status().ToString();
  f.Run(1 * base::kSecond);
  EXPECT_EQ(f.Get("owner"), nullptr) << "no dependent blocks it any more";
  ASSERT_NE(f.Get("held"), nullptr) << "its own finalizer still holds the child";
}

TEST_P(GarbageCollectorIn, NonBlockingChildrenDoNotHoldTheOwner) {
  GcFixture f(GetParam());
  api::ObjectPtr owner = f.ConfigMap("owner");
  f.ConfigMap("loose", {{owner, /*block=*/false}}, {kHold});
  f.Run(50 * base::kMillisecond);

  f.Delete("owner", PropagationPolicy::kForeground);
  f.Run(1 * base::kSecond);
  EXPECT_EQ(f.Get("owner"), nullptr);
  api::ObjectPtr loose = f.Get("loose");
  ASSERT_NE(loose, nullptr);
  EXPECT_TRUE(api::IsBeingDeleted(*loose)) << "foreground still deletes every dependent";
}

TEST_P(GarbageCollectorIn, ForegroundCascadesThroughChildrenWithTheirOwnDependents) {
  GcFixture f(GetParam());
  api::ObjectPtr owner = f.ConfigMap("owner");
  api::ObjectPtr child = f.ConfigMap("child", {{owner, true}});
  f.ConfigMap("grandchild", {{child, true}});
  f.Run(50 * base::kMillisecond);

  f.Delete("owner", PropagationPolicy::kForeground);
  f.Run(2 * base::kSecond);
  EXPECT_EQ(f.Get("owner"), nullptr);
  EXPECT_EQ(f.Get("child"), nullptr);
  EXPECT_EQ(f.Get("grandchild"), nullptr);
  bool child_in_foreground = false;
  for (const sim::TraceEvent& e : f.trace.events()) {
    if (e.type == "gc.action" && e.FieldString("action") == "delete" &&
        e.FieldString("object") == "ConfigMap/default/child") {
      child_in_foreground =
          e.FieldString("detail").find("propagationPolicy=Foreground") != std::string::npos;
    }
  }
  EXPECT_TRUE(child_in_foreground) << "a dependent with dependents is deleted in foreground";
  EXPECT_EQ(f.Actions(), (std::vector<std::string>{
                             "delete ConfigMap/default/child",
                             "delete ConfigMap/default/grandchild",
                             "remove-finalizer ConfigMap/default/child",
                             "remove-finalizer ConfigMap/default/owner",
                         }));
}

TEST_P(GarbageCollectorIn, OrphanLeavesChildrenWithoutTheReference) {
  GcFixture f(GetParam());
  api::ObjectPtr owner = f.ConfigMap("owner");
  api::ObjectPtr other = f.ConfigMap("other-owner");
  f.ConfigMap("c1", {{owner, true}});
  f.ConfigMap("c2", {{owner}, {other}});
  f.Run(50 * base::kMillisecond);

  f.Delete("owner", PropagationPolicy::kOrphan);
  ASSERT_NE(f.Get("owner"), nullptr) << "the orphan finalizer holds it until the GC is done";
  f.Run(1 * base::kSecond);
  EXPECT_EQ(f.Get("owner"), nullptr);
  ASSERT_NE(f.Get("c1"), nullptr);
  ASSERT_NE(f.Get("c2"), nullptr);
  EXPECT_TRUE(f.OwnerNames("c1").empty());
  EXPECT_FALSE(f.Get("c1")->at("metadata").contains("ownerReferences"));
  EXPECT_EQ(f.OwnerNames("c2"), (std::vector<std::string>{"other-owner"}));
}

TEST_P(GarbageCollectorIn, ChildCreatedWithAMissingOwnerIsCollected) {
  GcFixture f(GetParam());
  api::Json ghost_ref = {{"apiVersion", "v1"},
                         {"kind", "ConfigMap"},
                         {"name", "ghost"},
                         {"uid", "00000000-0000-0000-0000-000000000000"}};
  f.Create(api::Json{{"apiVersion", "v1"},
                     {"kind", "ConfigMap"},
                     {"metadata",
                      {{"name", "orphaned"},
                       {"namespace", "default"},
                       {"ownerReferences", api::Json::array({ghost_ref})}}}});
  f.Run(1 * base::kSecond);
  EXPECT_EQ(f.Get("orphaned"), nullptr);
  EXPECT_EQ(f.Actions(), (std::vector<std::string>{"virtual-delete ConfigMap/ghost",
                                                   "delete ConfigMap/default/orphaned"}));
}

// An owner whose kind a CustomResourceDefinition serves is asked for, not taken as dangling.
TEST_P(GarbageCollectorIn, ChildOfACustomResourceIsLeftAlone) {
  GcFixture f(GetParam());
  auto crd = f.admin.Create(api::Json::parse(R"({
    "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
    "metadata": {"name": "websites.example.com"},
    "spec": {"group": "example.com", "scope": "Namespaced",
      "names": {"plural": "websites", "kind": "Website"},
      "versions": [{"name": "v1", "served": true, "storage": true,
        "schema": {"openAPIV3Schema": {"type": "object",
          "x-kubernetes-preserve-unknown-fields": true}}}]}})"));
  ASSERT_TRUE(crd.ok()) << crd.status().ToString();
  auto site = f.admin.Create(api::Json{{"apiVersion", "example.com/v1"},
                                       {"kind", "Website"},
                                       {"metadata", {{"name", "blog"}, {"namespace", "default"}}}});
  ASSERT_TRUE(site.ok()) << site.status().ToString();
  f.ConfigMap("blog-config", {{*site}});
  f.Run(1 * base::kSecond);
  EXPECT_NE(f.Get("blog-config"), nullptr);
}

// kube-controller-manager's collector keeps no monitor for Events (graph_builder.go
// ignoredResources), so an Event is never in the graph and never collected, even when it names
// an owner that is gone; the same reference on a ConfigMap is collected.
TEST_P(GarbageCollectorIn, EventsAreIgnored) {
  GcFixture f(GetParam());
  api::Json ghost_ref = {{"apiVersion", "v1"},
                         {"kind", "ConfigMap"},
                         {"name", "ghost"},
                         {"uid", "00000000-0000-0000-0000-000000000000"}};
  api::ObjectPtr event = f.Create(api::Json{
      {"apiVersion", "v1"},
      {"kind", "Event"},
      {"metadata",
       {{"name", "ghost.1"},
        {"namespace", "default"},
        {"ownerReferences", api::Json::array({ghost_ref})}}},
      {"involvedObject", {{"kind", "ConfigMap"}, {"name", "ghost"}, {"namespace", "default"}}},
      {"reason", "Test"},
      {"message", "an event"}});
  ASSERT_NE(event, nullptr);
  f.Create(api::Json{{"apiVersion", "v1"},
                     {"kind", "ConfigMap"},
                     {"metadata",
                      {{"name", "orphaned"},
                       {"namespace", "default"},
                       {"ownerReferences", api::Json::array({ghost_ref})}}}});
  f.Run(1 * base::kSecond);
  EXPECT_FALSE(f.gc.HasNode(api::Uid(*event)));
  EXPECT_NE(f.api.Peek("Event", "default", "ghost.1"), nullptr);
  EXPECT_EQ(f.Get("orphaned"), nullptr);
  EXPECT_EQ(f.Actions(), (std::vector<std::string>{"virtual-delete ConfigMap/ghost",
                                                   "delete ConfigMap/default/orphaned"}));
}

TEST_P(GarbageCollectorIn, AnOwnerNamesakeWithAnotherUidDoesNotCount) {
  GcFixture f(GetParam());
  api::ObjectPtr owner = f.ConfigMap("owner");
  api::Json ref = {{"apiVersion", "v1"},
                   {"kind", "ConfigMap"},
                   {"name", "owner"},
                   {"uid", "not-" + api::Uid(*owner)}};
  f.Create(api::Json{{"apiVersion", "v1"},
                     {"kind", "ConfigMap"},
                     {"metadata",
                      {{"name", "impostor-child"},
                       {"namespace", "default"},
                       {"ownerReferences", api::Json::array({ref})}}}});
  f.ConfigMap("real-child", {{owner}});
  f.Run(1 * base::kSecond);
  EXPECT_EQ(f.Get("impostor-child"), nullptr);
  EXPECT_NE(f.Get("real-child"), nullptr);
  EXPECT_NE(f.Get("owner"), nullptr);
}

TEST_P(GarbageCollectorIn, ChildrenOfLiveOwnersAreLeftAlone) {
  GcFixture f(GetParam());
  api::ObjectPtr owner = f.ConfigMap("owner");
  f.ConfigMap("child", {{owner, true}});
  f.Run(5 * base::kSecond);
  EXPECT_NE(f.Get("child"), nullptr);
  EXPECT_TRUE(f.Actions().empty());
  EXPECT_TRUE(f.gc.HasNode(api::Uid(*owner)));
  ASSERT_EQ(f.gc.DependentsOf(api::Uid(*owner)).size(), 1u);
}

TEST_P(GarbageCollectorIn, ClusterScopedOwnerOfANamespacedChild) {
  GcFixture f(GetParam());
  api::ObjectPtr role = f.Create(api::Json{{"apiVersion", "rbac.authorization.k8s.io/v1"},
                                           {"kind", "ClusterRole"},
                                           {"metadata", {{"name", "owner-role"}}},
                                           {"rules", api::Json::array()}});
  ASSERT_NE(role, nullptr);
  f.ConfigMap("child", {{role}});
  f.Run(50 * base::kMillisecond);
  EXPECT_NE(f.Get("child"), nullptr);
  auto deleted = f.admin.Delete("ClusterRole", "", "owner-role", {});
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  f.Run(1 * base::kSecond);
  EXPECT_EQ(f.Get("child"), nullptr);
}

TEST_P(GarbageCollectorIn, InjectedFaultsAreRetried) {
  GcFixture f(GetParam());
  api::ObjectPtr parent = f.ConfigMap("parent");
  f.ConfigMap("child", {{parent}});
  f.Run(50 * base::kMillisecond);
  client::FaultRule rule;
  rule.verb = "delete";
  rule.kind = "configmaps";
  rule.code = 500;
  rule.times = 2;
  f.faults.Add(rule);

  f.Delete("parent", PropagationPolicy::kBackground);  // the learner's client is not faulted
  f.Run(1 * base::kSecond);
  // The collector's first two deletes of the child fail; the third, after backoff, succeeds.
  EXPECT_EQ(f.Get("child"), nullptr);
  EXPECT_TRUE(f.faults.List().empty());
  EXPECT_EQ(f.gc.given_up(), 0u);
}

TEST_P(GarbageCollectorIn, PersistentFaultsAreBoundedByMaxRetries) {
  GcFixture f(GetParam());
  api::ObjectPtr parent = f.ConfigMap("parent");
  f.ConfigMap("child", {{parent}});
  f.Run(50 * base::kMillisecond);
  f.Delete("parent", PropagationPolicy::kBackground);
  client::FaultRule rule;
  rule.verb = "get";
  rule.code = 503;
  f.faults.Add(rule);  // until cleared

  f.Run(10 * base::kMinute);
  EXPECT_NE(f.Get("child"), nullptr);
  EXPECT_EQ(f.gc.given_up(), 1u);
  EXPECT_EQ(f.gc.pending(), 0u) << "nothing left scheduled: the run is quiet";
}

TEST_P(GarbageCollectorIn, SameInputsGiveTheSameTrace) {
  auto run = [] {
    GcFixture f(GetParam());
    api::ObjectPtr owner = f.ConfigMap("owner");
    for (const char* name : {"c", "a", "b"}) f.ConfigMap(name, {{owner, true}});
    f.Run(50 * base::kMillisecond);
    f.Delete("owner", PropagationPolicy::kForeground);
    f.Run(2 * base::kSecond);
    EXPECT_EQ(f.Get("owner"), nullptr);
    return f.trace.Hash();
  };
  EXPECT_EQ(run(), run());
}

TEST_P(GarbageCollectorIn, DependentsAreVisitedInNameOrder) {
  GcFixture f(GetParam());
  api::ObjectPtr owner = f.ConfigMap("owner");
  for (const char* name : {"c", "a", "b"}) f.ConfigMap(name, {{owner}});
  f.Run(50 * base::kMillisecond);
  f.Delete("owner", PropagationPolicy::kBackground);
  f.Run(1 * base::kSecond);
  EXPECT_EQ(f.Actions(),
            (std::vector<std::string>{"delete ConfigMap/default/a", "delete ConfigMap/default/b",
                                      "delete ConfigMap/default/c"}));
}

TEST_P(GarbageCollectorIn, WatchDropIsFollowedByARelist) {
  GcFixture f(GetParam());
  api::ObjectPtr parent = f.ConfigMap("parent");
  f.ConfigMap("child", {{parent}});
  f.Run(50 * base::kMillisecond);
  EXPECT_GT(f.api.Hooks().DropWatches("ConfigMap"), 0u);
  f.Run(50 * base::kMillisecond);
  f.Delete("parent", PropagationPolicy::kBackground);
  f.Run(1 * base::kSecond);
  EXPECT_EQ(f.Get("child"), nullptr) << "the collector watches ConfigMaps again";
}

TEST(GarbageCollectorSharing, OpensNoWatchOfItsOwnOnSharedInformers) {
  GcFixture f(/*shared=*/true);
  size_t config_map_watches = 0;
  for (const auto& open : f.api.Hooks().OpenWatches()) {
    EXPECT_NE(open.opts.watcher, GarbageCollector::Options{}.watcher);
    if (open.kind->kind == "ConfigMap") ++config_map_watches;
  }
  EXPECT_EQ(config_map_watches, 1u);
  EXPECT_EQ(f.informers.Find("Event"), nullptr) << "no monitor for Events";
  EXPECT_NE(f.informers.Find("Pod"), nullptr);
}

TEST(GarbageCollectorSharing, AStoppedCollectorCatchesUpFromTheSharedCacheWhenStartedAgain) {
  GcFixture f(/*shared=*/true);
  api::ObjectPtr parent = f.ConfigMap("parent");
  f.Run(50 * base::kMillisecond);
  f.gc.Stop();
  f.ConfigMap("child", {{parent}});  // seen only by the shared watch
  f.Delete("parent", PropagationPolicy::kBackground);
  f.Run(1 * base::kSecond);
  EXPECT_NE(f.Get("child"), nullptr) << "nothing collects while the collector is stopped";
  f.gc.Start();
  f.Run(1 * base::kSecond);
  EXPECT_EQ(f.Get("child"), nullptr);
}

}  // namespace
}  // namespace world
