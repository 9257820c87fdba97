#include "core/informer/shared_informer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/apiserver/rbac.h"
#include "tests/informer/fixture.h"

namespace informer {
namespace {

using api::Json;
using base::kMillisecond;
using base::kSecond;
using informer_testing::Cluster;
using informer_testing::Recorder;
using informer_testing::Rv;

InformerOptions Named(const std::string& name, base::Duration resync = 0) {
  InformerOptions options;
  options.name = name;
  options.resync_period = resync;
  return options;
}

TEST(SharedIndexInformer, ListThenWatchDeliversAddsWithIsInInitialList) {
  Cluster c;
  api::ObjectPtr a = c.Create(Cluster::ConfigMap("a"));
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap", Named("cm-informer"));
  Recorder r;
  informer.AddEventHandler(r.Funcs());
  EXPECT_FALSE(informer.HasSynced());
  informer.Start();
  EXPECT_TRUE(informer.HasSynced()) << "the first list happens inside Start";
  api::ObjectPtr b = c.Create(Cluster::ConfigMap("b"));
  c.Run(kMillisecond);
  EXPECT_EQ(r.lines,
            (std::vector<std::string>{"add a " + Rv(a) + " initial", "add b " + Rv(b) + " watch"}));
  EXPECT_EQ(informer.LastSyncResourceVersion(), Rv(b));
}

// kube-controller-manager's informers are untraced: they work the same (handlers, relist after a
// dropped watch) and leave no watch.event, informer.pop or informer.error record.
TEST(SharedIndexInformer, AnUntracedInformerWorksWithoutTraceRecords) {
  Cluster c;
  c.Create(Cluster::ConfigMap("a"));
  InformerOptions options = Named("kcm");
  options.traced = false;
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap", options);
  Recorder r;
  informer.AddEventHandler(r.Funcs());
  informer.Start();
  c.Create(Cluster::ConfigMap("b"));
  c.Run(kMillisecond);
  ASSERT_EQ(c.api.Hooks().DropWatches("ConfigMap"), 1u);
  c.Create(Cluster::ConfigMap("c"));
  c.Run(5 * kSecond);
  EXPECT_EQ(r.lines.size(), 3u) << "a, b, and c after the relist";
  EXPECT_NE(informer.GetStore().GetByKey("default/c"), nullptr);
  EXPECT_TRUE(c.Records("informer.pop").empty());
  EXPECT_TRUE(c.Records("informer.error").empty());
  EXPECT_TRUE(c.Records("watch.event").empty());
}

TEST(SharedIndexInformer, UpdatesAndDeletesArriveInCommitOrder) {
  Cluster c;
  api::ObjectPtr v1 = c.Create(Cluster::ConfigMap("a"));
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap", Named("cm-informer"));
  informer.Start();
  Recorder r;
  informer.AddEventHandler(r.Funcs());
  api::ObjectPtr v2 = c.SetData("a", "two");
  api::ObjectPtr v3 = c.SetData("a", "three");
  c.Delete("a");
  c.Run(kMillisecond);
  ASSERT_EQ(r.lines.size(), 4u);
  EXPECT_EQ(r.lines[0], "add a " + Rv(v1) + " initial") << "a late handler gets a replay";
  EXPECT_EQ(r.lines[1], "update a " + Rv(v1) + "->" + Rv(v2));
  EXPECT_EQ(r.lines[2], "update a " + Rv(v2) + "->" + Rv(v3));
  EXPECT_EQ(r.lines[3].rfind("delete a ", 0), 0u) << r.lines[3];
  EXPECT_EQ(informer.GetStore().size(), 0u);
}

TEST(SharedIndexInformer, TheHandlerSeesTheStoreAlreadyUpdated) {
  Cluster c;
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap", Named("cm-informer"));
  std::vector<std::string> seen;
  ResourceEventHandlerFuncs handler;
  handler.on_add = [&](const api::ObjectPtr& obj, bool) {
    seen.push_back("add sees " + Rv(informer.GetStore().GetByKey("default/a")));
    EXPECT_EQ(Rv(obj), Rv(informer.GetStore().GetByKey("default/a")));
  };
  handler.on_update = [&](const api::ObjectPtr&, const api::ObjectPtr& new_obj) {
    EXPECT_EQ(informer.GetIndexer().GetByKey("default/a"), new_obj);
    seen.push_back("update sees the new object");
  };
  handler.on_delete = [&](const api::ObjectPtr&, bool) {
    seen.push_back(informer.GetStore().GetByKey("default/a") == nullptr ? "delete sees it gone"
                                                                        : "delete sees it");
  };
  informer.AddEventHandler(handler);
  informer.Start();
  c.Create(Cluster::ConfigMap("a"));
  c.Run(kMillisecond);
  c.SetData("a", "two");
  c.Run(kMillisecond);
  c.Delete("a");
  c.Run(kMillisecond);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[1], "update sees the new object");
  EXPECT_EQ(seen[2], "delete sees it gone");
}

TEST(SharedIndexInformer, HandlersRunInRegistrationOrderInOneSchedulerEvent) {
  Cluster c;
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap", Named("cm-informer"));
  Recorder r;
  informer.AddEventHandler(r.Funcs("first: "));
  informer.AddEventHandler(r.Funcs("second: "));
  informer.Start();
  api::ObjectPtr a = c.Create(Cluster::ConfigMap("a"));
  const uint64_t before = c.scheduler.executed();
  c.Run(kMillisecond);
  EXPECT_EQ(c.scheduler.executed() - before, 1u);
  EXPECT_EQ(r.lines, (std::vector<std::string>{"first: add a " + Rv(a) + " watch",
                                               "second: add a " + Rv(a) + " watch"}));
}

TEST(SharedIndexInformer, WatchEventsLinkToTheirWatchEventRecord) {
  Cluster c;
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap", Named("cm-informer"));
  std::vector<int64_t> causes;
  ResourceEventHandlerFuncs handler;
  handler.on_add = [&](const api::ObjectPtr&, bool) { causes.push_back(c.trace.current_cause()); };
  informer.AddEventHandler(handler);
  informer.Start();
  c.Create(Cluster::ConfigMap("a"));
  c.Run(kMillisecond);
  auto watch_events = c.Records("watch.event");
  ASSERT_EQ(watch_events.size(), 1u);
  EXPECT_EQ(watch_events[0].FieldString("watcher"), "cm-informer");
  EXPECT_EQ(causes, (std::vector<int64_t>{watch_events[0].seq}));
}

TEST(SharedIndexInformer, ADroppedWatchRelistsWithTombstonesForObjectsDeletedMeanwhile) {
  Cluster c;
  c.Create(Cluster::ConfigMap("kept"));
  api::ObjectPtr changed_v1 = c.Create(Cluster::ConfigMap("changed"));
  api::ObjectPtr gone = c.Create(Cluster::ConfigMap("gone"));
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap", Named("cm-informer"));
  std::vector<std::string> errors;
  EXPECT_TRUE(informer
                  .SetWatchErrorHandler([&](const base::Status& status, const std::string& verb) {
                    errors.push_back(verb + " " + std::to_string(status.http_code()));
                  })
                  .ok());
  informer.Start();
  Recorder r;
  informer.AddEventHandler(r.Funcs());
  r.lines.clear();

  ASSERT_EQ(c.api.Hooks().DropWatches("ConfigMap"), 1u);
  c.Delete("gone");
  api::ObjectPtr changed_v2 = c.SetData("changed", "two");
  api::ObjectPtr added = c.Create(Cluster::ConfigMap("added"));
  c.Run(kMillisecond);
  EXPECT_TRUE(r.lines.empty()) << "events after the drop are lost";
  EXPECT_EQ(errors, (std::vector<std::string>{"watch 410"}));
  c.Run(800 * kMillisecond);
  EXPECT_EQ(r.lines, (std::vector<std::string>{
                         "delete gone " + Rv(gone) + " tombstone",
                         "add added " + Rv(added) + " watch",
                         "update changed " + Rv(changed_v1) + "->" + Rv(changed_v2),
                     }))
      << "an unchanged object (same resourceVersion) is a sync and no listener is due";
  EXPECT_EQ(informer.GetStore().ListKeys(),
            (std::vector<std::string>{"default/added", "default/changed", "default/kept"}));
  c.SetData("kept", "later");
  c.Run(kMillisecond);
  EXPECT_EQ(r.lines.size(), 4u) << "the new watch delivers again";
}

// PopLines renders the informer.pop records after seq `since` as "KEY DELTAS <- CAUSE_TYPE".
std::vector<std::string> PopLines(const Cluster& c, int64_t since) {
  std::vector<std::string> out;
  for (const sim::TraceEvent& pop : c.Records("informer.pop")) {
    if (pop.seq <= since) continue;
    std::string cause_type = "?";
    for (const sim::TraceEvent& e : c.trace.events()) {
      if (std::to_string(e.seq) == pop.FieldString("cause")) cause_type = std::string(e.type);
    }
    EXPECT_EQ(pop.FieldString("informer"), "cm-informer");
    EXPECT_EQ(pop.FieldString("kind"), "ConfigMap");
    out.push_back(pop.FieldString("key") + " " + pop.FieldString("deltas") + " <- " + cause_type);
  }
  return out;
}

// The DeltaFIFO between the reflector and the handlers: every entry it pops is one informer.pop
// record, caused by what queued it (the list, the watch event, the resync).
TEST(SharedIndexInformer, EveryPopFromTheDeltaFifoIsTracedWithItsKeyAndDeltaTypes) {
  Cluster c;
  c.Create(Cluster::ConfigMap("kept"));
  c.Create(Cluster::ConfigMap("gone"));
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap", Named("cm-informer", kSecond));
  Recorder r;
  informer.AddEventHandler(r.Funcs());
  informer.Start();
  EXPECT_EQ(PopLines(c, 0), (std::vector<std::string>{"default/gone Replaced <- api.request",
                                                      "default/kept Replaced <- api.request"}));
  int64_t since = c.trace.last_seq();

  c.SetData("kept", "two");
  c.Run(kMillisecond);
  EXPECT_EQ(PopLines(c, since),
            (std::vector<std::string>{"default/kept Updated <- watch.event"}));
  since = c.trace.last_seq();

  ASSERT_EQ(c.api.Hooks().DropWatches("ConfigMap"), 1u);
  c.Delete("gone");
  api::ObjectPtr kept_v3 = c.SetData("kept", "three");
  r.lines.clear();
  c.Run(801 * kMillisecond);  // the ERROR event (1ms), then the relist 800ms later
  EXPECT_EQ(PopLines(c, since), (std::vector<std::string>{
                                    "default/kept Replaced <- api.request",
                                    "default/gone Deleted(DeletedFinalStateUnknown) <- api.request",
                                }))
      << "Replace queues the listed objects first, then the tombstones";
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_EQ(r.lines[0].rfind("delete gone ", 0), 0u) << r.lines[0];
  EXPECT_EQ(r.lines[1].substr(r.lines[1].size() - Rv(kept_v3).size()), Rv(kept_v3)) << r.lines[1];
  EXPECT_EQ(r.lines[1].rfind("update kept ", 0), 0u)
      << "the handlers still get the relist as client-go 1.36 gives it: tombstones first";
  since = c.trace.last_seq();

  c.Run(kSecond);
  EXPECT_EQ(PopLines(c, since),
            (std::vector<std::string>{"default/kept Sync <- informer.resync"}));
}

// RBAC: a service account without list permission gets 403 until a Role is bound.
TEST(SharedIndexInformer, ForbiddenListIsReportedAndRetriedWithBackoffUntilTheRuleExists) {
  Cluster c;
  apiserver::RbacAuthorizer rbac(c.api);
  c.api.SetAuthorizer(rbac.AsAuthorizer());
  c.Create(Cluster::ConfigMap("a"));
  client::DirectClient operator_client(c.api, "system:serviceaccount:default:op");
  InformerOptions options = Named("op/configmap-informer");
  options.namespace_ = "default";
  std::vector<std::string> errors;
  options.on_error = [&](const base::Status& status, const std::string& verb) {
    errors.push_back(verb + " " + status.reason() + " at " +
                     std::to_string(c.clock.Now() / kMillisecond) + "ms");
  };
  SharedIndexInformer informer(operator_client, c.scheduler, "ConfigMap", options);
  Recorder r;
  auto registration = informer.AddEventHandler(r.Funcs());
  informer.Start();
  c.Run(5 * kSecond);
  EXPECT_EQ(errors, (std::vector<std::string>{"list Forbidden at 0ms", "list Forbidden at 800ms",
                                              "list Forbidden at 2400ms"}))
      << "next attempt at 2.4s + 3.2s = 5.6s";
  EXPECT_FALSE(informer.HasSynced());
  EXPECT_FALSE(registration.HasSynced());
  auto traced = c.Records("informer.error");
  ASSERT_EQ(traced.size(), 3u);
  EXPECT_EQ(traced[0].FieldString("code"), "403");
  EXPECT_EQ(traced[0].FieldString("informer"), "op/configmap-informer");
  EXPECT_NE(traced[0].FieldString("message").find("cannot list resource \"configmaps\""),
            std::string::npos)
      << traced[0].FieldString("message");

  Json role = {{"apiVersion", "rbac.authorization.k8s.io/v1"},
               {"kind", "Role"},
               {"metadata", {{"name", "read-cm"}, {"namespace", "default"}}},
               {"rules", Json::array({{{"apiGroups", {""}},
                                       {"resources", {"configmaps"}},
                                       {"verbs", {"get", "list", "watch"}}}})}};
  Json binding = {
      {"apiVersion", "rbac.authorization.k8s.io/v1"},
      {"kind", "RoleBinding"},
      {"metadata", {{"name", "op-read-cm"}, {"namespace", "default"}}},
      {"roleRef",
       {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "Role"}, {"name", "read-cm"}}},
      {"subjects",
       Json::array({{{"kind", "ServiceAccount"}, {"name", "op"}, {"namespace", "default"}}})}};
  c.Create(role);
  c.Create(binding);
  c.Run(599 * kMillisecond);
  EXPECT_FALSE(informer.HasSynced());
  c.Run(kMillisecond);
  EXPECT_TRUE(informer.HasSynced()) << "the attempt at 5.6s succeeds";
  EXPECT_TRUE(registration.HasSynced());
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(r.lines[0].rfind("add a ", 0), 0u);
  EXPECT_NE(r.lines[0].find("initial"), std::string::npos);
}

