// Every `fault` form: API errors for N requests then success, API latency keeping the worker
// busy, watch drops and relists, cache lag and stale reads, external systems, nodes, `fault
// list` and `fault clear`, and each form's error path.
// No Go counterpart for the command; API rules act like controller-runtime's interceptor
// client, watch drops like an API server closing watches (client-go reflector relists).
#include <string>

#include <gtest/gtest.h>

#include "tests/lab/testing_session.h"

namespace lab {
namespace {

constexpr const char* kOp = "inference-operator";

std::string ReadyLlama() {
  return std::string(kInferenceOperatorUp) + InferenceServiceManifest("llama", 1, "vllm:0.6.3") +
         "wait --for=jsonpath='{.status.ready}'=true isvc/llama --timeout=60s\nrun 40s\n";
}

std::string OperatorUser() { return "system:serviceaccount:default:inference-operator"; }

TEST(FaultApi, TheNextNMatchingRequestsFailThenSucceed) {
  TestSession s;
  ASSERT_TRUE(s.Run(kInferenceOperatorUp)) << s.err;
  EXPECT_EQ(s.Output("fault api --verb update --kind isvc --code 409 --times 2"),
            "fault 1 added: the next 2 update requests for InferenceService fail with 409\n");
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run(InferenceServiceManifest("llama", 1, "vllm:0.6.3") + "run 5s\n")) << s.err;
  const auto updates = s.Records("api.request", {{"verb", "update"}, {"kind", "InferenceService"},
                                                 {"user", OperatorUser()}},
                                 since);
  ASSERT_GE(updates.size(), 3u);
  EXPECT_EQ(updates[0].FieldString("code"), "409");
  EXPECT_EQ(updates[1].FieldString("code"), "409");
  EXPECT_EQ(updates[2].FieldString("code"), "200");
  const auto errors = s.Records("reconcile.end", {{"key", "default/llama"}, {"result", "error"}}, since);
  EXPECT_EQ(errors.size(), 2u);
  EXPECT_EQ(s.Output("fault list"), "no faults\n") << "a used-up rule is gone";
  ASSERT_TRUE(s.Run("wait --for=jsonpath='{.status.ready}'=true isvc/llama --timeout=60s\n")) << s.err;
}

TEST(FaultApi, TheLearnersKubectlIsNeverFaulted) {
  TestSession s;
  ASSERT_TRUE(s.Run("fault api --kind ConfigMap --code 500\n")) << s.err;
  EXPECT_TRUE(s.Run("create namespace team\n")) << s.err;
  EXPECT_EQ(s.Output("get ns team -o name"), "namespace/team\n");
}

TEST(FaultApi, LatencyKeepsTheWorkerBusy) {
  TestSession s;
  ASSERT_TRUE(s.Run(ReadyLlama())) << s.err;
  EXPECT_EQ(s.Output("fault api --verb patch --kind deploy --latency 3s"),
            "fault 1 added: every patch request for Deployment slowed by 3s\n");
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run("scale isvc llama --replicas=2\nrun 10s\n")) << s.err;
  const auto patches = s.Records("api.request", {{"verb", "patch"}, {"kind", "Deployment"},
                                                 {"user", OperatorUser()}},
                                 since);
  ASSERT_FALSE(patches.empty());
  EXPECT_EQ(patches[0].FieldString("code"), "200") << "slowed, not failed";
  const auto starts = s.Records("reconcile.start", {{"key", "default/llama"}}, since);
  const auto dones = s.Records("queue.done", {{"key", "default/llama"}}, since);
  ASSERT_FALSE(starts.empty());
  ASSERT_FALSE(dones.empty());
  EXPECT_GE(dones[0].t - starts[0].t, 3 * base::kSecond);
  EXPECT_LT(dones[0].t - starts[0].t, 4 * base::kSecond);
}

TEST(FaultWatchDrop, InformersRelist) {
  TestSession s;
  ASSERT_TRUE(s.Run(ReadyLlama())) << s.err;
  const int64_t since = s.LastSeq();
  const std::string out = s.Output("fault watch-drop --kind isvc");
  EXPECT_EQ(out, "dropped 2 watches\n")
      << "the operator's InferenceService informer and the garbage collector's metadata watch";
  ASSERT_TRUE(s.Run("run 5s\n")) << s.err;
  const auto lists = s.Records("api.request", {{"verb", "list"}, {"kind", "InferenceService"},
                                               {"user", OperatorUser()}},
                               since);
  EXPECT_EQ(lists.size(), 1u);
  const auto watches = s.Records("api.request", {{"verb", "watch"}, {"kind", "InferenceService"},
                                                 {"user", OperatorUser()}},
                                 since);
  EXPECT_EQ(watches.size(), 1u);
  EXPECT_TRUE(s.Records("api.request", {{"verb", "list"}, {"kind", "Deployment"},
                                        {"user", OperatorUser()}},
                        since)
                  .empty())
      << "--kind limits the drop";

  // Without --kind every watch drops (the world's controllers too).
  const std::string all = s.Output("fault watch-drop");
  EXPECT_EQ(all.rfind("dropped ", 0), 0u);
  EXPECT_NE(all, "dropped 1 watch\n");
  EXPECT_NE(all, "dropped 0 watches\n");
}

