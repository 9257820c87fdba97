#include "core/operators/inference/setup.h"

#include <string>

#include <gtest/gtest.h>

#include "tests/operators/inference/harness.h"

namespace inference {
namespace {

using api::Json;
using testing::Harness;

constexpr base::Duration kSetupSecond = base::kSecond;

// Converged starts a harness with prod/llama at 2 ready replicas.
void Converge(Harness& h) {
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(kSetupSecond);
  h.MakeReady("llama", 2);
  h.Run(kSetupSecond);
  ASSERT_EQ((*h.Isvc())["status"]["ready"], true);
}

TEST(SetupWithManager, BuildsTheInferenceServiceControllerFromOptions) {
  SetupOptions setup;
  setup.max_concurrent_reconciles = 3;
  setup.use_priority_queue = false;
  Harness h({}, setup);
  ASSERT_NE(h.ctrl, nullptr);
  EXPECT_EQ(h.ctrl->name(), "inferenceservice");
  EXPECT_EQ(h.ctrl->options().max_concurrent_reconciles, 3);
  EXPECT_FALSE(h.ctrl->queue().is_priority_queue());
  EXPECT_EQ(h.ctrl->Workers().size(), 3u);

  Harness defaults;
  EXPECT_EQ(defaults.ctrl->options().max_concurrent_reconciles, 1);
  EXPECT_TRUE(defaults.ctrl->queue().is_priority_queue());
}

TEST(SetupWithManager, StatusOnlyChangesDoNotPassGenerationChanged) {
  Harness h;
  Converge(h);
  const int64_t mark = h.Mark();
  ASSERT_TRUE(h.admin
                  .PatchStatus("InferenceService", "prod", "llama", client::PatchType::kJsonMerge,
                               Json{{"status", {{"readyReplicas", 7}}}})
                  .ok());
  h.Run(kSetupSecond);
  auto evals = h.Events("predicate.eval",
                        {{"watch", "For(InferenceService)"},
                         {"predicate", "GenerationChanged"},
                         {"eventType", "Update"}},
                        mark);
  ASSERT_EQ(evals.size(), 1u);
  EXPECT_EQ(evals[0]->FieldString("result"), "false");
  EXPECT_EQ(h.Reconciles(mark), 0);
  EXPECT_EQ((*h.Isvc())["status"]["readyReplicas"], 7) << "nobody reconciled the edit away";
}

TEST(SetupWithManager, AnOwnedDeploymentChangeEnqueuesItsOwner) {
  Harness h;
  Converge(h);
  const int64_t mark = h.Mark();
  ASSERT_TRUE(h.admin
                  .Patch("Deployment", "prod", "llama", client::PatchType::kJsonMerge,
                         Json{{"metadata", {{"labels", {{"touched", "yes"}}}}}})
                  .ok());
  h.Run(kSetupSecond);
  auto enqueued = h.Events("handler.enqueue",
                           {{"handler", "EnqueueRequestForOwner"},
                            {"object", "Deployment/prod/llama"},
                            {"key", "prod/llama"}},
                           mark);
  EXPECT_EQ(enqueued.size(), 1u);
  EXPECT_EQ(h.Reconciles(mark), 1);
  EXPECT_EQ(h.Count("predicate.eval", {{"watch", "Owns(Deployment)"}}, mark), 0)
      << "Owns() has no predicate: every Deployment change counts";
}

TEST(SetupWithManager, MissingGenerationPredicateLetsStatusWritesTrigger) {
  Options options;
  options.bugs.missing_generation_predicate = true;
  Harness h(options);
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(kSetupSecond);
  EXPECT_EQ(h.Count("predicate.eval", {{"watch", "For(InferenceService)"}}), 0);
  // The operator's own status write came back as an event that enqueued the resource again.
  auto writes =
      h.Events("api.request",
               {{"verb", "update"}, {"subresource", "status"}, {"user", testing::kOperatorUser}});
  ASSERT_FALSE(writes.empty());
  EXPECT_GE(h.Count("handler.enqueue", {{"handler", "EnqueueRequestForObject"}}, writes[0]->seq),
            1);

  // A learner's status-only edit is now reconciled (and corrected) too.
  h.MakeReady("llama", 2);
  h.Run(kSetupSecond);
  const int64_t mark = h.Mark();
  ASSERT_TRUE(h.admin
                  .PatchStatus("InferenceService", "prod", "llama", client::PatchType::kJsonMerge,
                               Json{{"status", {{"readyReplicas", 7}}}})
                  .ok());
  h.Run(kSetupSecond);
  EXPECT_GE(h.Reconciles(mark), 1);
  EXPECT_EQ((*h.Isvc())["status"]["readyReplicas"], 2);
}

TEST(SetupWithManager, RoutesBlockedTimeIntoTheWorkersBusyTime) {
  Options options;
  options.bugs.blocking_reconcile = true;
  options.blocking_duration = 7 * kSetupSecond;
  Harness h(options);
  ASSERT_TRUE(h.reconciler.options().on_blocking) << "setup installed a receiver";
  const int64_t mark = h.Mark();
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(10 * kSetupSecond);
  auto start = h.Events("reconcile.start", {{"key", "prod/llama"}}, mark);
  auto end = h.Events("reconcile.end", {{"key", "prod/llama"}}, mark);
  ASSERT_FALSE(start.empty());
  ASSERT_FALSE(end.empty());
  const base::Duration busy = end[0]->t - start[0]->t;
  EXPECT_GE(busy, 7 * kSetupSecond);
  EXPECT_LT(busy, 8 * kSetupSecond);
}

TEST(SetupWithManager, SlowExternalSystemsKeepTheWorkerBusy) {
  Harness h;
  h.external.latency_per_call = 2 * kSetupSecond;
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(kSetupSecond);
  const int64_t mark = h.Mark();
  ASSERT_TRUE(h.admin.Delete("InferenceService", "prod", "llama", {}).ok());
  h.Run(10 * kSetupSecond);
  auto start = h.Events("reconcile.start", {{"key", "prod/llama"}}, mark);
  auto end = h.Events("reconcile.end", {{"key", "prod/llama"}}, mark);
  ASSERT_FALSE(start.empty());
  ASSERT_FALSE(end.empty());
  EXPECT_GE(end[0]->t - start[0]->t, 6 * kSetupSecond) << "three external calls of 2s each";
  EXPECT_EQ(h.Isvc(), nullptr);
}

TEST(SetupWithManager, ThePodInformerIsSyncedBeforeTheFirstReconcile) {
  Harness h;
  h.CreateIsvc("llama", 2, "vllm:0.6.3");
  h.Run(kSetupSecond);
  EXPECT_EQ(h.Count("reconcile.end", {{"result", "error"}}), 0)
      << "the first List of Pods did not hit an unsynced informer";
  EXPECT_EQ(
      h.Count("api.request", {{"verb", "list"}, {"kind", "Pod"}, {"user", testing::kOperatorUser}}),
      1)
      << "one initial list by the informer; reconciles read the cache";
}

TEST(CacheOptions, ScopesPodsToInferenceServicePods) {
  EXPECT_EQ(CacheOptions().by_object.at("Pod").label_selector,
            "app.kubernetes.io/name=inferenceservice");
  EXPECT_TRUE(CacheOptions().default_namespaces.empty());
  EXPECT_EQ(CacheOptions({"prod"}).default_namespaces, (std::vector<std::string>{"prod"}));
  Bugs bugs;
  bugs.unscoped_pod_cache = true;  // controller-runtime's default: every Pod of the cluster
  EXPECT_EQ(CacheOptions({"prod"}, bugs).by_object.count("Pod"), 0u);
  EXPECT_EQ(CacheOptions({"prod"}, bugs).default_namespaces, (std::vector<std::string>{"prod"}));
}

// The operator's Pod informer lists and watches with the selector, so a Pod its Deployments did
// not make never reaches its cache (nor costs it a delivery), while one of theirs does.
TEST(SetupWithManager, ThePodCacheKeepsOnlyInferenceServicePods) {
  Harness h;
  auto pod = [&](const std::string& name, const Json& labels) {
    auto created = h.admin.Create(Json{
        {"apiVersion", "v1"},
        {"kind", "Pod"},
        {"metadata", {{"name", name}, {"namespace", "prod"}, {"labels", labels}}},
        {"spec", {{"containers", Json::array({Json{{"name", "c"}, {"image", "x"}}})}}}});
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  };
  const int64_t mark = h.Mark();
  pod("server-0", Json{{kInstanceLabel, "llama"}, {kNameLabel, kNameLabelValue}});
  pod("bystander", Json{{"app", "web"}});
  h.Run(kSetupSecond);
  EXPECT_TRUE(h.mgr.GetCache().Get("Pod", "prod", "server-0").ok());
  auto missing = h.mgr.GetCache().Get("Pod", "prod", "bystander");
  EXPECT_TRUE(base::IsNotFound(missing.status())) << missing.status().ToString();
  EXPECT_EQ(h.Count("watch.event", {{"kind", "Pod"}, {"name", "bystander"}}, mark), 0);
  EXPECT_EQ(h.Count("watch.event", {{"kind", "Pod"}, {"name", "server-0"}}, mark), 1);
}

}  // namespace
}  // namespace inference
