// Each invariant fires on a deliberately broken State and stays silent on a correct one.

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/check/invariants/caches_match.h"
#include "core/check/invariants/objects_intact.h"
#include "core/check/invariants/one_deployment_per_owner.h"
#include "core/check/invariants/owner_alive.h"
#include "core/check/invariants/queue_unique.h"
#include "core/check/invariants/raycluster_pods.h"
#include "core/check/invariants/watch_order.h"

namespace check {
namespace {

using apiserver::WatchEventType;

api::ObjectPtr Obj(const std::string& kind, const std::string& name, const std::string& uid,
                   int rv, api::Json extra = api::Json::object()) {
  api::Json doc = {{"kind", kind},
                   {"metadata",
                    {{"name", name}, {"namespace", "default"}, {"uid", uid},
                     {"resourceVersion", std::to_string(rv)}}}};
  doc.merge_patch(extra);
  return api::MakeObject(doc);
}

std::vector<Violation> CheckOnce(Invariant& inv, const State& state) {
  std::vector<Violation> out;
  inv.Check(state, &out);
  return out;
}

// --- watches ----------------------------------------------------------------------------------

WatchDelivery D(WatchEventType type, const std::string& name, int64_t rv) {
  return WatchDelivery{type, "Pod/default/" + name, rv};
}

TEST(WatchOrder, FiresOnAnOutOfOrderResourceVersion) {
  Recorder rec;
  WatchLog& log = rec.watches()[1];
  log.id = 1;
  log.watcher = "fake-informer";
  log.queued = {D(WatchEventType::kAdded, "a", 5), D(WatchEventType::kModified, "a", 7)};
  log.delivered = {D(WatchEventType::kModified, "a", 7), D(WatchEventType::kAdded, "a", 5)};
  State state;
  state.recorder = &rec;
  WatchOrder inv;
  const auto v = CheckOnce(inv, state);
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0].invariant, "watch-order");
  bool saw_rv = false;
  for (const auto& x : v) saw_rv |= x.detail.find("did not increase") != std::string::npos;
  EXPECT_TRUE(saw_rv) << v[0].detail;
}

TEST(WatchOrder, FiresOnADuplicateDelivery) {
  Recorder rec;
  WatchLog& log = rec.watches()[1];
  log.queued = {D(WatchEventType::kAdded, "a", 5)};
  log.delivered = {D(WatchEventType::kAdded, "a", 5), D(WatchEventType::kAdded, "a", 5)};
  State state;
  state.recorder = &rec;
  WatchOrder inv;
  const auto v = CheckOnce(inv, state);
  ASSERT_FALSE(v.empty());
  EXPECT_NE(v.back().detail.find("never queued"), std::string::npos) << v.back().detail;
}

TEST(WatchOrder, SilentOnAnInOrderPrefixAndChecksEachDeliveryOnce) {
  Recorder rec;
  WatchLog& log = rec.watches()[1];
  log.queued = {D(WatchEventType::kAdded, "a", 5), D(WatchEventType::kModified, "a", 7),
                D(WatchEventType::kDeleted, "a", 9)};
  log.delivered = {D(WatchEventType::kAdded, "a", 5), D(WatchEventType::kModified, "a", 7)};
  State state;
  state.recorder = &rec;
  WatchOrder inv;
  EXPECT_TRUE(CheckOnce(inv, state).empty());
  // A later step delivers a stale event: only it is reported.
  log.delivered.push_back(D(WatchEventType::kModified, "a", 6));
  const auto v = CheckOnce(inv, state);
  EXPECT_EQ(v.size(), 2u);  // not increasing, and not what was queued third
}

TEST(WatchComplete, FiresWhenAChangeInScopeWasNotQueued) {
  Recorder rec;
  WatchLog& log = rec.watches()[3];
  log.expected = {D(WatchEventType::kAdded, "a", 5), D(WatchEventType::kAdded, "b", 6)};
  log.queued = {D(WatchEventType::kAdded, "a", 5)};
  State state;
  state.recorder = &rec;
  WatchComplete inv;
  const auto v = CheckOnce(inv, state);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].detail.find("never queued ADDED Pod/default/b@6"), std::string::npos)
      << v[0].detail;
}