TEST(FaultCacheLag, DeliveriesLagSoTheOperatorReadsStale) {
  TestSession s;
  ASSERT_TRUE(s.Run(ReadyLlama())) << s.err;
  EXPECT_EQ(s.Output("fault cache-lag --kind isvc --delay 5s"),
            "deliveries of InferenceService now lag by 5s\n");
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run("scale isvc llama --replicas=3\nrun 4s\n")) << s.err;
  manager::Manager& mgr = s.lab.sim().Operator(kOp)->Processes()[0].second->manager();
  auto cached = mgr.GetClient().Get("InferenceService", "default", "llama");
  ASSERT_TRUE(cached.ok());
  EXPECT_EQ((**cached)["spec"]["replicas"], 1) << "the cache still holds the old spec";
  EXPECT_EQ(s.Output("get isvc llama -o jsonpath={.spec.replicas}"), "3");
  EXPECT_TRUE(s.Records("reconcile.start", {{"key", "default/llama"}}, since).empty());

  ASSERT_TRUE(s.Run("run 2s\n")) << s.err;
  cached = mgr.GetClient().Get("InferenceService", "default", "llama");
  EXPECT_EQ((**cached)["spec"]["replicas"], 3);
  EXPECT_FALSE(s.Records("reconcile.start", {{"key", "default/llama"}}, since).empty());
  const auto events = s.Records("watch.event", {{"kind", "InferenceService"}, {"eventType", "MODIFIED"}}, since);
  ASSERT_FALSE(events.empty());
}

TEST(FaultExternal, DownLockedSlowAndUp) {
  TestSession s;
  ASSERT_TRUE(s.Run(ReadyLlama())) << s.err;
  EXPECT_EQ(s.Output("fault external objectstore down"), "objectstore is now down\n");
  int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run("delete isvc llama --wait=false\nrun 5s\n")) << s.err;
  auto calls = s.Records("external.call", {{"system", "objectstore"}}, since);
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls[0].FieldString("code"), "503");
  EXPECT_NE(s.Output("get isvc llama -o jsonpath={.metadata.deletionTimestamp}"), "");

  EXPECT_EQ(s.Output("fault external objectstore locked"), "objectstore is now locked\n");
  since = s.LastSeq();
  ASSERT_TRUE(s.Run("run 5s\n")) << s.err;
  calls = s.Records("external.call", {{"system", "objectstore"}}, since);
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls[0].FieldString("code"), "409");

  EXPECT_EQ(s.Output("fault external dns slow 2s"), "dns is now slow 2s\n");
  EXPECT_EQ(s.Output("fault external objectstore up"), "objectstore is now up\n");
  since = s.LastSeq();
  ASSERT_TRUE(s.Run("wait --for=delete isvc/llama --timeout=60s\nrun 5s\n")) << s.err;
  calls = s.Records("external.call", {{"system", "dns"}}, since);
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls[0].FieldString("code"), "200");
  EXPECT_EQ(calls[0].FieldString("latencyMs"), "2000");
  // The slow call kept the worker busy: the final reconcile lasted at least 2s.
  const auto starts = s.Records("reconcile.start", {{"key", "default/llama"}}, since);
  const auto dones = s.Records("queue.done", {{"key", "default/llama"}}, since);
  // The reconcile that made the DNS call started before it and ended after it.
  base::SimTime started = -1, done = -1;
  for (const auto& e : starts) {
    if (e.seq < calls[0].seq) started = e.t;
  }
  for (const auto& e : dones) {
    if (e.seq > calls[0].seq && done < 0) done = e.t;
  }
  ASSERT_GE(started, 0);
  ASSERT_GE(done, 0);
  EXPECT_GE(done - started, 2 * base::kSecond);
}

TEST(FaultNode, DownMarksTheNodeAndItsPodsNotReadyAndUpRecovers) {
  TestSession s;
  ASSERT_TRUE(s.Run(kInferenceOperatorUp)) << s.err;
  const std::string node =
      s.Output("get pods -l app.kubernetes.io/name=inference-operator -o jsonpath={.items[0].spec.nodeName}");
  ASSERT_FALSE(node.empty());
  const std::string pod =
      s.Output("get pods -l app.kubernetes.io/name=inference-operator -o jsonpath={.items[0].metadata.name}");
  EXPECT_EQ(s.Output("fault node " + node + " down"), "node/" + node + " down\n");
  const std::string ready_path = "-o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}'";
  ASSERT_TRUE(s.Run("run 39s\n")) << s.err;
  EXPECT_EQ(s.Output("get node " + node + " " + ready_path), "True") << "within the grace period";
  ASSERT_TRUE(s.Run("run 2s\n")) << s.err;
  EXPECT_EQ(s.Output("get node " + node + " " + ready_path), "Unknown");
  EXPECT_EQ(s.Output("get pod " + pod + " " + ready_path), "False");
  EXPECT_EQ(s.Output("fault node " + node + " up"), "node/" + node + " up\n");
  ASSERT_TRUE(s.Run("run 5s\n")) << s.err;
  EXPECT_EQ(s.Output("get node " + node + " " + ready_path), "True");
}

