#include "core/operators/inference/reconciler.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/operators/inference/harness.h"

namespace inference {
namespace {

using api::Json;
using testing::Harness;
using testing::kOperatorUser;

constexpr base::Duration kSecond = base::kSecond;

Json ReadyCondition(const api::ObjectPtr& isvc) {
  if (isvc == nullptr || !isvc->contains("status")) return Json();
  return (*isvc)["status"]["conditions"][0];
}

// ---- pure helpers -----------------------------------------------------------------------------

TEST(SetBug, KnowsEveryLabBugId) {
  struct Case {
    std::string id;
    bool Bugs::*flag;
  };
  const std::vector<Case> cases = {
      {"non-idempotent-create", &Bugs::non_idempotent_create},
      {"forget-finalizer-removal", &Bugs::forget_finalizer_removal},
      {"blocking-reconcile", &Bugs::blocking_reconcile},
      {"missing-generation-predicate", &Bugs::missing_generation_predicate},
      {"error-before-status", &Bugs::error_before_status},
      {"terminal-error", &Bugs::terminal_error},
      {"requeue-after-with-error", &Bugs::requeue_after_with_error},
      {"stale-cache-create", &Bugs::stale_cache_create},
      {"unscoped-pod-cache", &Bugs::unscoped_pod_cache},
      {"requeue-instead-of-requeue-after", &Bugs::requeue_instead_of_requeue_after},
      {"nil-dereference", &Bugs::nil_dereference},
  };
  ASSERT_EQ(BugIds().size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].id);
    EXPECT_EQ(BugIds()[i], cases[i].id);
    Bugs bugs;
    ASSERT_TRUE(SetBug(bugs, cases[i].id, true).ok());
    EXPECT_TRUE(bugs.*cases[i].flag);
    ASSERT_TRUE(SetBug(bugs, cases[i].id, false).ok());
    EXPECT_FALSE(bugs.*cases[i].flag);
  }
  Bugs bugs;
  base::Status unknown = SetBug(bugs, "typo", true);
  EXPECT_EQ(unknown.code(), base::StatusCode::kInvalid);
  EXPECT_NE(unknown.message().find("unknown bug \"typo\""), std::string::npos);
}

TEST(BuildDeployment, LabelsSelectorContainerAndControllerReference) {
  const Json isvc = {
      {"apiVersion", "inference.io/v1"},
      {"kind", "InferenceService"},
      {"metadata",
       {{"name", "llama"},
        {"namespace", "prod"},
        {"uid", "uid-1"},
        {"annotations", {{"sim.reconcile-lab.io/ready-after", "60s"}, {"team", "ml"}}}}},
      {"spec", {{"replicas", 4}, {"image", "vllm:0.7.0"}}}};
  base::StatusOr<Json> built = BuildDeployment(isvc);
  ASSERT_TRUE(built.ok()) << built.status().ToString();
  const Json& d = *built;
  const Json labels = {{"app.kubernetes.io/instance", "llama"},
                       {"app.kubernetes.io/name", "inferenceservice"}};
  EXPECT_EQ(d["metadata"]["name"], "llama");
  EXPECT_EQ(d["metadata"]["namespace"], "prod");
  EXPECT_EQ(d["metadata"]["labels"], labels);
  EXPECT_EQ(d["spec"]["selector"]["matchLabels"], labels);
  EXPECT_EQ(d["spec"]["template"]["metadata"]["labels"], labels);
  EXPECT_EQ(d["spec"]["replicas"], 4);
  EXPECT_EQ(d["spec"]["template"]["spec"]["containers"],
            Json::parse(R"([{"name":"server","image":"vllm:0.7.0"}])"));
  EXPECT_EQ(d["spec"]["template"]["metadata"]["annotations"],
            Json::parse(R"({"sim.reconcile-lab.io/ready-after":"60s"})"))
      << "only the sandbox annotations travel to the Pods";
  EXPECT_EQ(d["metadata"]["ownerReferences"],
            Json::parse(R"([{"apiVersion":"inference.io/v1","kind":"InferenceService",
                             "name":"llama","uid":"uid-1","controller":true,
                             "blockOwnerDeletion":true}])"));
}