TEST(WatchComplete, TheRecorderExpectsALabelSelectorExitAsDeleted) {
  Recorder rec;
  rec.Seed({}, 10, {});
  const api::KindInfo* pod = api::FindKind("Pod");
  ASSERT_NE(pod, nullptr);
  apiserver::WatchOptions opts;
  opts.watcher = "w";
  opts.label_selector = "app=x";
  rec.OnWatchOpened(7, *pod, opts);
  auto in = Obj("Pod", "a", "u1", 11, {{"metadata", {{"labels", {{"app", "x"}}}}}});
  auto out = Obj("Pod", "a", "u1", 12, {{"metadata", {{"labels", {{"app", "y"}}}}}});
  rec.OnCommit(*pod, WatchEventType::kAdded, nullptr, in);
  rec.OnCommit(*pod, WatchEventType::kModified, in, out);
  const WatchLog& log = rec.watches().at(7);
  ASSERT_EQ(log.expected.size(), 2u);
  EXPECT_EQ(log.expected[0].ToString(), "ADDED Pod/default/a@11");
  EXPECT_EQ(log.expected[1].ToString(), "DELETED Pod/default/a@12");
  // The server queued only the ADDED: the exit was lost.
  rec.OnWatchQueued(7, WatchEventType::kAdded, in);
  State state;
  state.recorder = &rec;
  WatchComplete inv;
  EXPECT_EQ(CheckOnce(inv, state).size(), 1u);
}

// --- objects ----------------------------------------------------------------------------------

TEST(ObjectsIntact, FiresOnAnObjectNoCommitCreatedAndOnASharedUid) {
  Recorder rec;
  auto a = Obj("Pod", "a", "u1", 3);
  rec.Seed({a}, 3, {});
  State state;
  state.recorder = &rec;
  state.objects = {a, Obj("Pod", "b", "u1", 3)};
  ObjectsIntact inv;
  const auto v = CheckOnce(inv, state);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_NE(v[0].detail.find("share uid u1"), std::string::npos) << v[0].detail;
  EXPECT_NE(v[1].detail.find("no commit created it"), std::string::npos) << v[1].detail;
}

TEST(ObjectsIntact, FiresOnALostObjectAndSilentWhenTheStoreMatchesItsCommits) {
  Recorder rec;
  rec.Seed({}, 1, {});
  const api::KindInfo* pod = api::FindKind("Pod");
  auto a = Obj("Pod", "a", "u1", 2);
  auto b = Obj("Pod", "b", "u2", 3);
  rec.OnCommit(*pod, WatchEventType::kAdded, nullptr, a);
  rec.OnCommit(*pod, WatchEventType::kAdded, nullptr, b);
  State state;
  state.recorder = &rec;
  state.objects = {a, b};
  ObjectsIntact inv;
  EXPECT_TRUE(CheckOnce(inv, state).empty());
  state.objects = {a};
  const auto v = CheckOnce(inv, state);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].detail.find("Pod/default/b"), std::string::npos);
}

TEST(ObjectsIntact, FiresWhenACommitDoesNotRaiseTheResourceVersion) {
  Recorder rec;
  rec.Seed({}, 5, {});
  rec.OnCommit(*api::FindKind("Pod"), WatchEventType::kAdded, nullptr, Obj("Pod", "a", "u", 5));
  State state;
  state.recorder = &rec;
  state.objects = {Obj("Pod", "a", "u", 5)};
  ObjectsIntact inv;
  const auto v = CheckOnce(inv, state);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].detail.find("not above the previous 5"), std::string::npos) << v[0].detail;
}

// --- owners -----------------------------------------------------------------------------------

api::Json ControlledBy(const std::string& uid) {
  return {{"metadata",
           {{"ownerReferences",
             {{{"apiVersion", "ray.io/v1"}, {"kind", "RayCluster"}, {"name", "rc"},
               {"uid", uid}, {"controller", true}}}}}}};
}

TEST(OwnerAlive, FiresAtOnceOnAControllerUidThatWasNeverStored) {
  Recorder rec;
  auto orphan = Obj("Pod", "p", "u-pod", 4, ControlledBy("u-nobody"));
  rec.Seed({orphan}, 4, {});
  State state;
  state.recorder = &rec;
  state.objects = {orphan};
  OwnerAlive inv;
  const auto v = CheckOnce(inv, state);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].detail.find("never stored"), std::string::npos) << v[0].detail;
}