TEST(SharedIndexInformer, ResyncUpdatesWithTheSameVersionOnlyTheListenersThatAreDue) {
  Cluster c;
  api::ObjectPtr a = c.Create(Cluster::ConfigMap("a"));
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap",
                               Named("cm-informer", 10 * kSecond));
  Recorder fast;
  Recorder slow;
  Recorder never;
  informer.AddEventHandlerWithResyncPeriod(fast.Funcs(), 2 * kSecond);
  informer.AddEventHandlerWithResyncPeriod(slow.Funcs(), 5 * kSecond);
  informer.AddEventHandlerWithResyncPeriod(never.Funcs(), 0);
  EXPECT_EQ(informer.resync_check_period(), 2 * kSecond) << "lowered before Start";
  informer.Start();
  fast.lines.clear();
  slow.lines.clear();
  never.lines.clear();
  const std::string sync = "update a " + Rv(a) + "->" + Rv(a);

  c.Run(4 * kSecond);  // checks at 2s and 4s: fast only
  EXPECT_EQ(fast.lines, (std::vector<std::string>{sync, sync}));
  EXPECT_TRUE(slow.lines.empty());
  c.Run(2 * kSecond);  // check at 6s: both (slow was due at 5s)
  EXPECT_EQ(fast.lines.size(), 3u);
  EXPECT_EQ(slow.lines, (std::vector<std::string>{sync}));
  c.Run(4 * kSecond);  // checks at 8s and 10s: slow's next is 11s
  EXPECT_EQ(fast.lines.size(), 5u);
  EXPECT_EQ(slow.lines.size(), 1u);
  EXPECT_TRUE(never.lines.empty());
  EXPECT_EQ(c.Records("informer.resync").size(), 5u);

  api::ObjectPtr v2 = c.SetData("a", "two");
  c.Run(kMillisecond);
  EXPECT_EQ(never.lines, (std::vector<std::string>{"update a " + Rv(a) + "->" + Rv(v2)}))
      << "a real change goes to every listener";
}