TEST(ComputeStatus, KeepsLastTransitionTimeWhileTheConditionHolds) {
  Json isvc = {{"metadata", {{"generation", 2}}}, {"spec", {{"replicas", 4}}}};
  const Json first = ComputeStatus(isvc, 2, 10 * kSecond);
  EXPECT_EQ(first["observedGeneration"], 2);
  EXPECT_EQ(first["readyReplicas"], 2);
  EXPECT_EQ(first["ready"], false);
  EXPECT_EQ(first["conditions"][0],
            Json::parse(R"({"type":"Ready","status":"False","reason":"ReplicasNotReady",
                            "message":"2/4 replicas ready",
                            "lastTransitionTime":"2026-01-01T00:00:10Z","observedGeneration":2})"));
  isvc["status"] = first;
  const Json still = ComputeStatus(isvc, 3, 40 * kSecond);
  EXPECT_EQ(still["conditions"][0]["lastTransitionTime"], "2026-01-01T00:00:10Z")
      << "status False -> False keeps the time";
  EXPECT_EQ(still["conditions"][0]["message"], "3/4 replicas ready");
  EXPECT_EQ(ComputeStatus(isvc, 2, 40 * kSecond), first) << "nothing changed: equal status";
  const Json flipped = ComputeStatus(isvc, 4, 70 * kSecond);
  EXPECT_EQ(flipped["ready"], true);
  EXPECT_EQ(flipped["conditions"][0]["status"], "True");
  EXPECT_EQ(flipped["conditions"][0]["reason"], "AllReplicasReady");
  EXPECT_EQ(flipped["conditions"][0]["lastTransitionTime"], "2026-01-01T00:01:10Z");
}

// ---- the operator in a running simulation ----------------------------------------------------

TEST(InferenceServiceReconciler, CreateMakesAnOwnedDeploymentOnceAfterGettingIt) {
  Harness h;
  api::ObjectPtr isvc = h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(kSecond);

  api::ObjectPtr deploy = h.Get("Deployment", "llama");
  ASSERT_NE(deploy, nullptr);
  EXPECT_EQ((*deploy)["spec"]["replicas"], 2);
  EXPECT_EQ((*deploy)["spec"]["template"]["spec"]["containers"][0]["image"], "vllm:0.6.3");
  const std::optional<api::OwnerReference> owner = api::GetControllerOf(*deploy);
  ASSERT_TRUE(owner.has_value());
  EXPECT_EQ(owner->kind, "InferenceService");
  EXPECT_EQ(owner->name, "llama");
  EXPECT_EQ(owner->uid, api::Uid(*isvc));
  EXPECT_TRUE(owner->blockOwnerDeletion);
  EXPECT_TRUE(api::HasFinalizer(*h.Isvc(), kFinalizer));
  EXPECT_EQ(h.Count("reconcile.end", {{"result", "error"}}), 0) << "no reconcile failed";

  // Later reconciles (owned Deployment events, RequeueAfter) find it and create nothing more.
  h.Run(95 * kSecond);
  EXPECT_GE(h.Reconciles(), 4);
  EXPECT_EQ(h.Count("api.request", {{"verb", "create"}, {"kind", "Deployment"}}), 1);
  const auto reads = h.Count("api.request", {{"verb", "get"}, {"user", kOperatorUser}});
  EXPECT_EQ(reads, 0) << "the operator reads from its cache, never from the API server";
}