TEST(FaultListAndClear, ListShowsEachRuleAndClearRemovesRulesAndLag) {
  TestSession s;
  EXPECT_EQ(s.Output("fault list"), "no faults\n");
  ASSERT_TRUE(s.Run("fault api --verb update --kind isvc --code 409 --times 2\n"
                    "fault api --verb patch --kind deploy --latency 3s\n"
                    "fault api --code 503 --times 1\n"))
      << s.err;
  EXPECT_EQ(s.Output("fault list"),
            "1  api verb=update kind=InferenceService code=409 times=2 latency=0s\n"
            "2  api verb=patch kind=Deployment code=0 times=∞ latency=3s\n"
            "3  api verb=* kind=* code=503 times=1 latency=0s\n");
  EXPECT_EQ(s.out, "fault 1 added: the next 2 update requests for InferenceService fail with 409\n"
                   "fault 2 added: every patch request for Deployment slowed by 3s\n"
                   "fault 3 added: the next 1 request fails with 503\n");
  EXPECT_EQ(s.Output("fault clear"), "faults cleared\n");
  EXPECT_EQ(s.Output("fault list"), "no faults\n");
  ASSERT_TRUE(s.Run("fault api --times 1\n")) << s.err;
  EXPECT_EQ(s.Output("fault list").substr(0, 3), "4  ") << "ids keep counting after a clear";

  // clear also ends cache lag: a patch reaches the operator within a moment again.
  ASSERT_TRUE(s.Run("fault clear\n" + ReadyLlama() + "fault cache-lag --kind isvc --delay 30s\nfault clear\n"))
      << s.err;
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run("scale isvc llama --replicas=2\nrun 100ms\n")) << s.err;
  EXPECT_FALSE(s.Records("reconcile.start", {{"key", "default/llama"}}, since).empty());
}

TEST(FaultErrors, BadArgumentsAreClearErrorsAndChangeNothing) {
  TestSession s;
  ASSERT_TRUE(s.Run(kInferenceOperatorUp)) << s.err;
  const uint64_t writes = s.Writes();
  const int64_t seq = s.LastSeq();
  struct Case {
    std::string command, error;
  } cases[] = {
      {"fault", "error: usage: fault api|watch-drop|cache-lag|list|clear …\n"},
      {"fault bogus", "error: unknown fault \"bogus\"\n"},
      {"fault api --verb frob",
       "error: unknown verb \"frob\" (create, get, list, watch, update, patch, delete)\n"},
      {"fault api --kind Gizmo", "error: the server doesn't have a resource type \"Gizmo\"\n"},
      {"fault api --code 200", "error: --code must be an HTTP error status (400-599)\n"},
      {"fault api --times 0", "error: --times must be positive\n"},
      {"fault api --times -3", "error: --times must be positive\n"},
      {"fault api extra", "error: unexpected argument \"extra\"\n"},
      {"fault api --latency fast",
       "error: invalid argument \"fast\" for \"--latency\" flag: time: invalid duration \"fast\"\n"},
      {"fault watch-drop --kind Gizmo", "error: the server doesn't have a resource type \"Gizmo\"\n"},
      {"fault cache-lag --kind isvc", "error: usage: fault cache-lag --kind K --delay D\n"},
      {"fault cache-lag --delay 1s", "error: usage: fault cache-lag --kind K --delay D\n"},
      {"fault cache-lag --kind Gizmo --delay 1s",
       "error: the server doesn't have a resource type \"Gizmo\"\n"},
      {"fault external",
       "error: usage: fault external objectstore|loadbalancer|dns down|up|locked|slow D\n"},
      {"fault external dns slow",
       "error: usage: fault external objectstore|loadbalancer|dns down|up|locked|slow D\n"},
      {"fault external dns down now",
       "error: usage: fault external objectstore|loadbalancer|dns down|up|locked|slow D\n"},
      {"fault external nope down",
       "error: unknown external system \"nope\": must be objectstore, loadbalancer or dns\n"},
      {"fault external dns sideways",
       "error: unknown mode \"sideways\": must be up, down, locked or slow D\n"},
      {"fault external dns slow abc", "error: time: invalid duration \"abc\"\n"},
      {"fault external dns slow 0s", "error: fault external dns slow needs a positive duration\n"},
      {"fault node", "error: usage: fault node NAME down|up\n"},
      {"fault node node-1 sideways", "error: usage: fault node NAME down|up\n"},
      {"fault node node-9 down", "Error from server (NotFound): nodes \"node-9\" not found\n"},
  };
  for (const Case& c : cases) EXPECT_EQ(s.Fails(c.command), c.error) << c.command;
  EXPECT_EQ(s.Output("fault list"), "no faults\n");
  EXPECT_EQ(s.Writes(), writes);
  EXPECT_EQ(s.LastSeq(), seq) << "not even a trace record";
}

}  // namespace
}  // namespace lab
