// The controller's reconcile-result switch, worker slots and metrics, with upstream's numbers.
// mirrors controller-runtime pkg/internal/controller/controller_test.go (reconcileHandler cases)
#include "core/controller/controller.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace controller {
namespace {

struct LogLine {
  std::string level;
  std::string msg;
};

// Harness runs one controller with no sources; tests add keys to its queue directly and script
// what each reconcile returns.
class Harness {
 public:
  explicit Harness(bool priority_queue, int workers = 1,
                   base::Duration cost = base::kMillisecond)
      : reconciler_([this](reconcile::ReconcileContext&, const reconcile::Request& req) {
          started_.push_back(req.Key());
          if (script_.empty()) return reconcile::Outcome::Ok();
          reconcile::Outcome next = script_.front();
          script_.pop_front();
          return next;
        }) {
    Options opts;
    opts.use_priority_queue = priority_queue;
    opts.max_concurrent_reconciles = workers;
    opts.reconcile_cost = cost;
    controller_ = std::make_unique<Controller>("test", reconciler_, scheduler_, trace_, opts);
    controller_->SetLogger([this](const std::string& level, const std::string& msg,
                                  const reconcile::ReconcileContext::KeyValues&) {
      logs_.push_back({level, msg});
    });
    EXPECT_TRUE(controller_->Start().ok());
  }

  void Then(reconcile::Outcome outcome) { script_.push_back(std::move(outcome)); }
  // Watch starts a source on the running controller.
  void Watch(std::unique_ptr<source::Source> src) {
    EXPECT_TRUE(controller_->Watch(std::move(src)).ok());
  }
  void Add(const std::string& key) { controller_->queue().Add(key); }
  void RunFor(base::Duration d) { scheduler_.RunUntil(clock_.Now() + d, 1'000'000); }

  // Records returns the trace records of one type, in order.
  std::vector<sim::TraceEvent> Records(const std::string& type) const {
    std::vector<sim::TraceEvent> out;
    for (const auto& e : trace_.events()) {
      if (e.type == type) out.push_back(e);
    }
    return out;
  }
  std::vector<std::string> Types() const {
    std::vector<std::string> out;
    for (const auto& e : trace_.events()) out.emplace_back(e.type);
    return out;
  }
  bool Logged(const std::string& needle) const {
    for (const auto& l : logs_) {
      if (l.msg.find(needle) != std::string::npos) return true;
    }
    return false;
  }

  Controller& controller() { return *controller_; }
  const std::vector<std::string>& started() const { return started_; }