TEST(DetermineResyncPeriod, ClampsToTheCheckPeriod) {
  struct Case {
    base::Duration desired, check, expected;
  };
  const std::vector<Case> cases = {
      {0, 5 * kSecond, 0},                      // never stays never
      {3 * kSecond, 0, 0},                      // the informer cannot resync
      {3 * kSecond, 5 * kSecond, 5 * kSecond},  // raised to the check period
      {8 * kSecond, 5 * kSecond, 8 * kSecond},  // kept
  };
  for (const Case& c : cases) {
    EXPECT_EQ(DetermineResyncPeriod(c.desired, c.check), c.expected)
        << c.desired << " vs " << c.check;
  }
}

TEST(SharedIndexInformer, ResyncPeriodsAreClampedLikeClientGo) {
  Cluster c;
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap",
                               Named("cm-informer", 10 * kSecond));
  informer.AddEventHandlerWithResyncPeriod({}, 500 * kMillisecond);
  EXPECT_EQ(informer.resync_check_period(), kSecond) << "below 1s becomes 1s";
  informer.Start();
  informer.AddEventHandlerWithResyncPeriod({}, 0);
  informer.AddEventHandlerWithResyncPeriod({}, 3 * kSecond);
  EXPECT_EQ(informer.resync_check_period(), kSecond);
  auto listeners = informer.Listeners();
  ASSERT_EQ(listeners.size(), 3u);
  EXPECT_EQ(listeners[0].resync_period, kSecond);
  EXPECT_EQ(listeners[1].resync_period, 0);
  EXPECT_EQ(listeners[2].resync_period, 3 * kSecond);

  SharedIndexInformer no_resync(c.admin, c.scheduler, "ConfigMap", Named("quiet"));
  no_resync.AddEventHandlerWithResyncPeriod({}, 5 * kSecond);
  EXPECT_EQ(no_resync.Listeners()[0].resync_period, 0)
      << "an informer created without resync cannot resync any handler";

  SharedIndexInformer started(c.admin, c.scheduler, "ConfigMap", Named("started", 10 * kSecond));
  started.Start();
  started.AddEventHandlerWithResyncPeriod({}, 2 * kSecond);
  EXPECT_EQ(started.resync_check_period(), 10 * kSecond);
  EXPECT_EQ(started.Listeners()[0].resync_period, 10 * kSecond) << "raised after Start";
}

