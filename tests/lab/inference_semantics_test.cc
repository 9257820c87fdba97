// Issue 3's "must be shown" list, end to end through the lab: the InferenceService operator as a
// learner drives it. Each test names the upstream behaviour it pins.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "tests/lab/testing_session.h"

namespace lab {
namespace {

constexpr const char* kOperatorUp =
    "wait --for=condition=Available deploy/inference-operator --timeout=30s\n";

// Ready starts a session with the operator running and InferenceService llama ready.
void Ready(TestSession& s, int replicas = 2) {
  ASSERT_TRUE(s.Run(std::string(kOperatorUp) + InferenceServiceManifest("llama", replicas, "vllm:0.6.3") +
                    "wait --for=jsonpath='{.status.ready}'=true isvc/llama --timeout=60s\n"))
      << s.err;
}

std::string Patch(int replicas) {
  return "patch isvc llama --type merge -p '{\"spec\":{\"replicas\":" + std::to_string(replicas) +
         "}}'\n";
}

// Level-triggered and de-duplicated: five spec patches at one instant are five watch events and
// five enqueues, but one key in the queue and one reconcile, of the latest spec.
// mirrors client-go util/workqueue/queue.go Add (dirty set) and controller-runtime's handler
TEST(InferenceSemantics, FivePatchesWithinOneSecondGiveOneReconcileOfTheLatestSpec) {
  TestSession s;
  Ready(s);
  ASSERT_TRUE(s.Run("run 31s\n")) << s.err;  // quiet: no reconcile running or waiting
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run(Patch(3) + Patch(4) + Patch(5) + Patch(6) + Patch(7) + "run 1s\n")) << s.err;
  const auto enqueues = s.Records("handler.enqueue",
                                  {{"controller", "inferenceservice"},
                                   {"handler", "EnqueueRequestForObject"}},
                                  since);
  EXPECT_EQ(enqueues.size(), 5u);
  const auto adds = s.Records("queue.add", {{"controller", "inferenceservice"}}, since);
  ASSERT_GE(adds.size(), 5u);
  EXPECT_EQ(adds[0].FieldString("outcome"), "queued");
  for (size_t i = 1; i < 5; ++i) EXPECT_EQ(adds[i].FieldString("outcome"), "coalesced") << i;

  // Only the patches: the Deployment's own status writes come later than the window below.
  const auto starts = s.Records("reconcile.start", {{"controller", "inferenceservice"}}, since);
  ASSERT_FALSE(starts.empty());
  EXPECT_GT(starts[0].seq, enqueues.back().seq);  // it began after the last patch arrived
  const auto first_patch = s.Records(
      "api.request", {{"verb", "patch"}, {"kind", "Deployment"}, {"name", "llama"}}, since);
  ASSERT_FALSE(first_patch.empty());
  EXPECT_EQ(first_patch[0].FieldString("cause"), std::to_string(starts[0].seq));
  EXPECT_EQ(s.Output("get deploy llama -o jsonpath={.spec.replicas}"), "7");
}

// GenerationChangedPredicate guards only the For watch: a status-only write is filtered there,
// while a change to an owned object still reaches the owner through EnqueueRequestForOwner.
// mirrors controller-runtime pkg/predicate/predicate.go GenerationChangedPredicate and
// pkg/handler/enqueue_owner.go
TEST(InferenceSemantics, StatusOnlyChangeIsFilteredButAnOwnedObjectChangeEnqueuesItsOwner) {
  TestSession s;
  Ready(s);
  ASSERT_TRUE(s.Run("run 31s\n")) << s.err;  // let any RequeueAfter pass
  int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run("patch isvc llama --type merge --subresource status "
                    "-p '{\"status\":{\"readyReplicas\":1}}'\nrun 1s\n"))
      << s.err;
  const auto evals = s.Records("predicate.eval",
                               {{"controller", "inferenceservice"},
                                {"watch", "For(InferenceService)"},
                                {"predicate", "GenerationChanged"}},
                               since);
  ASSERT_FALSE(evals.empty());
  for (const auto& e : evals) EXPECT_EQ(e.FieldString("result"), "false");
  EXPECT_TRUE(s.Records("handler.enqueue", {{"controller", "inferenceservice"}}, since).empty());
  EXPECT_TRUE(s.Records("reconcile.start", {{"controller", "inferenceservice"}}, since).empty());