 private:
  sim::Clock clock_;
  sim::Trace trace_{clock_};
  sim::Scheduler scheduler_{clock_, trace_};
  std::deque<reconcile::Outcome> script_;
  std::vector<std::string> started_;
  std::vector<LogLine> logs_;
  reconcile::Func reconciler_;
  std::unique_ptr<Controller> controller_;
};

reconcile::Outcome Fail() {
  return reconcile::Outcome::Error(base::Status(base::StatusCode::kInternal, "boom"));
}

reconcile::Outcome After(base::Duration d) {
  reconcile::Result r;
  r.requeue_after = d;
  return reconcile::Outcome::Ok(r);
}

class ControllerQueues : public ::testing::TestWithParam<bool> {};

// The n-th consecutive failure waits 5ms·2^(n-1), capped at 1000s: 655.36s for the 18th and
// 1000s from the 19th on, through the controller, on both queues (the classic queue's 10 qps
// bucket never binds at one key's pace).
TEST_P(ControllerQueues, ErrorsBackOffFromFiveMillisecondsToOneThousandSeconds) {
  Harness h(GetParam());
  for (int i = 0; i < 21; ++i) h.Then(Fail());
  h.Add("ns/a");
  h.RunFor(4000 * base::kSecond);

  const auto adds = h.Records("queue.add_rate_limited");
  ASSERT_GE(adds.size(), 21u);
  int64_t expected_ms = 5;
  for (size_t n = 0; n < 21; ++n) {
    const int64_t want = std::min<int64_t>(expected_ms, 1'000'000);
    EXPECT_EQ(adds[n].FieldString("delayMs"), std::to_string(want)) << "failure " << n + 1;
    EXPECT_EQ(adds[n].FieldString("requeues"), std::to_string(n + 1));
    expected_ms *= 2;
  }
  EXPECT_EQ(adds[17].FieldString("delayMs"), "655360");
  EXPECT_EQ(adds[18].FieldString("delayMs"), "1000000");

  // The retry starts exactly one backoff after the failed reconcile ended.
  const auto ends = h.Records("reconcile.end");
  const auto starts = h.Records("reconcile.start");
  ASSERT_GE(starts.size(), 20u);
  for (size_t n = 0; n + 1 < 20; ++n) {
    const base::SimTime gap = starts[n + 1].t - ends[n].t;
    EXPECT_EQ(gap, std::min<int64_t>(5 * base::kMillisecond << n, 1000 * base::kSecond))
        << "retry " << n + 1;
  }
}

TEST_P(ControllerQueues, SuccessForgetsAndResetsTheBackoff) {
  Harness h(GetParam());
  h.Then(Fail());
  h.Then(Fail());
  h.Then(Fail());
  h.Then(reconcile::Outcome::Ok());
  h.Then(Fail());
  h.Add("ns/a");
  h.RunFor(base::kSecond);
  EXPECT_EQ(h.Records("queue.forget").size(), 1u);
  h.Add("ns/a");
  h.RunFor(base::kMillisecond * 2);
  const auto adds = h.Records("queue.add_rate_limited");
  ASSERT_EQ(adds.size(), 4u);
  EXPECT_EQ(adds[2].FieldString("delayMs"), "20");
  EXPECT_EQ(adds[3].FieldString("delayMs"), "5");  // back to the first step after the Forget
  EXPECT_EQ(adds[3].FieldString("requeues"), "1");
}

TEST_P(ControllerQueues, RequeueAfterWithAnErrorIsIgnoredAndLogged) {
  Harness h(GetParam());
  reconcile::Outcome both = Fail();
  both.result.requeue_after = 30 * base::kSecond;
  h.Then(both);
  h.Add("ns/a");
  h.RunFor(base::kSecond);
  EXPECT_TRUE(h.Records("queue.add_after").empty());
  const auto adds = h.Records("queue.add_rate_limited");
  ASSERT_FALSE(adds.empty());
  EXPECT_EQ(adds[0].FieldString("delayMs"), "5");
  const auto ends = h.Records("reconcile.end");
  EXPECT_EQ(ends[0].FieldString("result"), "error");
  EXPECT_TRUE(h.Logged("RequeueAfter and Requeue will always be ignored if the error is non-nil"));
  EXPECT_TRUE(h.Logged("Reconciler error"));
  // The retry came after 5ms, not 30s.
  ASSERT_GE(h.started().size(), 2u);
}

TEST_P(ControllerQueues, TerminalErrorIsNeitherRetriedNorForgotten) {
  Harness h(GetParam());
  h.Then(Fail());
  h.Then(Fail());
  h.Then(reconcile::Outcome::Error(reconcile::TerminalError(
      base::Status(base::StatusCode::kInvalid, "spec.image is empty"))));
  h.Add("ns/a");
  h.RunFor(10 * base::kSecond);
  EXPECT_EQ(h.started().size(), 3u);
  EXPECT_EQ(h.Records("queue.add_rate_limited").size(), 2u);
  EXPECT_TRUE(h.Records("queue.forget").empty());
  EXPECT_EQ(h.controller().queue().NumRequeues("ns/a"), 2);  // left as it was
  const auto ends = h.Records("reconcile.end");
  EXPECT_EQ(ends.back().FieldString("result"), "terminal_error");
  EXPECT_EQ(ends.back().FieldString("error"), "terminal error: spec.image is empty");
  const Metrics& m = h.controller().metrics();
  EXPECT_EQ(m.terminal_reconcile_errors_total, 1);
  EXPECT_EQ(m.reconcile_errors_total, 3);  // includes the terminal one
  EXPECT_EQ(m.reconcile_total.at("error"), 3);
}

TEST_P(ControllerQueues, RequeueAfterForgetsFirstThenWaits) {
  Harness h(GetParam());
  h.Then(Fail());
  h.Then(Fail());
  h.Then(After(30 * base::kSecond));
  h.Add("ns/a");
  h.RunFor(base::kSecond);
  EXPECT_EQ(h.controller().queue().NumRequeues("ns/a"), 0);
  const auto types = h.Types();
  // ... reconcile.end, queue.forget, queue.add_after, queue.done, in upstream's order.
  auto end = std::find(types.rbegin(), types.rend(), "reconcile.end");
  ASSERT_NE(end, types.rend());
  const size_t i = static_cast<size_t>(types.rend() - end) - 1;
  ASSERT_GE(types.size(), i + 4);
  EXPECT_EQ(types[i + 1], "queue.forget");
  EXPECT_EQ(types[i + 2], "queue.add_after");
  EXPECT_EQ(types[i + 3], "queue.done");
  EXPECT_EQ(h.Records("queue.add_after")[0].FieldString("delayMs"), "30000");

  const base::SimTime finished = h.Records("reconcile.end").back().t;
  h.RunFor(40 * base::kSecond);
  const auto starts = h.Records("reconcile.start");
  ASSERT_EQ(starts.size(), 4u);
  EXPECT_EQ(starts[3].t - finished, 30 * base::kSecond);
  EXPECT_EQ(h.controller().metrics().reconcile_total.at("requeue_after"), 1);
}

TEST_P(ControllerQueues, DeprecatedRequeueIsRateLimitedWithoutForget) {
  Harness h(GetParam());
  reconcile::Result requeue;
  requeue.requeue = true;
  h.Then(reconcile::Outcome::Ok(requeue));
  h.Then(reconcile::Outcome::Ok(requeue));
  h.Add("ns/a");
  h.RunFor(base::kSecond);
  const auto adds = h.Records("queue.add_rate_limited");
  ASSERT_EQ(adds.size(), 2u);
  EXPECT_EQ(adds[0].FieldString("delayMs"), "5");
  EXPECT_EQ(adds[1].FieldString("delayMs"), "10");
  EXPECT_EQ(h.Records("queue.forget").size(), 1u);  // only the final success forgets
  EXPECT_EQ(h.controller().metrics().reconcile_total.at("requeue"), 2);
}

TEST_P(ControllerQueues, APanicIsCountedAndRecoveredIntoAnError) {
  Harness h(GetParam());
  h.Then(reconcile::Outcome::Panic("assignment to entry in nil map"));
  h.Add("ns/a");
  h.RunFor(base::kSecond);
  const Metrics& m = h.controller().metrics();
  EXPECT_EQ(m.reconcile_panics_total, 1);
  EXPECT_EQ(m.reconcile_errors_total, 1);
  const auto ends = h.Records("reconcile.end");
  ASSERT_FALSE(ends.empty());
  EXPECT_EQ(ends[0].FieldString("error"), "panic: assignment to entry in nil map [recovered]");
  EXPECT_EQ(h.started().size(), 2u);  // retried after 5ms, then succeeded
}

TEST_P(ControllerQueues, MetricsStartAtZeroForEveryResult) {
  Harness h(GetParam(), 3);
  const Metrics& m = h.controller().metrics();
  for (const char* result : {"success", "error", "requeue", "requeue_after"}) {
    ASSERT_EQ(m.reconcile_total.count(result), 1u) << result;
    EXPECT_EQ(m.reconcile_total.at(result), 0) << result;
  }
  EXPECT_EQ(m.max_concurrent_reconciles, 3);
  EXPECT_EQ(m.active_workers, 0);
}

// With two workers, a key re-added while it is being reconciled waits for Done; another key
// runs beside it.
TEST_P(ControllerQueues, OneKeyIsNeverReconciledByTwoWorkersAtOnce) {
  Harness h(GetParam(), 2, 100 * base::kMillisecond);
  h.Add("ns/a");
  h.Add("ns/b");
  h.RunFor(10 * base::kMillisecond);
  h.Add("ns/a");  // dirty: being processed
  h.RunFor(500 * base::kMillisecond);
  const auto starts = h.Records("reconcile.start");
  ASSERT_EQ(starts.size(), 3u);
  EXPECT_EQ(starts[0].FieldString("key"), "ns/a");
  EXPECT_EQ(starts[1].FieldString("key"), "ns/b");
  EXPECT_EQ(starts[0].t, starts[1].t);  // both workers busy at once
  EXPECT_NE(starts[0].FieldString("worker"), starts[1].FieldString("worker"));
  EXPECT_EQ(starts[2].FieldString("key"), "ns/a");
  EXPECT_EQ(starts[2].t, starts[0].t + 100 * base::kMillisecond);  // after a's Done
}

// Five adds while one worker is busy elsewhere collapse into one reconcile.
TEST_P(ControllerQueues, AddsOfAWaitingKeyCoalesce) {
  Harness h(GetParam(), 1, 100 * base::kMillisecond);
  h.Add("ns/busy");
  h.RunFor(base::kMillisecond);
  for (int i = 0; i < 5; ++i) h.Add("ns/a");
  h.RunFor(base::kSecond);
  int reconciles_of_a = 0;
  for (const auto& key : h.started()) reconciles_of_a += key == "ns/a" ? 1 : 0;
  EXPECT_EQ(reconciles_of_a, 1);
}

// A RequeueAfter's add fires as a queue.add; the queue.get that follows names it as its cause,
// so a learner can walk the chain back from the reconcile to the wait.
TEST_P(ControllerQueues, QueueGetNamesTheDelayedAddThatReadiedTheKey) {
  Harness h(GetParam());
  h.Then(After(30 * base::kSecond));
  h.Add("ns/a");
  h.RunFor(40 * base::kSecond);
  const auto adds = h.Records("queue.add");
  const auto gets = h.Records("queue.get");
  ASSERT_EQ(adds.size(), 1u);  // the delayed add; the test's own Add is not traced
  ASSERT_EQ(gets.size(), 2u);
  EXPECT_EQ(adds[0].FieldString("outcome"), "queued");
  EXPECT_EQ(gets[1].FieldString("cause"), std::to_string(adds[0].seq));
}

// AddingSource enqueues through the controller's tracer as a source's handlers do: each add is a
// queue.add record with the queue's outcome.
class AddingSource final : public source::Source {
 public:
  base::Status Start(const source::StartContext& ctx) override {
    ctx_ = ctx;
    return base::Status::OK();
  }
  const std::string& Description() const override { return description_; }
  int64_t Add(const std::string& key) {
    workqueue::AddResult result = ctx_.queue->AddWithOpts(workqueue::AddOpts{}, key);
    return ctx_.tracer.EmitQueueAdd(key, workqueue::AddOutcomeName(result.outcome),
                                    result.priority, 0, /*readies=*/false);
  }