TEST(SharedIndexInformer, RemovedHandlersGetNoMoreCalls) {
  Cluster c;
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap", Named("cm-informer"));
  Recorder kept;
  Recorder removed;
  informer.AddEventHandler(kept.Funcs());
  auto registration = informer.AddEventHandler(removed.Funcs());
  informer.Start();
  EXPECT_TRUE(registration.HasSynced());
  EXPECT_TRUE(informer.RemoveEventHandler(registration).ok());
  EXPECT_FALSE(registration.valid());
  EXPECT_FALSE(registration.HasSynced());
  EXPECT_TRUE(informer.RemoveEventHandler(registration).ok()) << "removing twice is harmless";
  c.Create(Cluster::ConfigMap("a"));
  c.Run(kMillisecond);
  EXPECT_EQ(kept.lines.size(), 1u);
  EXPECT_TRUE(removed.lines.empty());
}

TEST(SharedIndexInformer, AHandlerRemovingAnotherDuringDeliveryStopsItAtOnce) {
  Cluster c;
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap", Named("cm-informer"));
  Recorder second;
  ResourceEventHandlerRegistration second_registration;
  ResourceEventHandlerFuncs first;
  first.on_add = [&](const api::ObjectPtr&, bool) {
    EXPECT_TRUE(informer.RemoveEventHandler(second_registration).ok());
  };
  informer.AddEventHandler(first);
  second_registration = informer.AddEventHandler(second.Funcs());
  informer.Start();
  c.Create(Cluster::ConfigMap("a"));
  c.Run(kMillisecond);
  EXPECT_TRUE(second.lines.empty());
}

