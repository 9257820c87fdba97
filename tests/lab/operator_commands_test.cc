// `operator [NAME] set|restart|bug|rbac`: every settings key, the restart, every teaching bug
// with its visible effect, RBAC denial and reset, and each command's error path.
// No Go counterpart: these stand for the operator's main.go flags, its Helm values and kubectl
// edits of its ClusterRole; what they change is checked through the machinery's behaviour.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "tests/lab/testing_session.h"

namespace lab {
namespace {

constexpr const char* kOperatorOp = "inference-operator";

const OperatorSettings& Settings(TestSession& s) { return s.lab.sim().Operator(kOperatorOp)->settings(); }

// RestartOperator restarts the operator and waits until its new process runs.
void RestartOperator(TestSession& s) {
  ASSERT_TRUE(s.Run("operator inference-operator restart\nrun 1s\n" +
                    std::string(kInferenceOperatorUp) + "run 2s\n"))
      << s.err;
}

std::string Isvc(const std::string& name, const std::string& ns = "default") {
  return "apply -n " + ns + " -f - <<EOF\napiVersion: inference.io/v1\nkind: InferenceService\n"
         "metadata:\n  name: " + name + "\nspec:\n  replicas: 1\n  image: vllm:0.6.3\nEOF\n";
}

TEST(OperatorCommand, SetPrintsEachKeyAndSaysWhenItTakesEffect) {
  TestSession s;
  EXPECT_EQ(s.Output("operator inference-operator set reconcile-concurrency=3 queue=classic"),
            "inference-operator: reconcile-concurrency=3\n"
            "inference-operator: queue=classic\n"
            "(takes effect when the operator restarts: operator inference-operator restart)\n");
  EXPECT_EQ(Settings(s).reconcile_concurrency, 3);
  EXPECT_EQ(Settings(s).queue, "classic");
  EXPECT_EQ(s.Output("operator inference-operator set feature-gates=Alpha=true,Beta=false "
                     "ENABLE_INIT_CONTAINER_INJECTION=false watch-namespace=team "
                     "leader-election=true"),
            "inference-operator: feature-gates=Alpha=true,Beta=false\n"
            "inference-operator: ENABLE_INIT_CONTAINER_INJECTION=false\n"
            "inference-operator: watch-namespace=team\n"
            "inference-operator: leader-election=true\n"
            "(takes effect when the operator restarts: operator inference-operator restart)\n");
  EXPECT_EQ(Settings(s).feature_gates, (std::map<std::string, bool>{{"Alpha", true}, {"Beta", false}}));
  EXPECT_EQ(Settings(s).env.at("ENABLE_INIT_CONTAINER_INJECTION"), "false");
  EXPECT_EQ(Settings(s).watch_namespace, "team");
  EXPECT_TRUE(Settings(s).leader_election);
  EXPECT_EQ(s.err, "");
}

TEST(OperatorCommand, ReplicasScalesTheDeploymentAtOnce) {
  TestSession s;
  ASSERT_TRUE(s.Run(kInferenceOperatorUp)) << s.err;
  EXPECT_EQ(s.Output("operator inference-operator set replicas=2"), "inference-operator: replicas=2\n");
  EXPECT_EQ(s.Output("get deploy inference-operator -o jsonpath={.spec.replicas}"), "2");
  ASSERT_TRUE(s.Run("run 10s\n")) << s.err;
  EXPECT_EQ(s.lab.sim().Operator(kOperatorOp)->Processes().size(), 2u);
}

TEST(OperatorCommand, QueueAndConcurrencyTakeEffectAfterRestart) {
  TestSession s;
  ASSERT_TRUE(s.Run(kInferenceOperatorUp)) << s.err;
  ASSERT_TRUE(s.Run("operator inference-operator set queue=classic reconcile-concurrency=4\n"))
      << s.err;
  EXPECT_NE(s.Output("queue inferenceservice").find("priority queue"), std::string::npos)
      << "the running process keeps its settings";
  EXPECT_EQ(s.Output("operator inference-operator restart"),
            "deployment.apps/inference-operator restarted\n");
  RestartOperator(s);
  const std::string q = s.Output("queue inferenceservice");
  EXPECT_NE(q.find("classic queue"), std::string::npos) << q;
  const std::string metrics = s.Output("metrics");
  EXPECT_NE(metrics.find("controller_runtime_max_concurrent_reconciles{controller=\"inferenceservice\""),
            std::string::npos);
  auto procs = s.lab.sim().Operator(kOperatorOp)->Processes();
  ASSERT_EQ(procs.size(), 1u);
  ASSERT_EQ(procs[0].second->controllers().size(), 1u);
  EXPECT_EQ(procs[0].second->controllers()[0]->Workers().size(), 4u);
  EXPECT_FALSE(procs[0].second->controllers()[0]->queue().is_priority_queue());
}

TEST(OperatorCommand, WatchNamespaceLimitsWhatTheOperatorSees) {
  TestSession s;
  ASSERT_TRUE(s.Run(std::string(kInferenceOperatorUp) + "create namespace team\n" +
                    "operator inference-operator set watch-namespace=team\n"))
      << s.err;
  RestartOperator(s);
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run(Isvc("outside") + Isvc("inside", "team") + "run 5s\n")) << s.err;
  std::set<std::string> keys;
  for (const auto& e : s.Records("reconcile.start", {{"controller", "inferenceservice"}}, since)) {
    keys.insert(e.FieldString("key"));
  }
  EXPECT_EQ(keys, std::set<std::string>{"team/inside"});
  EXPECT_EQ(s.Output("get deploy -n team inside -o name"), "deployment.apps/inside\n");
  EXPECT_EQ(s.Output("get deploy outside -o name"), "");
}

TEST(OperatorCommand, LeaderElectionTakesTheLeaseOnRestart) {
  TestSession s;
  ASSERT_TRUE(s.Run(std::string(kInferenceOperatorUp) + "run 5s\n")) << s.err;
  EXPECT_TRUE(s.Records("leader.election", {{"lease", "inference-operator-leader"}}).empty())
      << "off by default for this operator";
  ASSERT_TRUE(s.Run("operator inference-operator set leader-election=true\n")) << s.err;
  RestartOperator(s);
  const auto acquired = s.Records("leader.election", {{"action", "acquired"},
                                                      {"lease", "inference-operator-leader"}});
  ASSERT_EQ(acquired.size(), 1u);
  const std::string holder =
      s.Output("get lease inference-operator-leader -o jsonpath={.spec.holderIdentity}");
  EXPECT_EQ(holder, acquired[0].FieldString("identity"));
  EXPECT_EQ(holder.rfind("inference-operator-", 0), 0u) << holder;
}

TEST(OperatorCommand, BadSettingsAreRejectedAndChangeNothing) {
  TestSession s;
  const OperatorSettings before = Settings(s);
  const uint64_t writes = s.Writes();
  struct Case {
    std::string command, error;
  } cases[] = {
      {"operator inference-operator set", "error: operator set needs K=V\n"},
      {"operator inference-operator set replicas", "error: \"replicas\" is not K=V\n"},
      {"operator inference-operator set colour=blue",
       "error: unknown operator setting \"colour\" (watch-namespace, reconcile-concurrency, "
       "leader-election, recover-panic, replicas, feature-gates, queue, ENABLE_* and other "
       "UPPER_CASE environment variables)\n"},
      {"operator inference-operator set recover-panic=maybe",
       "error: invalid value \"maybe\" for recover-panic\n"},
      {"operator inference-operator set reconcile-concurrency=0",
       "error: invalid value \"0\" for reconcile-concurrency\n"},
      {"operator inference-operator set reconcile-concurrency=many",
       "error: invalid value \"many\" for reconcile-concurrency\n"},
      {"operator inference-operator set leader-election=yes",
       "error: invalid value \"yes\" for leader-election\n"},
      {"operator inference-operator set replicas=-1", "error: invalid value \"-1\" for replicas\n"},
      {"operator inference-operator set queue=fifo",
       "error: queue must be \"priority\" or \"classic\"\n"},
      {"operator inference-operator set feature-gates=Alpha",
       "error: invalid feature gate \"Alpha\" (want Name=true|false)\n"},
      {"operator inference-operator set feature-gates=Alpha=true,Beta=maybe",
       "error: invalid feature gate \"Beta=maybe\" (want Name=true|false)\n"},
      {"operator inference-operator set reconcile-concurrency=2 queue=fifo",
       "error: queue must be \"priority\" or \"classic\"\n"},
      {"operator inference-operator restart now",
       "error: usage: operator [NAME] set K=V … | restart | bug ID on|off | rbac deny VERB "
       "RESOURCE | rbac reset\n"},
      {"operator", "error: usage: operator [NAME] set K=V … | restart | bug ID on|off | rbac deny "
                   "VERB RESOURCE | rbac reset\n"},
      {"operator inference-operator", "error: usage: operator [NAME] set K=V … | restart | bug ID "
                                      "on|off | rbac deny VERB RESOURCE | rbac reset\n"},
      {"operator inference-operator frob", "error: usage: operator [NAME] set K=V … | restart | "
                                           "bug ID on|off | rbac deny VERB RESOURCE | rbac reset\n"},
      {"operator set replicas=two", "error: invalid value \"two\" for replicas\n"},
      {"operator ghost restart",
       "error: operator \"ghost\" is not installed (installed: inference-operator, "
       "kuberay-operator)\n"},
  };
  for (const Case& c : cases) EXPECT_EQ(s.Fails(c.command), c.error) << c.command;
  const OperatorSettings& after = Settings(s);
  EXPECT_EQ(after.reconcile_concurrency, before.reconcile_concurrency);
  EXPECT_EQ(after.queue, before.queue);
  EXPECT_EQ(after.replicas, before.replicas);
  EXPECT_EQ(after.leader_election, before.leader_election);
  EXPECT_EQ(after.feature_gates, before.feature_gates);
  EXPECT_EQ(after.recover_panic, before.recover_panic);
  EXPECT_EQ(s.Writes(), writes);
}

// --- bugs -------------------------------------------------------------------------------------

TEST(OperatorBug, EveryIdIsAcceptedAndUnknownOnesListTheKnown) {
  TestSession s;
  for (const std::string id : {"non-idempotent-create", "forget-finalizer-removal",
                               "blocking-reconcile", "missing-generation-predicate",
                               "error-before-status", "terminal-error",
                               "requeue-after-with-error", "stale-cache-create",
                               "unscoped-pod-cache", "requeue-instead-of-requeue-after",
                               "nil-dereference"}) {
    EXPECT_EQ(s.Output("operator inference-operator bug " + id + " on"),
              "inference-operator: bug " + id +
                  " on (takes effect when the operator restarts: operator inference-operator "
                  "restart)\n");
    EXPECT_EQ(Settings(s).bugs.count(id), 1u) << id;
    EXPECT_EQ(s.Output("operator inference-operator bug " + id + " off"),
              "inference-operator: bug " + id +
                  " off (takes effect when the operator restarts: operator inference-operator "
                  "restart)\n");
    EXPECT_EQ(Settings(s).bugs.count(id), 0u) << id;
  }
  EXPECT_EQ(s.Fails("operator inference-operator bug nope on"),
            "error: unknown bug \"nope\" for inference-operator (non-idempotent-create, "
            "forget-finalizer-removal, blocking-reconcile, missing-generation-predicate, "
            "error-before-status, terminal-error, requeue-after-with-error, stale-cache-create, "
            "unscoped-pod-cache, requeue-instead-of-requeue-after, nil-dereference)\n");
  EXPECT_EQ(s.Fails("operator inference-operator bug blocking-reconcile maybe"),
            "error: usage: operator [NAME] bug ID on|off\n");
  EXPECT_EQ(s.Fails("operator inference-operator bug"), "error: usage: operator [NAME] bug ID on|off\n");
  EXPECT_TRUE(Settings(s).bugs.empty());
}

// BugSession starts the operator with one bug switched on (through restart).
void WithBug(TestSession& s, const std::string& id) {
  ASSERT_TRUE(s.Run(std::string(kInferenceOperatorUp) + "operator inference-operator bug " + id +
                    " on\n"))
      << s.err;
  RestartOperator(s);
}

int CountDeployments(TestSession& s, const std::string& prefix) {
  int n = 0;
  for (const api::ObjectPtr& d : s.lab.sim().apiserver().PeekAll("Deployment")) {
    if (api::Name(*d).rfind(prefix, 0) == 0) ++n;
  }
  return n;
}

TEST(OperatorBug, NonIdempotentCreatePilesUpDeployments) {
  TestSession s;
  WithBug(s, "non-idempotent-create");
  // Each Deployment it creates is an owned event that triggers the next create: a runaway loop,
  // so look only briefly.
  ASSERT_TRUE(s.Run(Isvc("llama") + "run 20ms\n")) << s.err;
  EXPECT_GE(CountDeployments(s, "llama-"), 2) << "a new generateName Deployment per reconcile";
  EXPECT_EQ(CountDeployments(s, "llama"), CountDeployments(s, "llama-"));

  TestSession fixed;
  ASSERT_TRUE(fixed.Run(std::string(kInferenceOperatorUp) + Isvc("llama") + "run 40s\n")) << fixed.err;
  EXPECT_EQ(CountDeployments(fixed, "llama"), 1);
}

TEST(OperatorBug, ForgetFinalizerRemovalLeavesTheObjectTerminating) {
  TestSession s;
  WithBug(s, "forget-finalizer-removal");
  ASSERT_TRUE(s.Run(Isvc("llama") + "run 10s\ndelete isvc llama --wait=false\nrun 30s\n")) << s.err;
  EXPECT_NE(s.Output("get isvc llama -o jsonpath={.metadata.deletionTimestamp}"), "");
  EXPECT_EQ(s.Output("get isvc llama -o jsonpath={.metadata.finalizers[0]}"),
            "inference.io/finalizer");

  // Switched off and restarted, the operator finishes the deletion.
  ASSERT_TRUE(s.Run("operator inference-operator bug forget-finalizer-removal off\n")) << s.err;
  RestartOperator(s);
  ASSERT_TRUE(s.Run("wait --for=delete isvc/llama --timeout=30s\n")) << s.err;
}

TEST(OperatorBug, BlockingReconcileKeepsTheWorkerBusyForTwentySeconds) {
  TestSession s;
  WithBug(s, "blocking-reconcile");
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run(Isvc("llama") + "run 5s\n")) << s.err;
  EXPECT_NE(s.Output("queue inferenceservice").find("processing  default/llama"), std::string::npos);
  ASSERT_TRUE(s.Run("run 30s\n")) << s.err;
  const auto starts = s.Records("reconcile.start", {{"key", "default/llama"}}, since);
  const auto dones = s.Records("queue.done", {{"key", "default/llama"}}, since);
  ASSERT_FALSE(starts.empty());
  ASSERT_FALSE(dones.empty());
  EXPECT_GE(dones[0].t - starts[0].t, 20 * base::kSecond);
}