  since = s.LastSeq();
  ASSERT_TRUE(s.Run("label deploy llama touched=yes\nrun 1s\n")) << s.err;
  const auto owner = s.Records("handler.enqueue",
                               {{"controller", "inferenceservice"},
                                {"handler", "EnqueueRequestForOwner"},
                                {"object", "Deployment/default/llama"}},
                               since);
  ASSERT_EQ(owner.size(), 1u);
  EXPECT_EQ(owner[0].FieldString("key"), "default/llama");
  EXPECT_EQ(s.Records("reconcile.start", {{"controller", "inferenceservice"}}, since).size(), 1u);
}

// A Pod killed under the Deployment changes the Deployment's status; that owned-object event,
// not a timer, brings the InferenceService back, and its status follows the world.
TEST(InferenceSemantics, AKilledPodReachesTheOwnerThroughItsDeployment) {
  TestSession s;
  Ready(s);
  ASSERT_TRUE(s.Run("run 31s\n")) << s.err;
  const std::string pods =
      s.Output("get pods -l app.kubernetes.io/instance=llama -o jsonpath={.items[0].metadata.name}");
  ASSERT_FALSE(pods.empty()) << s.err;
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run("kill pod " + pods + "\nrun 2s\n")) << s.err;
  const auto owner = s.Records("handler.enqueue",
                               {{"controller", "inferenceservice"},
                                {"handler", "EnqueueRequestForOwner"}},
                               since);
  ASSERT_FALSE(owner.empty());
  const auto starts = s.Records("reconcile.start", {{"controller", "inferenceservice"}}, since);
  ASSERT_FALSE(starts.empty());
  EXPECT_TRUE(s.Records("queue.add_after", {{"controller", "inferenceservice"}}, since).empty() ||
              s.Records("queue.add_after", {{"controller", "inferenceservice"}}, since)[0].seq >
                  starts[0].seq);
}

// The finalizer's cleanup runs, the finalizer goes, and the garbage collector takes the
// Deployment, its ReplicaSets and Pods by ownerReference (background propagation).
TEST(InferenceSemantics, DeletionRunsCleanupRemovesTheFinalizerAndCollectsChildren) {
  TestSession s;
  Ready(s);
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run("delete isvc llama --timeout=60s\nrun 10s\n")) << s.err;
  std::set<std::string> ops;
  for (const auto& e : s.Records("external.call", {}, since)) {
    EXPECT_EQ(e.FieldString("code"), "200") << e.ToJsonLine();
    ops.insert(e.FieldString("system") + ":" + e.FieldString("op"));
  }
  EXPECT_EQ(ops.size(), 3u) << "archive, deregister and DNS delete";
  EXPECT_FALSE(s.Records("api.request",
                         {{"verb", "update"}, {"kind", "InferenceService"},
                          {"user", "system:serviceaccount:default:inference-operator"}},
                         since)
                   .empty());  // the finalizer removal
  s.err.clear();
  EXPECT_FALSE(s.Run("get deploy llama"));
  EXPECT_NE(s.err.find("NotFound"), std::string::npos) << s.err;
  EXPECT_EQ(s.Output("get rs,pods -l app.kubernetes.io/instance=llama -o name"), "");
}