 private:
  source::StartContext ctx_;
  std::string description_ = "Adding";
};

// The add that queued a key is the queue.get's cause; a later add that found the key already
// queued (coalesced) does not take its place.
TEST_P(ControllerQueues, QueueGetNamesTheAddThatQueuedTheKeyNotACoalescedOne) {
  Harness h(GetParam(), 1, 100 * base::kMillisecond);
  auto owned = std::make_unique<AddingSource>();
  AddingSource* src = owned.get();
  h.Watch(std::move(owned));
  h.Add("ns/busy");
  h.RunFor(base::kMillisecond);  // the one worker is busy with ns/busy for 100 ms
  const int64_t queued = src->Add("ns/a");
  const int64_t coalesced = src->Add("ns/a");
  h.RunFor(base::kSecond);
  const auto adds = h.Records("queue.add");
  ASSERT_EQ(adds.size(), 2u);
  EXPECT_EQ(adds[0].FieldString("outcome"), "queued");
  EXPECT_EQ(adds[1].FieldString("outcome"), "coalesced");
  EXPECT_EQ(adds[1].seq, coalesced);
  const auto gets = h.Records("queue.get");
  ASSERT_EQ(gets.size(), 2u);
  EXPECT_EQ(gets[1].FieldString("key"), "ns/a");
  EXPECT_EQ(gets[1].FieldString("cause"), std::to_string(queued));
}

INSTANTIATE_TEST_SUITE_P(BothQueues, ControllerQueues, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("PriorityQueue")
                                             : std::string("ClassicQueue");
                         });