TEST(OperatorBug, MissingGenerationPredicateReconcilesOnItsOwnStatusWrites) {
  auto status_triggered = [](TestSession& s) {
    int n = 0;
    for (const auto& e : s.Records("predicate.eval", {{"watch", "For(InferenceService)"},
                                                      {"eventType", "Update"},
                                                      {"result", "true"}})) {
      (void)e;
      ++n;
    }
    return n;
  };
  TestSession s;
  WithBug(s, "missing-generation-predicate");
  ASSERT_TRUE(s.Run(Isvc("llama") + "run 20s\n")) << s.err;
  TestSession fixed;
  ASSERT_TRUE(fixed.Run(std::string(kInferenceOperatorUp) + Isvc("llama") + "run 20s\n")) << fixed.err;
  EXPECT_TRUE(fixed.Records("predicate.eval", {{"watch", "For(InferenceService)"},
                                                {"predicate", "GenerationChanged"}})
                  .size() > 0);
  EXPECT_TRUE(s.Records("predicate.eval", {{"watch", "For(InferenceService)"},
                                            {"predicate", "GenerationChanged"}})
                  .empty());
  EXPECT_GT(s.Records("reconcile.start", {{"key", "default/llama"}}).size(),
            fixed.Records("reconcile.start", {{"key", "default/llama"}}).size());
  (void)status_triggered;
}

