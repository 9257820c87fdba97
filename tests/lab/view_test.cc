#include "core/lab/view.h"

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "core/lab/lab.h"
#include "core/sim/trace_values.h"

namespace lab {
namespace {

constexpr const char* kScenario = R"(wait --for=condition=Available deploy/inference-operator --timeout=30s
apply -f - <<EOF
apiVersion: inference.io/v1
kind: InferenceService
metadata:
  name: llama
spec:
  replicas: 2
  image: vllm:0.6.3
EOF
wait --for=jsonpath='{.status.ready}'=true isvc/llama --timeout=60s
)";

bool RunAll(Lab& lab, const std::string& script, std::string* err) {
  auto outcome = lab.RunScript(script, ".", false, [&](const ScriptLine&, const CommandResult& r) {
    *err += r.err;
  });
  return outcome.parsed && outcome.ok;
}

const ObjectRow* Find(const std::vector<ObjectRow>& rows, const std::string& kind,
                      const std::string& name_prefix) {
  for (const ObjectRow& r : rows) {
    if (r.kind == kind && r.name.rfind(name_prefix, 0) == 0) return &r;
  }
  return nullptr;
}

TEST(View, ObjectTreeNestsDependentsUnderTheirControllerOwner) {
  Lab lab(SimulationOptions{});
  std::string err;
  ASSERT_TRUE(RunAll(lab, kScenario, &err)) << err;
  std::vector<ObjectRow> rows = ObjectTree(lab.sim());
  const ObjectRow* isvc = Find(rows, "InferenceService", "llama");
  const ObjectRow* deploy = Find(rows, "Deployment", "llama");
  const ObjectRow* rs = Find(rows, "ReplicaSet", "llama-");
  const ObjectRow* pod = Find(rows, "Pod", "llama-");
  ASSERT_TRUE(isvc && deploy && rs && pod);
  EXPECT_EQ(isvc->depth, 0);
  EXPECT_TRUE(isvc->has_children);
  EXPECT_EQ(deploy->owner_uid, isvc->uid);
  EXPECT_EQ(deploy->depth, 1);
  EXPECT_EQ(rs->owner_uid, deploy->uid);
  EXPECT_EQ(pod->owner_uid, rs->uid);
  EXPECT_EQ(pod->depth, 3);
  EXPECT_EQ(pod->status, "Running");
  EXPECT_EQ(pod->health, Health::kGood);
  // Depth-first: the nearest earlier row one level up is the row's owner.
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].depth == 0) continue;
    size_t j = i;
    while (j > 0 && rows[j - 1].depth >= rows[i].depth) --j;
    ASSERT_GT(j, 0u) << rows[i].kind << "/" << rows[i].name;
    EXPECT_EQ(rows[j - 1].uid, rows[i].owner_uid) << rows[i].kind << "/" << rows[i].name;
  }
  // Every stored object appears exactly once.
  EXPECT_EQ(rows.size(), lab.sim().apiserver().PeekEverything().size());
}

TEST(View, SummarizeObjectReadsPodStatesAndConditions) {
  std::string status;
  Health health;
  SummarizeObject(api::Json::parse(R"({"kind":"Pod","status":{"phase":"Pending"}})"), &status, &health);
  EXPECT_EQ(status, "Pending");
  EXPECT_EQ(health, Health::kProgressing);
  SummarizeObject(api::Json::parse(R"({"kind":"Pod","status":{"phase":"Running",
      "conditions":[{"type":"Ready","status":"False"}]}})"), &status, &health);
  EXPECT_EQ(status, "NotReady");
  EXPECT_EQ(health, Health::kProgressing);
  SummarizeObject(api::Json::parse(R"({"kind":"Pod","status":{"phase":"Running",
      "containerStatuses":[{"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}})"), &status, &health);
  EXPECT_EQ(status, "CrashLoopBackOff");
  EXPECT_EQ(health, Health::kBad);
  SummarizeObject(api::Json::parse(R"({"kind":"Deployment","status":{
      "conditions":[{"type":"Available","status":"False"}]}})"), &status, &health);
  EXPECT_EQ(status, "Available=False");
  EXPECT_EQ(health, Health::kProgressing);
  SummarizeObject(api::Json::parse(R"({"kind":"RayCluster","status":{"state":"ready"}})"), &status, &health);
  EXPECT_EQ(health, Health::kGood);
  SummarizeObject(api::Json::parse(R"({"kind":"ConfigMap","metadata":{
      "deletionTimestamp":"2026-01-01T00:00:05Z"}})"), &status, &health);
  EXPECT_EQ(status, "Terminating");
  EXPECT_EQ(health, Health::kDeleting);
  SummarizeObject(api::Json::parse(R"({"kind":"ConfigMap"})"), &status, &health);
  EXPECT_EQ(status, "");
  EXPECT_EQ(health, Health::kNeutral);
}

TEST(View, QueuesAndMetricsShowTheRunningControllers) {
  Lab lab(SimulationOptions{});
  EXPECT_TRUE(Queues(lab.sim()).empty());  // no operator process before its Pod runs
  std::string err;
  ASSERT_TRUE(RunAll(lab, kScenario, &err)) << err;
  std::vector<QueueView> queues = Queues(lab.sim());
  auto isvc = std::find_if(queues.begin(), queues.end(),
                           [](const QueueView& q) { return q.controller == "inferenceservice"; });
  ASSERT_NE(isvc, queues.end());
  EXPECT_EQ(isvc->op, "inference-operator");
  EXPECT_TRUE(isvc->priority_queue);
  MetricsSample m = SampleMetrics(lab.sim());
  EXPECT_EQ(m.t, lab.sim().clock().Now());
  EXPECT_GT(m.workqueue_adds_total, 0);
  EXPECT_GT(m.reconcile_total["success"] + m.reconcile_total["requeue_after"], 0);
  EXPECT_EQ(m.objects, static_cast<int64_t>(lab.sim().apiserver().PeekEverything().size()));
}