TEST(Controller, StartingTwiceIsAnError) {
  Harness h(true);
  base::Status again = h.controller().Start();
  EXPECT_FALSE(again.ok());
  EXPECT_NE(again.message().find("controller was started more than once"), std::string::npos);
}


// --- the process-ending paths: an unrecovered panic, a cache that never syncs -----------------

// NeverSynced is a source whose cache never syncs (its list is forbidden).
class NeverSynced final : public source::Source {
 public:
  base::Status Start(const source::StartContext&) override { return base::Status::OK(); }
  bool HasSynced() const override { return false; }
  const std::string& Description() const override { return description_; }
  std::string String() const override { return "kind source: *v1.Pod"; }

 private:
  std::string description_ = "Owns(Pod)";
};

struct Solo {
  sim::Clock clock;
  sim::Trace trace{clock};
  sim::Scheduler scheduler{clock, trace};
  std::vector<std::string> started;
  std::vector<std::string> logs;
  reconcile::Func reconciler{[this](reconcile::ReconcileContext&, const reconcile::Request& req) {
    started.push_back(req.Key());
    return reconcile::Outcome::Panic("runtime error: invalid memory address or nil pointer dereference");
  }};
  std::unique_ptr<Controller> Make(Options opts) {
    auto c = std::make_unique<Controller>("inferenceservice", reconciler, scheduler, trace, opts);
    c->SetLogger([this](const std::string& level, const std::string& msg,
                        const reconcile::ReconcileContext::KeyValues& kv) {
      std::string line = level + " " + msg;
      for (const auto& [k, v] : kv) line += " " + k + "=" + v;
      logs.push_back(line);
    });
    return c;
  }
  size_t Count(const std::string& type) const {
    size_t n = 0;
    for (const auto& e : trace.events()) n += e.type == type ? 1 : 0;
    return n;
  }
};

