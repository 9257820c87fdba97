// `why` (core/lab/why.h, core/lab/commands/why.cc): a record's chain of causes in plain words.
// The example's chain — the worker's kubelet write to the RayCluster's status write — is pinned
// word for word in English and Chinese; smaller traces pin the roots (command, kubelet, timer),
// the queue outcomes, the bound on long chains and the command's errors.
#include "core/lab/why.h"

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/lab/lab.h"
#include "core/sim/clock.h"

namespace lab {
namespace {

std::string WhyTestScript() {
  std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/examples/note000_chain.lab");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Note000Lab runs examples/note000_chain.lab (seed 1, as `rlab` runs it).
class Note000Why : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    auto outcome = lab_.RunScript(WhyTestScript(), std::string(RLAB_SOURCE_DIR) + "/examples", false,
                                  [&err](const ScriptLine&, const CommandResult& r) { err += r.err; });
    ASSERT_TRUE(outcome.ok) << err;
  }
  CommandResult Run(const std::string& line) { return lab_.ExecuteText(line); }
  Lab lab_{SimulationOptions{}};
};

constexpr const char* kNote000English =
    R"(why raycluster reconcile #9 of default/note000-9m295 ran, and what it did (seq 450, t=26.052s; root: a kubelet status write):
  seq 444  t=26.051s  Pod default/note000-9m295-small-worker-6sdqq became Ready (kubelet status write, node-1)
  seq 445  t=26.052s  → kuberay-operator's Pod informer got the MODIFIED event (resourceVersion 89)
  seq 447  t=26.052s  → owner handler mapped it to RayCluster default/note000-9m295 (EnqueueRequestForOwner)
  seq 448  t=26.052s  → added to the raycluster queue (a new entry, ready for a worker)
  seq 450  t=26.052s  → raycluster reconcile #9 of default/note000-9m295 by worker 0
  seq 452  t=26.052s  → updated the status of RayCluster default/note000-9m295
                      → still running: its result is not in the trace yet
)";

constexpr const char* kNote000Chinese =
    R"(为什么 raycluster 对 default/note000-9m295 的第 9 次协调会运行、它做了什么（seq 450，t=26.052s；根源：kubelet 写入 status）：
  seq 444  t=26.051s  Pod default/note000-9m295-small-worker-6sdqq 变为 Ready（kubelet 写入 status，node-1）
  seq 445  t=26.052s  → kuberay-operator 的 Pod informer 收到 MODIFIED 事件（resourceVersion 89）
  seq 447  t=26.052s  → owner handler 沿 ownerReference 找到 RayCluster default/note000-9m295（EnqueueRequestForOwner）
  seq 448  t=26.052s  → 入队 raycluster 工作队列（新条目，等待 worker 处理）
  seq 450  t=26.052s  → worker 0 执行 raycluster 对 default/note000-9m295 的第 9 次协调（Reconcile）
  seq 452  t=26.052s  → 更新了 RayCluster default/note000-9m295 的 status
                      → 仍在运行：trace 中还没有它的结果
)";

TEST_F(Note000Why, ReconcileChainFromTheKubeletWriteToTheStatusWriteInEnglish) {
  const CommandResult r = Run("why reconcile default/note000-9m295");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, kNote000English);
}

TEST_F(Note000Why, ReconcileChainFromTheKubeletWriteToTheStatusWriteInChinese) {
  const CommandResult r = Run("why reconcile default/note000-9m295 --lang zh");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_EQ(r.out, kNote000Chinese);
  // Without --lang the command speaks the lab's language (the page sets it).
  lab_.set_language("zh");
  EXPECT_EQ(Run("why reconcile default/note000-9m295").out, kNote000Chinese);
}

TEST_F(Note000Why, TheSameReconcileByAnyOfItsRecords) {
  const std::string by_key = Run("why reconcile default/note000-9m295").out;
  EXPECT_EQ(Run("why 450").out, by_key);  // reconcile.start
  EXPECT_EQ(Run("why 449").out, by_key);  // its queue.get
}