TEST(View, MetricsIncludeTheBuiltInControllersQueues) {
  Lab lab(SimulationOptions{});
  std::string err;
  ASSERT_TRUE(RunAll(lab, kScenario, &err)) << err;
  MetricsSample before = SampleMetrics(lab.sim());
  std::vector<std::string> names;
  for (const BuiltinQueue& q : before.builtin) names.push_back(q.name);
  EXPECT_EQ(names, (std::vector<std::string>{"deployment", "replicaset", "job", "endpoint",
                                             "namespace", "kube-scheduler", "garbagecollector",
                                             "kubelet"}));
  auto find = [](const MetricsSample& m, const std::string& name) {
    for (const BuiltinQueue& q : m.builtin) {
      if (q.name == name) return q;
    }
    return BuiltinQueue{};
  };
  // The operator's Deployment and the model server's went through the Deployment controller.
  EXPECT_GT(find(before, "deployment").adds_total, 0);
  EXPECT_GT(find(before, "replicaset").adds_total, 0);
  // A scale-up reaches the Deployment controller through its watch: the key then waits in the
  // queue for the sync delay, and is gone once synced.
  ASSERT_TRUE(RunAll(lab, "scale deploy inference-operator --replicas=2\n", &err)) << err;
  bool queued = false;
  for (int i = 0; i < 200 && !queued; ++i) {
    ASSERT_TRUE(RunAll(lab, "run 1ms\n", &err)) << err;
    queued = find(SampleMetrics(lab.sim()), "deployment").depth == 1;
  }
  EXPECT_TRUE(queued);
  ASSERT_TRUE(RunAll(lab, "run 1s\n", &err)) << err;
  MetricsSample synced = SampleMetrics(lab.sim());
  EXPECT_EQ(find(synced, "deployment").depth, 0);
  EXPECT_GT(find(synced, "deployment").adds_total, find(before, "deployment").adds_total);
  // Deleting an owner gives the garbage collector work (its dependents).
  const int64_t gc_adds = find(synced, "garbagecollector").adds_total;
  ASSERT_TRUE(RunAll(lab, "delete isvc llama\nrun 2s\n", &err)) << err;
  EXPECT_GT(find(SampleMetrics(lab.sim()), "garbagecollector").adds_total, gc_adds);
}

TEST(View, TraceLaneGroupsEventsBySwimlane) {
  auto ev = [](std::string type, sim::TraceFields fields) {
    sim::TraceEvent e;
    e.type = sim::internal::PoolTraceValue(type);  // a record's type text is pooled
    e.fields = std::move(fields);
    return e;
  };
  EXPECT_EQ(TraceLane(ev("api.request", {{"verb", "create"}})), "API server");
  EXPECT_EQ(TraceLane(ev("watch.event", {{"watcher", "x"}})), "informers");
  EXPECT_EQ(TraceLane(ev("queue.add", {{"controller", "raycluster"}})), "raycluster queue");
  EXPECT_EQ(TraceLane(ev("predicate.eval", {{"controller", "raycluster"}})), "raycluster queue");
  EXPECT_EQ(TraceLane(ev("reconcile.end", {{"controller", "rayjob"}})), "rayjob workers");
  EXPECT_EQ(TraceLane(ev("kubelet.pod", {})), "kubelet");
  EXPECT_EQ(TraceLane(ev("gc.action", {})), "garbage collector");
}

TEST(View, CauseChainFollowsLinksBackToTheCommandAndForwardToEffects) {
  Lab lab(SimulationOptions{});
  std::string err;
  ASSERT_TRUE(RunAll(lab, kScenario, &err)) << err;
  const auto& events = lab.sim().trace().events();
  // The learner's create of the InferenceService starts a chain that reaches a reconcile.
  auto create = std::find_if(events.begin(), events.end(), [](const sim::TraceEvent& e) {
    return e.type == "api.request" && e.FieldString("verb") == "create" &&
           e.FieldString("kind") == "InferenceService";
  });
  ASSERT_NE(create, events.end());
  std::vector<int64_t> chain = CauseChain(lab.sim().trace(), create->seq);
  ASSERT_TRUE(std::is_sorted(chain.begin(), chain.end()));
  bool reaches_reconcile = false;
  for (int64_t seq : chain) {
    const sim::TraceEvent& e = events[static_cast<size_t>(seq - 1)];
    reaches_reconcile |= e.type == "reconcile.start";
    if (seq == create->seq) continue;
    // Every other member was caused by a member.
    const int64_t cause = e.Field("cause")->i;
    EXPECT_TRUE(std::binary_search(chain.begin(), chain.end(), cause)) << e.ToJsonLine();
  }
  ASSERT_TRUE(reaches_reconcile);
  // From a reconcile.start, the chain leads back to the create.
  const int64_t start = *std::find_if(chain.begin(), chain.end(), [&](int64_t s) {
    return events[static_cast<size_t>(s - 1)].type == "reconcile.start";
  });
  std::vector<int64_t> back = CauseChain(lab.sim().trace(), start);
  EXPECT_TRUE(std::binary_search(back.begin(), back.end(), create->seq));
  EXPECT_TRUE(CauseChain(lab.sim().trace(), 0).empty());
  EXPECT_TRUE(CauseChain(lab.sim().trace(), lab.sim().trace().last_seq() + 1).empty());
}

}  // namespace
}  // namespace lab