TEST(OperatorBug, ErrorBeforeStatusNeverWritesStatusAndBacksOff) {
  TestSession s;
  WithBug(s, "error-before-status");
  ASSERT_TRUE(s.Run(Isvc("llama") + "run 10s\n")) << s.err;
  EXPECT_EQ(s.Output("get isvc llama -o jsonpath={.status.observedGeneration}"), "");
  const auto ends = s.Records("reconcile.end", {{"key", "default/llama"}, {"result", "error"}});
  ASSERT_GE(ends.size(), 3u);
  EXPECT_NE(ends[0].FieldString("error").find("bug error-before-status"), std::string::npos);
  const auto backoffs = s.Records("queue.add_rate_limited", {{"key", "default/llama"}});
  ASSERT_GE(backoffs.size(), 3u);
  EXPECT_EQ(backoffs[0].FieldString("delayMs"), "5");
  EXPECT_EQ(backoffs[1].FieldString("delayMs"), "10");
  EXPECT_EQ(backoffs[2].FieldString("delayMs"), "20");
}

// A failed Deployment patch, for the act-error bugs: the isvc exists and is ready, then the next
// `times` patches of Deployments fail with 500 and the learner asks for 2 replicas.
constexpr const char* kFailPatches =
    "fault api --verb patch --kind Deployment --code 500 --times %d\n"
    "patch isvc llama --type merge -p '{\"spec\":{\"replicas\":2}}'\n";