TEST_F(Note000Why, AStatusWriteEndsItsChainAndAFilteredEventStopsAtThePredicate) {
  const std::string write = Run("why 452").out;
  EXPECT_NE(write.find("why api.request happened (seq 452"), std::string::npos) << write;
  EXPECT_NE(
      write.find("seq 452  t=26.052s  → updated the status of RayCluster default/note000-9m295\n"),
      std::string::npos)
      << write;
  EXPECT_EQ(write.find("still running"), std::string::npos) << write;
  const std::string filtered = Run("why 455").out;
  EXPECT_NE(filtered.find("→ predicate Or(GenerationChanged,LabelChanged,AnnotationChanged) on "
                          "For(RayCluster) filtered out the Update event: it stops here, nothing "
                          "is enqueued\n"),
            std::string::npos) << filtered;
  // Its chain passes through the reconcile and its write, back to the kubelet.
  EXPECT_NE(filtered.find("root: a kubelet status write"), std::string::npos) << filtered;
  EXPECT_NE(filtered.find("seq 452"), std::string::npos) << filtered;
}

TEST_F(Note000Why, TheRayJobReconcileGoesOnThroughTheClusterStatusWrite) {
  const CommandResult r = Run("why reconcile default/note000 --controller rayjob");
  ASSERT_TRUE(r.ok) << r.err;
  EXPECT_NE(r.out.find("became Ready (kubelet status write, node-1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("→ updated the status of RayCluster default/note000-9m295\n"), std::string::npos);
  EXPECT_NE(r.out.find("→ owner handler mapped it to RayJob default/note000 (EnqueueRequestForOwner)"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("→ created Job default/note000\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(and recorded 1 Event)"), std::string::npos) << r.out;
}

TEST_F(Note000Why, LastNListsTheNewestReconcilesOldestFirst) {
  const CommandResult r = Run("why reconcile default/note000-9m295 --last 2");
  ASSERT_TRUE(r.ok) << r.err;
  const size_t eighth = r.out.find("reconcile #8 of default/note000-9m295 ran");
  const size_t ninth = r.out.find("reconcile #9 of default/note000-9m295 ran");
  ASSERT_NE(eighth, std::string::npos) << r.out;
  ASSERT_NE(ninth, std::string::npos) << r.out;
  EXPECT_LT(eighth, ninth);
  EXPECT_NE(r.out.find("\n\nwhy raycluster"), std::string::npos);  // a blank line between chains
}

TEST_F(Note000Why, BadInputGetsAClearErrorAndChangesNothing) {
  const int64_t before = lab_.sim().trace().last_seq();
  for (const char* line : {"why", "why 0", "why 99999999", "why abc", "why reconcile",
                           "why reconcile default/nope", "why reconcile a/b/c",
                           "why reconcile default/note000 --last 0", "why 3 --lang fr",
                           "why 3 --last 2", "why 3 4"}) {
    const CommandResult r = Run(line);
    EXPECT_FALSE(r.ok) << line;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << line << ": " << r.err;
  }
  EXPECT_EQ(Run("why 99999999").err,
            "error: the trace has no record 99999999 (it has " + std::to_string(before) +
                " records, seq 1 to " + std::to_string(before) + ")\n");
  EXPECT_EQ(Run("why reconcile default/nope").err, "error: no reconcile of default/nope in the trace yet\n");
  EXPECT_EQ(lab_.sim().trace().last_seq(), before);  // `why` reads the trace, never adds to it
}

// A small hand-written trace for the roots and queue outcomes the example does not show.
struct WhyTrace {
  sim::Clock clock;
  sim::Trace trace{clock};
  int64_t Emit(const char* type, sim::TraceFields fields) { return trace.Emit(type, fields); }
  std::string Why(int64_t seq, WhyLanguage lang = WhyLanguage::kEnglish) {
    return FormatWhy(ExplainWhy(trace, seq, lang));
  }
};

TEST(Why, ATimerIsARootThatNamesTheReconcileThatSetIt) {
  WhyTrace t;
  const int64_t create = t.Emit("api.request", {{"verb", "create"}, {"kind", "RayCluster"}, {"namespace", "default"},
                                                {"name", "demo"}, {"subresource", ""}, {"user", "kubernetes-admin"},
                                                {"code", 201}, {"resourceVersion", "5"}, {"cause", 0}});
  const int64_t add = t.Emit("queue.add", {{"controller", "raycluster"}, {"key", "default/demo"},
                                           {"outcome", "queued"}, {"priority", 0}, {"cause", create}});
  const int64_t get = t.Emit("queue.get", {{"controller", "raycluster"}, {"key", "default/demo"}, {"worker", 0}, {"cause", add}});
  const int64_t start = t.Emit("reconcile.start", {{"controller", "raycluster"}, {"key", "default/demo"}, {"worker", 0}, {"cause", get}});
  const int64_t end = t.Emit("reconcile.end", {{"controller", "raycluster"}, {"key", "default/demo"}, {"worker", 0},
                                               {"result", "requeue_after"}, {"requeueAfterMs", 2000}, {"error", ""},
                                               {"cause", start}});
  const int64_t after = t.Emit("queue.add_after", {{"controller", "raycluster"}, {"key", "default/demo"},
                                                   {"delayMs", 2000}, {"cause", end}});
  t.clock.AdvanceTo(2 * base::kSecond);
  const int64_t fired = t.Emit("queue.add", {{"controller", "raycluster"}, {"key", "default/demo"},
                                             {"outcome", "queued"}, {"priority", 0}, {"cause", after}});
  const int64_t get2 = t.Emit("queue.get", {{"controller", "raycluster"}, {"key", "default/demo"}, {"worker", 0}, {"cause", fired}});
  const int64_t start2 = t.Emit("reconcile.start", {{"controller", "raycluster"}, {"key", "default/demo"}, {"worker", 0}, {"cause", get2}});
  t.Emit("reconcile.end", {{"controller", "raycluster"}, {"key", "default/demo"}, {"worker", 0},
                           {"result", "error"}, {"requeueAfterMs", 0}, {"error", "conflict"}, {"cause", start2}});
  const int64_t rl = t.Emit("queue.add_rate_limited", {{"controller", "raycluster"}, {"key", "default/demo"},
                                                       {"delayMs", 5}, {"requeues", 1}, {"cause", start2 + 1}});
  EXPECT_EQ(t.Why(start2),
            "why raycluster reconcile #2 of default/demo ran, and what it did (seq 9, t=2s; root: a timer):\n"
            "  seq  6  t=0s  timer: reconcile #1 of default/demo (seq 5) returned RequeueAfter 2s\n"
            "  seq  7  t=2s  → 2s later the timer fired: the key is ready in the raycluster queue\n"
            "  seq  9  t=2s  → raycluster reconcile #2 of default/demo by worker 0\n"
            "  seq 10  t=2s  → returned an error: conflict: the rate limiter retries it in 5ms (requeue 1)\n");
  // Asked about the timer itself, the answer is the reconcile that set it, back to the command.
  const std::string set = t.Why(after);
  EXPECT_NE(set.find("root: your command"), std::string::npos) << set;
  EXPECT_NE(set.find("your command created RayCluster default/demo\n"), std::string::npos) << set;
  EXPECT_NE(set.find("→ back in the queue after 2s (RequeueAfter: Forget, then AddAfter)\n"), std::string::npos) << set;
  // A retry's root is the failed reconcile, in Chinese too.
  const int64_t fired2 = t.Emit("queue.add", {{"controller", "raycluster"}, {"key", "default/demo"},
                                              {"outcome", "queued"}, {"priority", 0}, {"cause", rl}});
  const std::string retry = t.Why(fired2, WhyLanguage::kChinese);
  EXPECT_NE(retry.find("定时器：default/demo 的第 2 次协调（seq 10）失败：conflict；限速器等待 5ms（第 1 次重新入队）"),
            std::string::npos) << retry;
  EXPECT_NE(retry.find("根源：定时器"), std::string::npos) << retry;
}

TEST(Why, QueueOutcomesAreToldAsTheyHappened) {
  WhyTrace t;
  const int64_t w = t.Emit("watch.event", {{"watcher", "op-5d8f7b9c4-abcde/pod-informer"}, {"kind", "Pod"},
                                           {"eventType", "MODIFIED"}, {"namespace", "default"}, {"name", "p"},
                                           {"resourceVersion", "9"}, {"cause", 0}});
  const int64_t h = t.Emit("handler.enqueue", {{"controller", "raycluster"}, {"handler", "EnqueueRequestForOwner"},
                                               {"object", "Pod/default/p"}, {"key", "default/demo"}, {"cause", w}});
  const int64_t coalesced = t.Emit("queue.add", {{"controller", "raycluster"}, {"key", "default/demo"},
                                                 {"outcome", "coalesced"}, {"priority", 0}, {"cause", h}});
  const int64_t dirty = t.Emit("queue.add", {{"controller", "raycluster"}, {"key", "default/demo"},
                                             {"outcome", "dirty"}, {"priority", 0}, {"cause", h}});
  EXPECT_NE(t.Why(coalesced).find("→ added to the raycluster queue (coalesced with a waiting add: the key was already queued)\n"),
            std::string::npos);
  EXPECT_NE(t.Why(dirty).find("while the key was being reconciled: marked dirty, it runs again after Done\n"),
            std::string::npos);
  EXPECT_NE(t.Why(coalesced).find("seq 1  t=0s  op's Pod informer got the MODIFIED event (resourceVersion 9)\n"),
            std::string::npos) << t.Why(coalesced);
  EXPECT_NE(t.Why(dirty, WhyLanguage::kChinese).find("标记为 dirty，Done 之后再处理一次"), std::string::npos);
}

TEST(Why, AnInformerPopIsToldAsTheDeltaFifoHandingOverItsKey) {
  WhyTrace t;
  const int64_t w = t.Emit("watch.event", {{"watcher", "op-5d8f7b9c4-abcde/pod-informer"}, {"kind", "Pod"},
                                           {"eventType", "MODIFIED"}, {"namespace", "default"}, {"name", "p"},
                                           {"resourceVersion", "9"}, {"cause", 0}});
  const int64_t pop = t.Emit("informer.pop", {{"informer", "op-5d8f7b9c4-abcde/pod-informer"}, {"kind", "Pod"},
                                              {"key", "default/p"}, {"deltas", "Updated"}, {"cause", w}});
  EXPECT_NE(t.Why(pop).find("→ op's Pod informer popped default/p from its DeltaFIFO (Updated)\n"),
            std::string::npos) << t.Why(pop);
  EXPECT_NE(t.Why(pop, WhyLanguage::kChinese).find("op 的 Pod informer 从 DeltaFIFO 取出 default/p（Updated）"),
            std::string::npos) << t.Why(pop, WhyLanguage::kChinese);
}

TEST(Why, ALongChainKeepsItsRootAndItsNewestLinks) {
  WhyTrace t;
  int64_t seq = t.Emit("api.request", {{"verb", "create"}, {"kind", "ConfigMap"}, {"namespace", "default"},
                                       {"name", "c"}, {"subresource", ""}, {"user", "kubernetes-admin"},
                                       {"code", 201}, {"resourceVersion", "1"}, {"cause", 0}});
  for (int i = 0; i < 200; ++i) {
    seq = t.Emit("gc.action", {{"action", "wait"}, {"object", "ConfigMap/default/c"}, {"detail", ""}, {"cause", seq}});
  }
  const WhyChain chain = ExplainWhy(t.trace, seq, WhyLanguage::kEnglish);
  ASSERT_EQ(chain.lines.size(), kMaxWhyChainLines);
  EXPECT_EQ(chain.lines.front().role, WhyLine::Role::kRoot);
  EXPECT_EQ(chain.lines.front().seq, 1);
  EXPECT_EQ(chain.lines[1].role, WhyLine::Role::kElided);
  EXPECT_EQ(chain.lines[1].text, "… 162 more links …");
  EXPECT_EQ(chain.lines.back().seq, seq);
  EXPECT_EQ(chain.root, WhyRoot::kLearner);
}

}  // namespace
}  // namespace lab