TEST(InferenceServiceReconciler, FollowsTheNotesScaleAndUpgradeTimeline) {
  Harness h;
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(kSecond);
  h.MakeReady("llama", 2);
  h.Run(kSecond);
  ASSERT_EQ((*h.Isvc())["status"]["ready"], true);

  // t=0: the user patches replicas 2->4 and the image; generation 1->2.
  const int64_t mark = h.Mark();
  const base::SimTime t0 = h.clock.Now();
  h.PatchIsvc("llama", Json::parse(R"({"spec":{"replicas":4,"image":"vllm:0.7.0"}})"));
  EXPECT_EQ(api::Generation(*h.Isvc()), 2);
  h.Run(kSecond);

  // Reconcile #1 merge-patches the Deployment, writes status and asks to look again in 30s.
  auto ends = h.Events("reconcile.end", {{"key", "prod/llama"}}, mark);
  ASSERT_FALSE(ends.empty());
  EXPECT_EQ(ends[0]->FieldString("result"), "requeue_after");
  EXPECT_EQ(ends[0]->FieldString("requeueAfterMs"), "30000");
  EXPECT_EQ(h.Count("api.request",
                    {{"verb", "patch"}, {"kind", "Deployment"}, {"user", kOperatorUser}}, mark),
            1);
  api::ObjectPtr deploy = h.Get("Deployment", "llama");
  EXPECT_EQ((*deploy)["spec"]["replicas"], 4);
  EXPECT_EQ((*deploy)["spec"]["template"]["spec"]["containers"][0]["image"], "vllm:0.7.0");
  api::ObjectPtr isvc = h.Isvc();
  EXPECT_EQ((*isvc)["status"]["observedGeneration"], 2);
  EXPECT_EQ((*isvc)["status"]["readyReplicas"], 2);
  EXPECT_EQ((*isvc)["status"]["ready"], false);
  EXPECT_EQ(ReadyCondition(isvc)["reason"], "ReplicasNotReady");
  EXPECT_TRUE(h.HasLog("patched Deployment"));

  // t=30: reconcile #2 comes from RequeueAfter; nothing to patch, status unchanged.
  const int64_t before_requeue = h.Mark();
  h.Run(30 * kSecond);
  auto requeued = h.Events("reconcile.start", {{"key", "prod/llama"}}, before_requeue);
  ASSERT_FALSE(requeued.empty());
  EXPECT_GE(requeued[0]->t, t0 + 30 * kSecond);
  EXPECT_EQ(h.Count("api.request", {{"verb", "patch"}, {"kind", "Deployment"}}, before_requeue), 0);
  EXPECT_EQ(h.StatusWrites(before_requeue), 0);

  // t=60: the new Pods are ready; the Deployment's status write reaches us through Owns().
  const int64_t before_ready = h.Mark();
  h.MakeReady("llama", 4);
  h.Run(kSecond);
  EXPECT_GE(h.Count("handler.enqueue",
                    {{"handler", "EnqueueRequestForOwner"}, {"object", "Deployment/prod/llama"}},
                    before_ready),
            1);
  isvc = h.Isvc();
  EXPECT_EQ((*isvc)["status"]["readyReplicas"], 4);
  EXPECT_EQ((*isvc)["status"]["observedGeneration"], 2);
  EXPECT_EQ((*isvc)["status"]["ready"], true);
  EXPECT_EQ(ReadyCondition(isvc)["status"], "True");
  EXPECT_EQ(ReadyCondition(isvc)["reason"], "AllReplicasReady");
  auto last = h.Events("reconcile.end", {{"key", "prod/llama"}}, before_ready);
  ASSERT_FALSE(last.empty());
  EXPECT_EQ(last.back()->FieldString("result"), "success");
  EXPECT_TRUE(h.HasLog("reconciled, all ready"));
}

TEST(InferenceServiceReconciler, WritesStatusOnlyWhenItChanged) {
  Harness h;
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(kSecond);
  h.MakeReady("llama", 2);
  h.Run(kSecond);

  // Three more reconciles (owned Deployment label changes) with nothing new: no status write.
  const int64_t mark = h.Mark();
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(h.admin
                    .Patch("Deployment", "prod", "llama", client::PatchType::kJsonMerge,
                           Json{{"metadata", {{"labels", {{"touch", std::to_string(i)}}}}}})
                    .ok());
    h.Run(kSecond);
  }
  EXPECT_EQ(h.Reconciles(mark), 3);
  EXPECT_EQ(h.StatusWrites(mark), 0);

  // One replica stops being ready: exactly one status write, then RequeueAfter reconciles that
  // find the same status write nothing.
  const int64_t degraded = h.Mark();
  h.MakeReady("llama", 1);
  h.Run(95 * kSecond);
  EXPECT_GE(h.Reconciles(degraded), 4);
  EXPECT_EQ(h.StatusWrites(degraded), 1);
  EXPECT_EQ((*h.Isvc())["status"]["readyReplicas"], 1);
}

TEST(InferenceServiceReconciler, FivePatchesInOneInstantGiveOneReconcileOfTheLatestSpec) {
  Harness h;
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(kSecond);
  h.MakeReady("llama", 2);
  h.Run(kSecond);

  const int64_t mark = h.Mark();
  const base::SimTime patched_at = h.clock.Now();
  for (int replicas = 3; replicas <= 7; ++replicas) {
    h.PatchIsvc("llama", Json{{"spec", {{"replicas", replicas}}}});
  }
  h.Run(kSecond);
  // The For() watch delivered five updates; the queue kept one entry for prod/llama.
  std::vector<std::string> outcomes;
  for (const sim::TraceEvent* e :
       h.Events("handler.enqueue", {{"handler", "EnqueueRequestForObject"}}, mark)) {
    for (const sim::TraceEvent* add :
         h.Events("queue.add", {{"cause", std::to_string(e->seq)}}, mark)) {
      outcomes.push_back(add->FieldString("outcome"));
    }
  }
  EXPECT_EQ(outcomes, (std::vector<std::string>{"queued", "coalesced", "coalesced", "coalesced",
                                                "coalesced"}));
  // That one reconcile saw the latest spec: a single Deployment patch, straight to 7.
  EXPECT_EQ(h.Count("api.request",
                    {{"verb", "patch"}, {"kind", "Deployment"}, {"user", kOperatorUser}}, mark),
            1);
  EXPECT_EQ((*h.Get("Deployment", "llama"))["spec"]["replicas"], 7);
  EXPECT_EQ((*h.Isvc())["status"]["observedGeneration"], api::Generation(*h.Isvc()));
  std::vector<std::string> generations;
  for (const manager::LogLine& line : h.mgr.logs()) {
    if (line.time < patched_at || line.message != "Reconciling InferenceService") continue;
    for (const auto& [key, value] : line.kv) {
      if (key == "generation") generations.push_back(value);
    }
  }
  ASSERT_FALSE(generations.empty());
  EXPECT_EQ(generations[0], "6") << "the first reconcile already saw the fifth patch";
}