std::string FailPatches(int times) {
  std::string text = kFailPatches;
  return text.replace(text.find("%d"), 2, std::to_string(times));
}

int64_t Metric(TestSession& s, const std::string& name) {
  const std::string out = s.Output("metrics");
  const std::string prefix = name + "{controller=\"inferenceservice\"";
  const size_t at = out.find(prefix);
  if (at == std::string::npos) return -1;
  const size_t space = out.find(' ', at);
  return std::stoll(out.substr(space + 1, out.find('\n', space) - space - 1));
}

TEST(OperatorBug, TerminalErrorIsCountedNotRetriedAndWaitsForTheNextEvent) {
  TestSession s;
  WithBug(s, "terminal-error");
  ASSERT_TRUE(s.Run(Isvc("llama") + "run 10s\n")) << s.err;
  ASSERT_EQ(Metric(s, "controller_runtime_terminal_reconcile_errors_total"), 0);
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run(FailPatches(1) + "run 30s\n")) << s.err;
  const auto ends = s.Records("reconcile.end", {{"key", "default/llama"}}, since);
  ASSERT_EQ(ends.size(), 1u) << "one attempt, never retried";
  EXPECT_EQ(ends[0].FieldString("result"), "terminal_error");
  EXPECT_EQ(ends[0].FieldString("error").rfind("terminal error: ", 0), 0u)
      << ends[0].FieldString("error");
  EXPECT_TRUE(s.Records("queue.add_rate_limited", {{"key", "default/llama"}}, since).empty());
  EXPECT_TRUE(s.Records("queue.add_after", {{"key", "default/llama"}}, since).empty());
  EXPECT_TRUE(s.Records("queue.forget", {{"key", "default/llama"}}, since).empty())
      << "upstream neither requeues nor forgets a terminal error";
  EXPECT_EQ(Metric(s, "controller_runtime_terminal_reconcile_errors_total"), 1);
  EXPECT_EQ(s.Output("get isvc llama -o jsonpath={.status.observedGeneration}"), "1");
  EXPECT_EQ(s.Output("get deploy llama -o jsonpath={.spec.replicas}"), "1");
  EXPECT_NE(s.Output("logs deploy/inference-operator").find("terminal error: "), std::string::npos);

  // The next event (a new spec) reconciles it again, and the patch now succeeds.
  ASSERT_TRUE(s.Run("patch isvc llama --type merge -p '{\"spec\":{\"replicas\":3}}'\nrun 1s\n"))
      << s.err;
  EXPECT_EQ(s.Output("get deploy llama -o jsonpath={.spec.replicas}"), "3");
}