// With the object store down the cleanup fails, the object stays Terminating, and the
// controller retries with backoff doubling from 5ms; when the store returns, deletion finishes.
TEST(InferenceSemantics, WithTheObjectStoreDownDeletionStaysTerminatingAndRetries) {
  TestSession s;
  Ready(s);
  ASSERT_TRUE(s.Run("run 31s\n")) << s.err;
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run("fault external objectstore down\ndelete isvc llama --wait=false\nrun 20s\n"))
      << s.err;
  EXPECT_NE(s.Output("get isvc llama -o jsonpath={.metadata.deletionTimestamp}"), "");
  EXPECT_EQ(s.Output("get isvc llama -o jsonpath={.metadata.finalizers[0]}"),
            "inference.io/finalizer");
  const auto retries = s.Records("queue.add_rate_limited", {{"controller", "inferenceservice"}},
                                 since);
  ASSERT_GE(retries.size(), 8u);
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(retries[i].FieldString("delayMs"), std::to_string(5 << i)) << "retry " << i + 1;
  }
  ASSERT_TRUE(s.Run("fault external objectstore up\n"
                    "wait --for=delete isvc/llama --timeout=60s\n"))
      << s.err;
}

// Two replicas with leader election: only the Lease holder reconciles. When its Pod is killed
// the container restarts as a new process with a new identity; the other replica (or the new
// process) takes the Lease once it expires, 15s after the last renewal.
// mirrors client-go tools/leaderelection/leaderelection.go tryAcquireOrRenew
TEST(InferenceSemantics, WithLeaderElectionOneReplicaReconcilesAndTheOtherTakesOver) {
  TestSession s;
  ASSERT_TRUE(s.Run("operator inference-operator set replicas=2 leader-election=true\n"
                    "operator inference-operator restart\n"
                    "wait --for=condition=Available deploy/inference-operator --timeout=60s\n"
                    "run 5s\n"))
      << s.err;
  const std::string holder =
      s.Output("get lease inference-operator-leader -o jsonpath={.spec.holderIdentity}");
  const std::string leader_pod = holder.substr(0, holder.find('_'));
  ASSERT_FALSE(leader_pod.empty()) << s.err;

  int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run(InferenceServiceManifest("llama", 1, "vllm:0.6.3") + "run 5s\n")) << s.err;
  std::set<std::string> reconciling;
  for (const auto& e : s.Records("reconcile.start", {{"controller", "inferenceservice"}}, since)) {
    reconciling.insert(e.FieldString("replica"));
  }
  EXPECT_EQ(reconciling, std::set<std::string>{leader_pod});

  since = s.LastSeq();
  const base::SimTime killed_at = s.lab.sim().scheduler().clock().Now();
  ASSERT_TRUE(s.Run("kill pod " + leader_pod + "\nrun 30s\n")) << s.err;
  const auto acquired = s.Records("leader.election", {{"action", "acquired"}}, since);
  ASSERT_EQ(acquired.size(), 1u);
  EXPECT_NE(acquired[0].FieldString("identity"), holder);
  const base::SimTime after = acquired[0].t - killed_at;
  EXPECT_GE(after, 13 * base::kSecond);  // the last renewal was at most 2s before the kill
  EXPECT_LE(after, 17 * base::kSecond);  // 15s lease + one 2s retry period
}

// Without leader election both replicas run the controller and reconcile the same key: the
// failure mode the note warns about.
TEST(InferenceSemantics, WithoutLeaderElectionBothReplicasReconcileTheSameKey) {
  TestSession s;
  ASSERT_TRUE(s.Run("operator inference-operator set replicas=2 leader-election=false\n"
                    "operator inference-operator restart\n"
                    "wait --for=condition=Available deploy/inference-operator --timeout=60s\n"
                    "run 5s\n"))
      << s.err;
  const int64_t since = s.LastSeq();
  ASSERT_TRUE(s.Run(InferenceServiceManifest("llama", 1, "vllm:0.6.3") + "run 5s\n")) << s.err;
  std::set<std::string> reconciling;
  for (const auto& e : s.Records("reconcile.start",
                                 {{"controller", "inferenceservice"}, {"key", "default/llama"}},
                                 since)) {
    reconciling.insert(e.FieldString("replica"));
  }
  EXPECT_EQ(reconciling.size(), 2u);
}

}  // namespace
}  // namespace lab