TEST(ControllerCrash, RecoverPanicFalseReRaisesThePanicAndTheControllerStops) {
  Solo s;
  Options opts;
  opts.recover_panic = false;
  auto c = s.Make(opts);
  std::vector<std::string> crashes;
  c->SetCrashHandler([&](const std::string& value) { crashes.push_back(value); });
  ASSERT_TRUE(c->Start().ok());
  c->queue().Add("ns/a");
  c->queue().Add("ns/b");
  s.scheduler.RunUntil(s.clock.Now() + base::kSecond, 100000);
  EXPECT_EQ(crashes, std::vector<std::string>{
                         "runtime error: invalid memory address or nil pointer dereference"});
  EXPECT_TRUE(c->crashed());
  EXPECT_EQ(s.started, std::vector<std::string>{"ns/a"}) << "ns/b is never handed out";
  EXPECT_EQ(c->metrics().reconcile_panics_total, 1) << "counted whether recovered or not";
  EXPECT_EQ(s.Count("reconcile.start"), 1u);
  EXPECT_EQ(s.Count("reconcile.end"), 0u) << "no Result is handled: the process is gone";
  EXPECT_EQ(s.Count("queue.done"), 0u);
  EXPECT_NE(std::find(s.logs.begin(), s.logs.end(),
                      "info Observed a panic in reconciler: runtime error: invalid memory address "
                      "or nil pointer dereference controller=inferenceservice"),
            s.logs.end());
}

TEST(ControllerCrash, UnsetRecoverPanicMeansTrue) {
  Solo s;
  auto c = s.Make(Options{});
  bool crashed = false;
  c->SetCrashHandler([&](const std::string&) { crashed = true; });
  ASSERT_TRUE(c->Start().ok());
  c->queue().Add("ns/a");
  s.scheduler.RunUntil(s.clock.Now() + 20 * base::kMillisecond, 100000);
  EXPECT_FALSE(crashed);
  EXPECT_GE(s.Count("reconcile.end"), 1u);
}

TEST(ControllerCrash, CachesNotSyncedWithinCacheSyncTimeoutFailStart) {
  Solo s;
  Options opts;
  opts.cache_sync_timeout = 2 * base::kMinute;
  auto c = s.Make(opts);
  std::vector<std::string> errors;
  c->SetStartErrorHandler([&](const base::Status& e) { errors.push_back(e.message()); });
  ASSERT_TRUE(c->Watch(std::make_unique<NeverSynced>()).ok());
  ASSERT_TRUE(c->Start().ok()) << "Start returns at once; its error comes when known";
  s.scheduler.RunUntil(s.clock.Now() + 2 * base::kMinute - base::kSecond, 100000);
  EXPECT_TRUE(errors.empty());
  s.scheduler.RunUntil(s.clock.Now() + 2 * base::kSecond, 100000);
  const std::string want =
      "failed to wait for inferenceservice caches to sync kind source: *v1.Pod: timed out "
      "waiting for cache to be synced for kind source: *v1.Pod";
  EXPECT_EQ(errors, std::vector<std::string>{want});
  EXPECT_FALSE(c->synced());
  EXPECT_NE(std::find(s.logs.begin(), s.logs.end(),
                      "error Could not wait for Cache to sync controller=inferenceservice "
                      "source=kind source: *v1.Pod error=" + want),
            s.logs.end());
  s.scheduler.RunUntil(s.clock.Now() + base::kMinute, 100000);
  EXPECT_EQ(errors.size(), 1u) << "reported once";
}

}  // namespace
}  // namespace controller