TEST(OperatorBug, RequeueAfterWithAnErrorIsIgnoredAndBacksOffFromFiveMilliseconds) {
  TestSession s;
  WithBug(s, "requeue-after-with-error");
  ASSERT_TRUE(s.Run(Isvc("llama") + "run 10s\n")) << s.err;
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run(FailPatches(3) + "run 1s\n")) << s.err;
  const auto errors =
      s.Records("reconcile.end", {{"key", "default/llama"}, {"result", "error"}}, since);
  ASSERT_EQ(errors.size(), 3u);
  for (const auto& e : errors) EXPECT_EQ(e.FieldString("requeueAfterMs"), "30000");
  const auto backoffs = s.Records("queue.add_rate_limited", {{"key", "default/llama"}}, since);
  ASSERT_EQ(backoffs.size(), 3u);
  EXPECT_EQ(backoffs[0].FieldString("delayMs"), "5");
  EXPECT_EQ(backoffs[1].FieldString("delayMs"), "10");
  EXPECT_EQ(backoffs[2].FieldString("delayMs"), "20");
  // The only delayed add is the one after the fourth attempt succeeded (replicas not ready yet).
  for (const auto& added : s.Records("queue.add_after", {{"key", "default/llama"}}, since)) {
    EXPECT_GT(added.t, errors.back().t);
  }
  const auto starts = s.Records("reconcile.start", {{"key", "default/llama"}}, since);
  ASSERT_GE(starts.size(), 4u);
  EXPECT_LT(starts[3].t - errors.back().t, base::kSecond) << "retried after 20ms, not 30s";
  EXPECT_NE(s.Output("logs deploy/inference-operator")
                .find("RequeueAfter and Requeue will always be ignored if the error is non-nil"),
            std::string::npos);
  EXPECT_EQ(s.Output("get deploy llama -o jsonpath={.spec.replicas}"), "2");
}