TEST(OwnerAlive, AfterQuietAGoneOwnerFiresUnlessTheDependentIsBeingDeleted) {
  Recorder rec;
  auto owner = Obj("RayCluster", "rc", "u-rc", 2);
  auto pod = Obj("Pod", "p", "u-pod", 3, ControlledBy("u-rc"));
  rec.Seed({owner, pod}, 3, {});
  State state;
  state.recorder = &rec;
  state.objects = {pod};  // the owner is gone
  OwnerAlive inv;
  EXPECT_TRUE(CheckOnce(inv, state).empty()) << "mid-run the garbage collector may not have acted yet";
  state.quiet = true;
  EXPECT_EQ(CheckOnce(inv, state).size(), 1u);
  api::Json deleting = ControlledBy("u-rc");
  deleting["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:30Z";
  state.objects = {Obj("Pod", "p", "u-pod", 4, deleting)};
  EXPECT_TRUE(CheckOnce(inv, state).empty());
  state.objects = {owner, pod};
  EXPECT_TRUE(CheckOnce(inv, state).empty());
}

TEST(OneDeploymentPerInferenceService, FiresWhenOneInferenceServiceControlsTwoDeployments) {
  Recorder rec;
  State state;
  state.recorder = &rec;
  api::Json by_isvc = {{"metadata",
                        {{"ownerReferences",
                          {{{"apiVersion", "serving.lab.io/v1"},
                            {"kind", "InferenceService"},
                            {"name", "llm"},
                            {"uid", "u-isvc"},
                            {"controller", true}}}}}}};
  state.objects = {Obj("Deployment", "llm-a", "u-a", 3, by_isvc),
                   Obj("Pod", "llm-pod", "u-p", 4, by_isvc)};
  OneDeploymentPerInferenceService inv;
  EXPECT_TRUE(CheckOnce(inv, state).empty()) << "one Deployment (a Pod is not counted)";
  state.objects.push_back(Obj("Deployment", "llm-b", "u-b", 5, by_isvc));
  const auto v = CheckOnce(inv, state);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].invariant, "one-deployment-per-inferenceservice");
  EXPECT_EQ(v[0].detail, "InferenceService default/llm controls 2 Deployments: llm-a, llm-b");
}

// --- queues and workers -----------------------------------------------------------------------

TEST(QueueUnique, FiresOnADuplicateReadyKeyAndOnAReadyKeyBeingProcessed) {
  Recorder rec;
  State state;
  state.recorder = &rec;
  QueueState q;
  q.controller = "op/pod/raycluster";
  q.snapshot.priority_queue = false;
  q.snapshot.ready = {{"default/a", 0, false}, {"default/a", 0, false}, {"default/b", 0, false}};
  q.snapshot.processing = {"default/b"};
  state.queues = {q};
  QueueUnique inv;
  const auto v = CheckOnce(inv, state);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_NE(v[0].detail.find("default/a twice"), std::string::npos) << v[0].detail;
  EXPECT_NE(v[1].detail.find("default/b ready while it is being processed"), std::string::npos);
}

TEST(QueueUnique, SilentOnALockedPriorityQueueEntryAndFiresOnReadyAndWaiting) {
  Recorder rec;
  State state;
  state.recorder = &rec;
  QueueState q;
  q.controller = "c";
  q.snapshot.priority_queue = true;
  q.snapshot.ready = {{"default/a", 0, true}};
  q.snapshot.processing = {"default/a"};
  state.queues = {q};
  QueueUnique inv;
  EXPECT_TRUE(CheckOnce(inv, state).empty());
  state.queues[0].snapshot.waiting = {{"default/a", 100, 0}};
  EXPECT_EQ(CheckOnce(inv, state).size(), 1u);
}

TEST(OneWorkerPerKey, FiresWhenTwoWorkersHoldOneKey) {
  Recorder rec;
  State state;
  state.recorder = &rec;
  QueueState q;
  q.controller = "c";
  q.snapshot.processing = {"default/a"};
  state.queues = {q};
  WorkerSet w;
  w.controller = "c";
  w.workers = {{0, "default/a", 0, 0}, {1, "", 0, 0}};
  state.workers = {w};
  OneWorkerPerKey inv;
  EXPECT_TRUE(CheckOnce(inv, state).empty());
  state.workers[0].workers[1].key = "default/a";
  const auto v = CheckOnce(inv, state);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].detail.find("both reconcile default/a"), std::string::npos) << v[0].detail;
  state.queues[0].snapshot.processing.clear();
  EXPECT_EQ(CheckOnce(inv, state).size(), 3u);  // the pair, and neither is counted as processing
}