TEST(InferenceServiceReconciler, DeletionRunsCleanupThenRemovesTheFinalizer) {
  Harness h;
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(kSecond);
  ASSERT_TRUE(api::HasFinalizer(*h.Isvc(), kFinalizer));

  ASSERT_TRUE(h.admin.Delete("InferenceService", "prod", "llama", {}).ok());
  ASSERT_NE(h.Isvc(), nullptr) << "the finalizer holds the object";
  EXPECT_TRUE(api::IsBeingDeleted(*h.Isvc()));
  h.Run(kSecond);
  EXPECT_EQ(h.external.calls, (std::vector<std::string>{"archive prod/llama", "deregister llama",
                                                        "dns llama.prod.svc.example.com"}));
  EXPECT_EQ(h.Isvc(), nullptr) << "removing the last finalizer deleted it";
  EXPECT_TRUE(h.HasLog("removed finalizer"));
}

TEST(InferenceServiceReconciler, AnUnreachableObjectStoreKeepsItTerminatingWithBackoff) {
  Harness h;
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(kSecond);
  h.external.archive_status =
      base::Status(base::StatusCode::kServiceUnavailable, "object store unreachable");

  const int64_t mark = h.Mark();
  ASSERT_TRUE(h.admin.Delete("InferenceService", "prod", "llama", {}).ok());
  h.Run(kSecond);
  ASSERT_NE(h.Isvc(), nullptr);
  EXPECT_TRUE(api::IsBeingDeleted(*h.Isvc()));
  EXPECT_TRUE(api::HasFinalizer(*h.Isvc(), kFinalizer));
  auto errors = h.Events("reconcile.end", {{"key", "prod/llama"}, {"result", "error"}}, mark);
  ASSERT_GE(errors.size(), 4u);
  EXPECT_EQ(errors[0]->FieldString("error"),
            "failed to archive checkpoint prod/llama: object store unreachable");
  // Exponential backoff: 5ms, 10ms, 20ms, 40ms, ...
  auto backoff = h.Events("queue.add_rate_limited", {{"key", "prod/llama"}}, mark);
  ASSERT_GE(backoff.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(backoff[i]->FieldString("delayMs"), std::to_string(5 << i));
  }
  for (const std::string& call : h.external.calls) {
    EXPECT_EQ(call, "archive prod/llama") << "nothing after the failing step ran";
  }

  // The store comes back: the next retry cleans up and the resource goes away.
  h.external.archive_status = base::Status::OK();
  h.Run(5 * kSecond);
  EXPECT_EQ(h.Isvc(), nullptr);
  EXPECT_EQ(h.external.calls.back(), "dns llama.prod.svc.example.com");
}

TEST(InferenceServiceReconciler, AStatusWriteFromAStaleCacheConflictsAndIsRetried) {
  Harness h;
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(kSecond);
  h.MakeReady("llama", 2);
  h.Run(kSecond);

  // The operator's InferenceService informer now lags 10s behind the API server.
  h.api.Hooks().SetWatchLatency("InferenceService", 10 * kSecond);
  ASSERT_TRUE(h.admin
                  .Patch("InferenceService", "prod", "llama", client::PatchType::kJsonMerge,
                         Json{{"metadata", {{"labels", {{"team", "ml"}}}}}})
                  .ok());
  const int64_t mark = h.Mark();
  h.MakeReady("llama", 1);  // reaches the operator through Owns() at once
  h.Run(kSecond);
  auto errors = h.Events("reconcile.end", {{"key", "prod/llama"}, {"result", "error"}}, mark);
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0]->FieldString("error").rfind("Operation cannot be fulfilled", 0), 0u)
      << errors[0]->FieldString("error");
  EXPECT_GE(h.Count("queue.add_rate_limited", {{"key", "prod/llama"}}, mark), 1);
  EXPECT_EQ((*h.Isvc())["status"]["readyReplicas"], 2) << "not written yet";

  // Once the cache has caught up, a retry writes the status.
  h.Run(15 * kSecond);
  EXPECT_EQ((*h.Isvc())["status"]["readyReplicas"], 1);
}