// Result{Requeue: true} while replicas load: controller-runtime adds the key rate limited and
// never calls Forget until a reconcile returns without it, so the retries back off from 5 ms and
// the requeue count grows; the reconcile that sees every replica ready forgets the key.
TEST(OperatorBug, RequeueTrueIsRateLimitedWithoutForgetUntilConverged) {
  TestSession s;
  WithBug(s, "requeue-instead-of-requeue-after");
  ASSERT_TRUE(s.Run(Isvc("llama") + "run 10s\n")) << s.err;
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run("patch isvc llama --type merge -p '{\"spec\":{\"replicas\":3}}'\nrun 20s\n"))
      << s.err;
  const auto requeues =
      s.Records("reconcile.end", {{"key", "default/llama"}, {"result", "requeue"}}, since);
  ASSERT_GE(requeues.size(), 5u);
  const auto backoffs = s.Records("queue.add_rate_limited", {{"key", "default/llama"}}, since);
  ASSERT_GE(backoffs.size(), 5u);
  EXPECT_EQ(backoffs[0].FieldString("delayMs"), "5");
  EXPECT_EQ(backoffs[0].FieldString("requeues"), "1");
  EXPECT_EQ(backoffs[1].FieldString("delayMs"), "10");
  EXPECT_EQ(backoffs[2].FieldString("delayMs"), "20");
  EXPECT_TRUE(s.Records("queue.add_after", {{"key", "default/llama"}}, since).empty())
      << "no RequeueAfter is returned";
  // No Forget while the reconciles ask to requeue; one when the last reconcile converged.
  const auto forgets = s.Records("queue.forget", {{"key", "default/llama"}}, since);
  ASSERT_FALSE(forgets.empty());
  EXPECT_GT(forgets.front().t, requeues.back().t);
  EXPECT_EQ(s.Output("get isvc llama -o jsonpath={.status.ready}"), "true");
}

// --- rbac -------------------------------------------------------------------------------------

TEST(OperatorRbac, DenyingListShowsA403InTheTraceAndTheLogAndResetRecovers) {
  TestSession s;
  ASSERT_TRUE(s.Run(kInferenceOperatorUp)) << s.err;
  EXPECT_EQ(s.Output("operator inference-operator rbac deny list deployments"),
            "clusterrole.rbac.authorization.k8s.io/inference-operator no longer allows list "
            "deployments\n");
  const std::string rules =
      s.Output("get clusterrole inference-operator -o jsonpath={.rules[*].verbs}");
  RestartOperator(s);  // a fresh process lists again
  const auto errors = s.Records("informer.error", {{"kind", "Deployment"}, {"verb", "list"}});
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0].FieldString("code"), "403");
  EXPECT_NE(errors[0].FieldString("message").find("cannot list resource \"deployments\""),
            std::string::npos)
      << errors[0].FieldString("message");
  const std::string logs = s.Output("logs deploy/inference-operator");
  EXPECT_NE(logs.find("Failed to list"), std::string::npos) << logs;
  EXPECT_NE(logs.find("forbidden"), std::string::npos) << logs;

  // Nothing reconciles while the Deployment informer cannot sync.
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run(Isvc("llama") + "run 5s\n")) << s.err;
  EXPECT_TRUE(s.Records("reconcile.start", {{"key", "default/llama"}}, since).empty());

  EXPECT_EQ(s.Output("operator inference-operator rbac reset"),
            "clusterrole.rbac.authorization.k8s.io/inference-operator restored\n");
  ASSERT_TRUE(s.Run("wait --for=jsonpath='{.status.ready}'=true isvc/llama --timeout=120s\n"))
      << s.err;
}

TEST(OperatorRbac, BadRbacArgumentsAreUsageErrors) {
  TestSession s;
  const uint64_t writes = s.Writes();
  const std::string usage = "error: usage: operator [NAME] rbac deny VERB RESOURCE | rbac reset\n";
  EXPECT_EQ(s.Fails("operator inference-operator rbac"), usage);
  EXPECT_EQ(s.Fails("operator inference-operator rbac deny get"), usage);
  EXPECT_EQ(s.Fails("operator inference-operator rbac reset now"), usage);
  EXPECT_EQ(s.Fails("operator inference-operator rbac allow get pods"), usage);
  EXPECT_EQ(s.Writes(), writes);
}

}  // namespace
}  // namespace lab