// --- caches -----------------------------------------------------------------------------------

TEST(CachesMatch, FiresOnALostAStaleAndAnExtraObject) {
  Recorder rec;
  State state;
  state.recorder = &rec;
  state.quiet = true;
  state.objects = {Obj("Pod", "a", "u1", 5), Obj("Pod", "b", "u2", 6),
                   Obj("Service", "s", "u3", 7)};
  CacheState c;
  c.informer = "op/pod-informer";
  c.kind = "Pod";
  c.objects = {Obj("Pod", "a", "u1", 5), Obj("Pod", "b", "u2", 6)};
  state.caches = {c};
  CachesMatch inv;
  EXPECT_TRUE(CheckOnce(inv, state).empty());
  state.caches[0].objects = {Obj("Pod", "a", "u1", 4), Obj("Pod", "z", "u9", 2)};
  const auto v = CheckOnce(inv, state);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_NE(v[0].detail.find("holds Pod/default/a@4 but the server has @5"), std::string::npos);
  EXPECT_NE(v[1].detail.find("lost Pod/default/b@6"), std::string::npos);
  EXPECT_NE(v[2].detail.find("still holds Pod/default/z@2"), std::string::npos);
}

// --- RayClusters ------------------------------------------------------------------------------

api::ObjectPtr RayPod(const std::string& name, const std::string& type, const std::string& group,
                      bool ready) {
  return Obj("Pod", name, "u-" + name, 9,
             {{"metadata",
               {{"labels",
                 {{"ray.io/cluster", "rc"}, {"ray.io/node-type", type}, {"ray.io/group", group}}}}},
              {"status",
               {{"phase", "Running"},
                {"conditions", {{{"type", "Ready"}, {"status", ready ? "True" : "False"}}}}}}});
}

TEST(RayClusterPods, FiresOnAMissingWorkerAndAStatusThatDoesNotCountThePods) {
  Recorder rec;
  State state;
  state.recorder = &rec;
  state.quiet = true;
  api::Json rc = {{"metadata", {{"generation", 2}}},
                  {"spec",
                   {{"workerGroupSpecs",
                     {{{"groupName", "g0"}, {"replicas", 2}, {"minReplicas", 0},
                       {"maxReplicas", 4}}}}}},
                  {"status",
                   {{"observedGeneration", 2}, {"desiredWorkerReplicas", 2},
                    {"readyWorkerReplicas", 2}, {"availableWorkerReplicas", 2}}}};
  auto cluster = Obj("RayCluster", "rc", "u-rc", 8, rc);
  state.objects = {cluster, RayPod("h", "head", "headgroup", true), RayPod("w1", "worker", "g0", true),
                   RayPod("w2", "worker", "g0", true)};
  RayClusterPods inv;
  EXPECT_TRUE(CheckOnce(inv, state).empty());
  state.objects.pop_back();  // one worker gone: too few Pods, and the status counts two
  const auto v = CheckOnce(inv, state);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_NE(v[0].detail.find("group g0 has 1 worker Pods, want 2"), std::string::npos)
      << v[0].detail;
  EXPECT_NE(v[1].detail.find("status.readyWorkerReplicas is 2, the world has 1"),
            std::string::npos) << v[1].detail;
}

TEST(RayClusterPods, ASuspendedClusterWantsNoPodsAndReplicasAreClamped) {
  Recorder rec;
  State state;
  state.recorder = &rec;
  state.quiet = true;
  api::Json rc = {{"spec",
                   {{"suspend", true},
                    {"workerGroupSpecs",
                     {{{"groupName", "g0"}, {"replicas", 9}, {"maxReplicas", 1}}}}}},
                  {"status",
                   {{"observedGeneration", 0}, {"desiredWorkerReplicas", 1},
                    {"readyWorkerReplicas", 0}, {"availableWorkerReplicas", 0}}}};
  state.objects = {Obj("RayCluster", "rc", "u-rc", 8, rc)};
  RayClusterPods inv;
  EXPECT_TRUE(CheckOnce(inv, state).empty());
  state.objects.push_back(RayPod("h", "head", "headgroup", true));
  EXPECT_EQ(CheckOnce(inv, state).size(), 1u);
}

}  // namespace
}  // namespace check