TEST(SharedIndexInformer, ObjectsLeavingTheLabelSelectionArriveAsDeletes) {
  Cluster c;
  InformerOptions options = Named("web-informer");
  options.label_selector = "app=web";
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap", options);
  Recorder r;
  informer.AddEventHandler(r.Funcs());
  informer.Start();
  c.Create(Cluster::ConfigMap("a", "default", {{"app", "web"}}));
  c.Create(Cluster::ConfigMap("b", "default", {{"app", "db"}}));
  c.Run(kMillisecond);
  auto relabeled = c.admin.Patch("ConfigMap", "default", "a", apiserver::PatchType::kJsonMerge,
                                 Json{{"metadata", {{"labels", {{"app", "db"}}}}}});
  ASSERT_TRUE(relabeled.ok());
  c.Run(kMillisecond);
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_EQ(r.lines[0].rfind("add a ", 0), 0u);
  EXPECT_EQ(r.lines[1].rfind("delete a ", 0), 0u);
  EXPECT_EQ(informer.GetStore().size(), 0u);
}

TEST(SharedIndexInformer, TheNamespaceIndexIsAlwaysThere) {
  Cluster c;
  c.Create(Cluster::ConfigMap("a", "team"));
  c.Create(Cluster::ConfigMap("b", "default"));
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap", Named("cm-informer"));
  informer.Start();
  auto team = informer.GetIndexer().ByIndex(kNamespaceIndex, "team");
  ASSERT_TRUE(team.ok());
  ASSERT_EQ(team->size(), 1u);
  EXPECT_EQ(api::Name(*team->front()), "a");
  EXPECT_EQ(informer.AddIndexers({{"x", MetaNamespaceIndexFunc}}).message(),
            "informer has already started");
}

