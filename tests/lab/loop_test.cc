// The loop view's model (core/lab/loop.h): which records each controller's loop animates, on
// which edge, how a trip ends (rejected, merged, dirty), and the animation clock — a pure
// function of the trace and the animation position.
#include "core/lab/loop.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/lab/lab.h"
#include "core/sim/clock.h"

namespace lab {
namespace {

constexpr const char* kReplica = "kuberay-operator-6f748b9d77-8k677";

// LoopTestTrace emits one Pod change through the raycluster controller: a kubelet write, its
// watch event, the informer's DeltaFIFO pop, the owner handler, a queued add, a coalesced add, the reconcile with one write,
// a RequeueAfter, the timer firing — and a RayCluster event a predicate filters out.
struct LoopTestTrace {
  sim::Clock clock;
  sim::Trace trace{clock};
  int64_t write = 0, watch = 0, pop = 0, enqueue = 0, add = 0, coalesced = 0, get = 0, start = 0,
          own_write = 0, end = 0, add_after = 0, fired = 0, rc_watch = 0, rejected = 0,
          other_controller = 0;

  LoopTestTrace() {
    const std::string informer = std::string(kReplica) + "/pod-informer";
    write = trace.Emit("api.request", {{"verb", "patch"}, {"kind", "Pod"}, {"namespace", "default"},
                                       {"name", "demo-worker-x"}, {"subresource", "status"},
                                       {"user", "system:node:node-1"}, {"code", 200},
                                       {"resourceVersion", "10"}, {"cause", 0}});
    watch = trace.Emit("watch.event", {{"watcher", informer}, {"kind", "Pod"},
                                       {"eventType", "MODIFIED"}, {"namespace", "default"},
                                       {"name", "demo-worker-x"}, {"resourceVersion", "10"},
                                       {"cause", write}});
    pop = trace.Emit("informer.pop", {{"informer", informer}, {"kind", "Pod"},
                                      {"key", "default/demo-worker-x"}, {"deltas", "Updated"},
                                      {"cause", watch}});
    enqueue = trace.Emit("handler.enqueue", {{"controller", "raycluster"},
                                             {"handler", "EnqueueRequestForOwner"},
                                             {"object", "Pod/default/demo-worker-x"},
                                             {"key", "default/demo"}, {"cause", watch},
                                             {"replica", kReplica}});
    add = trace.Emit("queue.add", {{"controller", "raycluster"}, {"key", "default/demo"},
                                   {"outcome", "queued"}, {"priority", 0}, {"cause", enqueue},
                                   {"replica", kReplica}});
    coalesced = trace.Emit("queue.add", {{"controller", "raycluster"}, {"key", "default/demo"},
                                         {"outcome", "coalesced"}, {"priority", 0},
                                         {"cause", enqueue}, {"replica", kReplica}});
    get = trace.Emit("queue.get", {{"controller", "raycluster"}, {"key", "default/demo"},
                                   {"worker", 0}, {"cause", add}, {"replica", kReplica}});
    start = trace.Emit("reconcile.start", {{"controller", "raycluster"}, {"key", "default/demo"},
                                           {"worker", 0}, {"cause", get}, {"replica", kReplica}});
    own_write = trace.Emit("api.request", {{"verb", "create"}, {"kind", "Service"},
                                           {"namespace", "default"}, {"name", "demo-head-svc"},
                                           {"subresource", ""},
                                           {"user", "system:serviceaccount:default:kuberay-operator"},
                                           {"code", 201}, {"resourceVersion", "11"},
                                           {"cause", start}});
    end = trace.Emit("reconcile.end", {{"controller", "raycluster"}, {"key", "default/demo"},
                                       {"worker", 0}, {"result", "requeue_after"},
                                       {"requeueAfterMs", 2000}, {"error", ""}, {"cause", start},
                                       {"replica", kReplica}});
    add_after = trace.Emit("queue.add_after", {{"controller", "raycluster"},
                                               {"key", "default/demo"}, {"delayMs", 2000},
                                               {"cause", end}, {"replica", kReplica}});
    clock.AdvanceTo(2 * base::kSecond);
    fired = trace.Emit("queue.add", {{"controller", "raycluster"}, {"key", "default/demo"},
                                     {"outcome", "queued"}, {"priority", 0}, {"cause", add_after},
                                     {"replica", kReplica}});
    rc_watch = trace.Emit("watch.event", {{"watcher", std::string(kReplica) + "/raycluster-informer"},
                                          {"kind", "RayCluster"}, {"eventType", "MODIFIED"},
                                          {"namespace", "default"}, {"name", "demo"},
                                          {"resourceVersion", "12"}, {"cause", 0}});
    rejected = trace.Emit("predicate.eval", {{"controller", "raycluster"}, {"watch", "For(RayCluster)"},
                                             {"predicate", "Or(GenerationChanged,LabelChanged,AnnotationChanged)"},
                                             {"eventType", "Update"},
                                             {"object", "RayCluster/default/demo"},
                                             {"result", "false"}, {"cause", rc_watch},
                                             {"replica", kReplica}});
    other_controller = trace.Emit("handler.enqueue", {{"controller", "rayjob"},
                                                      {"handler", "EnqueueRequestForOwner"},
                                                      {"object", "RayCluster/default/demo"},
                                                      {"key", "default/job"}, {"cause", rc_watch},
                                                      {"replica", kReplica}});
  }
};

const LoopLane& RayClusterLane(const LoopIndex& index) {
  const LoopLane* lane = index.Find({kReplica, "raycluster"});
  EXPECT_NE(lane, nullptr);
  static const LoopLane kNone;
  return lane ? *lane : kNone;
}

// TokenOf finds the token of seq at the position where it has just arrived.
LoopToken Arrived(const sim::Trace& trace, const LoopLane& lane, int64_t seq) {
  for (size_t i = 0; i < lane.seqs.size(); ++i) {
    if (lane.seqs[i] != seq) continue;
    for (const LoopToken& t : LoopTokens(trace, lane, static_cast<double>(i) + 1.0)) {
      if (t.seq == seq) return t;
    }
  }
  ADD_FAILURE() << "no token for seq " << seq;
  return {};
}

TEST(LoopIndex, ALaneHoldsItsControllersRecordsAndTheWritesAndEventsThatFeedIt) {
  LoopTestTrace t;
  LoopIndex index;
  index.Update(t.trace);
  const LoopLane& lane = RayClusterLane(index);
  const std::vector<int64_t> want = {t.write, t.watch, t.pop, t.enqueue, t.add, t.coalesced, t.get,
                                     t.start, t.own_write, t.end, t.add_after, t.fired,
                                     t.rc_watch, t.rejected};
  EXPECT_EQ(lane.seqs, want);
  EXPECT_EQ(lane.last_add.at("default/demo"), t.fired);
  EXPECT_EQ(lane.last_delay.at("default/demo"), t.add_after);
  EXPECT_EQ(lane.worker_start.at(0), t.start);
  EXPECT_FALSE(lane.worker_busy.at(0));
  // The RayCluster event reached both controllers of the process; each lane has its own record.
  const LoopLane* rayjob = index.Find({kReplica, "rayjob"});
  ASSERT_NE(rayjob, nullptr);
  EXPECT_EQ(rayjob->seqs, (std::vector<int64_t>{t.rc_watch, t.other_controller}));
  ASSERT_NE(index.LatestActive(), nullptr);
  EXPECT_EQ(index.LatestActive()->controller, "rayjob");
}

TEST(LoopIndex, ReadingInStepsGivesTheSameLanesAsReadingAtOnce) {
  LoopTestTrace whole;
  LoopIndex at_once;
  at_once.Update(whole.trace);
  // A second trace built the same way, read after every record as the page reads each frame.
  sim::Clock clock;
  sim::Trace growing(clock);
  LoopIndex stepwise;
  for (const sim::TraceEvent& e : whole.trace.events()) {
    if (e.t > clock.Now()) clock.AdvanceTo(e.t);
    sim::TraceFields fields;
    for (const auto& [k, v] : e.fields) {
      fields.emplace_back(std::string(k),
                          v.is_int ? sim::TraceValue(v.i) : sim::TraceValue(std::string(v.s)));
    }
    growing.Emit(e.type, fields);
    stepwise.Update(growing);
  }
  EXPECT_EQ(RayClusterLane(stepwise).seqs, RayClusterLane(at_once).seqs);
  EXPECT_EQ(stepwise.lanes().size(), at_once.lanes().size());
}

TEST(LoopIndex, AnotherTraceIsReadFromItsStart) {
  LoopTestTrace first;
  LoopIndex index;
  index.Update(first.trace);
  sim::Clock clock;
  sim::Trace empty(clock);
  index.Update(empty);
  EXPECT_TRUE(index.lanes().empty());
  EXPECT_EQ(index.LatestActive(), nullptr);
}

TEST(LoopTokens, EachRecordTravelsItsEdgeAndEndsAsItsOutcomeSays) {
  LoopTestTrace t;
  LoopIndex index;
  index.Update(t.trace);
  const LoopLane& lane = RayClusterLane(index);
  struct Want {
    int64_t seq;
    LoopEdge edge;
    LoopFate fate;
  };
  for (const Want& w : std::vector<Want>{
           {t.write, LoopEdge::kIncoming, LoopFate::kArrives},
           {t.watch, LoopEdge::kWatch, LoopFate::kArrives},
           {t.pop, LoopEdge::kPop, LoopFate::kArrives},
           {t.enqueue, LoopEdge::kHandlerDirect, LoopFate::kArrives},  // Owns(Pod): no predicate
           {t.add, LoopEdge::kEnqueue, LoopFate::kArrives},
           {t.coalesced, LoopEdge::kEnqueue, LoopFate::kMerged},
           {t.get, LoopEdge::kGet, LoopFate::kArrives},
           {t.start, LoopEdge::kStart, LoopFate::kArrives},
           {t.own_write, LoopEdge::kWrite, LoopFate::kArrives},
           {t.end, LoopEdge::kEnd, LoopFate::kArrives},
           {t.add_after, LoopEdge::kRequeue, LoopFate::kArrives},
           {t.fired, LoopEdge::kTimerFired, LoopFate::kArrives},
           {t.rejected, LoopEdge::kPredicate, LoopFate::kRejected},
       }) {
    const LoopToken tok = Arrived(t.trace, lane, w.seq);
    EXPECT_EQ(tok.edge, w.edge) << "seq " << w.seq << ": " << LoopEdgeName(tok.edge);
    EXPECT_EQ(tok.fate, w.fate) << "seq " << w.seq;
    EXPECT_FLOAT_EQ(tok.progress, 1.0f);
    EXPECT_FALSE(tok.moving);
  }
  EXPECT_EQ(Arrived(t.trace, lane, t.get).worker, 0);
  EXPECT_EQ(Arrived(t.trace, lane, t.add).key, "default/demo");
  EXPECT_EQ(Arrived(t.trace, lane, t.end).label, "RequeueAfter 2s");
  EXPECT_EQ(Arrived(t.trace, lane, t.add_after).label, "AddAfter 2s");
  EXPECT_EQ(Arrived(t.trace, lane, t.write).label, "kubelet: patch Pod/status");
  EXPECT_EQ(Arrived(t.trace, lane, t.pop).label, "Pop Updated Pod");
}

TEST(LoopTokens, ATokenMovesAlongItsEdgeThenLingersAndFades) {
  LoopTestTrace t;
  LoopIndex index;
  index.Update(t.trace);
  const LoopLane& lane = RayClusterLane(index);
  // Position 3.25: record 3 (the handler) is a quarter of the way; 0 to 2 have arrived.
  std::vector<LoopToken> tokens = LoopTokens(t.trace, lane, 3.25);
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(tokens[3].seq, t.enqueue);
  EXPECT_TRUE(tokens[3].moving);
  const float quarter = tokens[3].progress;
  EXPECT_GT(quarter, 0.0f);
  EXPECT_LT(quarter, 0.5f);
  const LoopToken later = LoopTokens(t.trace, lane, 3.75).back();
  EXPECT_EQ(later.seq, t.enqueue);
  EXPECT_GT(later.progress, quarter);
  EXPECT_FLOAT_EQ(tokens[0].alpha, static_cast<float>(1.0 - 2.25 / kLoopLinger));
  // Long after, only the tokens within the linger window are left.
  for (const LoopToken& tok : LoopTokens(t.trace, lane, 10.0)) {
    EXPECT_GE(tok.seq, lane.seqs[7]) << "seq " << tok.seq << " should have faded";
  }
  // At the end the newest token stays where it arrived, fully visible.
  const std::vector<LoopToken> end = LoopTokens(t.trace, lane, static_cast<double>(lane.seqs.size()));
  EXPECT_EQ(end.back().seq, t.rejected);
  EXPECT_FLOAT_EQ(end.back().alpha, 1.0f);
  EXPECT_FALSE(end.back().moving);
}

TEST(LoopTokens, ARejectedTokenStaysVisibleTwiceAsLong) {
  LoopTestTrace t;
  LoopIndex index;
  index.Update(t.trace);
  LoopLane lane = RayClusterLane(index);
  lane.seqs = {t.rejected, t.write, t.watch, t.enqueue, t.add, t.coalesced};  // later arrivals
  bool rejected_visible = false, write_visible = false;
  for (const LoopToken& tok : LoopTokens(t.trace, lane, 5.0)) {
    rejected_visible |= tok.seq == t.rejected;
  }
  lane.seqs = {t.write, t.watch, t.enqueue, t.add, t.coalesced, t.get};
  for (const LoopToken& tok : LoopTokens(t.trace, lane, 5.0)) write_visible |= tok.seq == t.write;
  EXPECT_TRUE(rejected_visible);
  EXPECT_FALSE(write_visible);
}

TEST(LoopClock, PlaysAboutTwoTripsASecondAndCatchesUpWithABacklog) {
  EXPECT_DOUBLE_EQ(AdvanceLoopClock(0, 1, 0.2, 1.0), 0.5);
  EXPECT_DOUBLE_EQ(AdvanceLoopClock(0.9, 1, 0.2, 1.0), 1.0);  // never past the newest record
  EXPECT_DOUBLE_EQ(AdvanceLoopClock(3, 3, 1.0, 1.0), 3.0);
  EXPECT_DOUBLE_EQ(AdvanceLoopClock(0, 1, 0.2, 0.5), 0.25);  // half speed
  // Twelve records behind: four times the pace.
  EXPECT_DOUBLE_EQ(AdvanceLoopClock(0, 12, 0.1, 1.0), 1.0);
  // Never more than 40 behind.
  EXPECT_GE(AdvanceLoopClock(0, 1000, 0.001, 1.0), 960.0);
  // A long pause (a background tab) counts as a quarter second.
  EXPECT_DOUBLE_EQ(AdvanceLoopClock(0, 2, 10.0, 1.0), 0.625);
  EXPECT_DOUBLE_EQ(AdvanceLoopClock(1, 2, 0, 1.0), 1.0);
}

// The example's own trace: the worker's Ready write reaches the RayCluster controller, whose
// status write the raycluster predicate filters out and the rayjob controller enqueues.
TEST(LoopIndex, Note000ChainRunsThroughTheRayClusterLoop) {
  std::ifstream in(std::string(RLAB_SOURCE_DIR) + "/examples/note000_chain.lab");
  std::stringstream ss;
  ss << in.rdbuf();
  Lab lab{SimulationOptions{}};
  auto outcome = lab.RunScript(ss.str(), std::string(RLAB_SOURCE_DIR) + "/examples", false, nullptr);
  ASSERT_TRUE(outcome.ok);
  LoopIndex index;
  index.Update(lab.sim().trace());
  const auto& events = lab.sim().trace().events();
  // The last raycluster reconcile and the chain that led to it.
  int64_t start = 0;
  for (const sim::TraceEvent& e : events) {
    if (e.type == "reconcile.start" && e.FieldString("controller") == "raycluster") start = e.seq;
  }
  ASSERT_GT(start, 0);
  const LoopLane* lane = index.Find({events[static_cast<size_t>(start - 1)].FieldString("replica"),
                                     "raycluster"});
  ASSERT_NE(lane, nullptr);
  std::vector<LoopEdge> edges;
  for (int64_t s = start; s > 0;) {
    const auto& e = events[static_cast<size_t>(s - 1)];
    if (std::find(lane->seqs.begin(), lane->seqs.end(), s) == lane->seqs.end()) break;
    edges.insert(edges.begin(), LoopTokenFor(lab.sim().trace(), s, 1).edge);
    s = e.Field("cause")->i;
  }
  EXPECT_EQ(edges, (std::vector<LoopEdge>{LoopEdge::kIncoming, LoopEdge::kWatch,
                                          LoopEdge::kHandlerDirect, LoopEdge::kEnqueue,
                                          LoopEdge::kGet, LoopEdge::kStart}));
  // Its status write is in the lane as a client write, and the predicate stopped its event.
  bool write = false, rejected = false;
  for (int64_t s : lane->seqs) {
    if (s <= start) continue;
    const LoopToken tok = LoopTokenFor(lab.sim().trace(), s, 1);
    write |= tok.edge == LoopEdge::kWrite && tok.label == "update RayCluster/status";
    rejected |= tok.fate == LoopFate::kRejected;
  }
  EXPECT_TRUE(write);
  EXPECT_TRUE(rejected);
}

}  // namespace
}  // namespace lab