// ---- the lab's bug switches ---------------------------------------------------------------------

TEST(InferenceServiceReconcilerBugs, NonIdempotentCreatePilesUpDeployments) {
  Options options;
  options.bugs.non_idempotent_create = true;
  Harness h(options);
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(200 * base::kMillisecond);
  // Each created Deployment's event reaches the owner through Owns() and creates another.
  std::vector<api::ObjectPtr> deployments = h.api.PeekAll("Deployment");
  EXPECT_GE(deployments.size(), 5u);
  EXPECT_EQ(h.Get("Deployment", "llama"), nullptr);
  for (const api::ObjectPtr& d : deployments) {
    EXPECT_EQ(api::GenerateName(*d), "llama-");
    EXPECT_EQ(api::Name(*d).rfind("llama-", 0), 0u);
  }
}

TEST(InferenceServiceReconcilerBugs, ForgettingFinalizerRemovalLeavesItTerminating) {
  Options options;
  options.bugs.forget_finalizer_removal = true;
  Harness h(options);
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(kSecond);
  ASSERT_TRUE(h.admin.Delete("InferenceService", "prod", "llama", {}).ok());
  h.Run(10 * kSecond);
  EXPECT_EQ(h.external.calls.size(), 3u) << "the cleanup itself succeeded";
  ASSERT_NE(h.Isvc(), nullptr);
  EXPECT_TRUE(api::IsBeingDeleted(*h.Isvc()));
  EXPECT_TRUE(api::HasFinalizer(*h.Isvc(), kFinalizer));

  // Switched off at run time, the next reconcile (here triggered through Owns() by an edit of
  // the Deployment) removes the finalizer.
  h.reconciler.bugs().forget_finalizer_removal = false;
  ASSERT_TRUE(h.admin
                  .Patch("Deployment", "prod", "llama", client::PatchType::kJsonMerge,
                         Json{{"metadata", {{"labels", {{"poke", "1"}}}}}})
                  .ok());
  h.Run(kSecond);
  EXPECT_EQ(h.Isvc(), nullptr);
}

TEST(InferenceServiceReconcilerBugs, BlockingReconcileHoldsTheWorker) {
  Options options;
  options.bugs.blocking_reconcile = true;
  Harness h(options);
  const int64_t mark = h.Mark();
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.CreateIsvc("mistral", 1, "vllm:0.6.3");
  h.Run(60 * kSecond);
  auto llama_start = h.Events("reconcile.start", {{"key", "prod/llama"}}, mark);
  auto llama_end = h.Events("reconcile.end", {{"key", "prod/llama"}}, mark);
  auto mistral_start = h.Events("reconcile.start", {{"key", "prod/mistral"}}, mark);
  ASSERT_FALSE(llama_start.empty());
  ASSERT_FALSE(llama_end.empty());
  ASSERT_FALSE(mistral_start.empty());
  EXPECT_GE(llama_end[0]->t - llama_start[0]->t, 20 * kSecond) << "the slot stayed busy";
  EXPECT_GE(mistral_start[0]->t - llama_start[0]->t, 20 * kSecond)
      << "the other key waited for the only worker";
  EXPECT_TRUE(h.HasLog("waiting for the model to load (blocking the worker)"));
}

TEST(InferenceServiceReconcilerBugs, ErrorBeforeStatusNeverWritesStatus) {
  Options options;
  options.bugs.error_before_status = true;
  Harness h(options);
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(2 * kSecond);
  EXPECT_NE(h.Get("Deployment", "llama"), nullptr) << "the act happened";
  EXPECT_EQ(h.StatusWrites(), 0);
  EXPECT_FALSE(h.Isvc()->contains("status")) << "observedGeneration never appears";
  EXPECT_GE(h.Count("reconcile.end", {{"key", "prod/llama"}, {"result", "error"}}), 3);
  EXPECT_GE(h.ctrl->metrics().reconcile_errors_total, 3);

  // Without the bug the next retry writes status.
  h.reconciler.bugs().error_before_status = false;
  h.Run(5 * kSecond);
  ASSERT_TRUE(h.Isvc()->contains("status"));
  EXPECT_EQ((*h.Isvc())["status"]["observedGeneration"], 1);
}

}  // namespace
}  // namespace inference