TEST(SharedIndexInformer, StopEndsDeliveriesAndCannotBeUndone) {
  Cluster c;
  SharedIndexInformer informer(c.admin, c.scheduler, "ConfigMap", Named("cm-informer"));
  Recorder r;
  informer.AddEventHandler(r.Funcs());
  informer.Start();
  c.Create(Cluster::ConfigMap("a"));
  informer.Stop();
  informer.Start();
  c.Run(kSecond);
  EXPECT_TRUE(r.lines.empty());
  EXPECT_TRUE(informer.IsStopped());
  EXPECT_FALSE(informer.AddEventHandler(r.Funcs()).valid());
}

TEST(SharedIndexInformer, DefaultsItsNameFromTheKind) {
  Cluster c;
  SharedIndexInformer informer(c.admin, c.scheduler, "pods", {});
  EXPECT_EQ(informer.name(), "pod-informer");
  EXPECT_EQ(informer.kind(), "Pod");
}

TEST(SharedIndexInformer, JitteredBackoffStaysWithinOneHundredPercent) {
  Cluster c;
  apiserver::RbacAuthorizer rbac(c.api);
  c.api.SetAuthorizer(rbac.AsAuthorizer());
  client::DirectClient denied(c.api, "system:serviceaccount:default:nobody");
  sim::Prng prng(42);
  SharedIndexInformer informer(denied, c.scheduler, prng, "ConfigMap", Named("jittered"));
  informer.Start();
  ASSERT_NE(informer.reflector(), nullptr);
  ASSERT_TRUE(informer.reflector()->next_attempt_at().has_value());
  const base::SimTime first = *informer.reflector()->next_attempt_at();
  EXPECT_GE(first, 800 * kMillisecond);
  EXPECT_LT(first, 1600 * kMillisecond);
}

}  // namespace
}  // namespace informer
