#pragma once
// Loop: the trace as tokens travelling one controller's pipeline — API server → informer (its
// DeltaFIFO, then its cache) →
// predicates → event handler → workqueue → worker → Reconcile → client writes → API server — the
// page's loop view draws (RaftScope's messages between servers are the model). This file knows
// the pipeline's edges and when each token is where; the page owns the geometry.
// No Go counterpart: every record it animates is DESIGN.md's trace, and every edge is a call in
// controller-runtime (source → handler → queue → processNextWorkItem → Reconcile).
//
// LoopIndex sorts the trace, incrementally, into one lane per controller (operator replica +
// controller name): the records that controller's loop shows. LoopTokens is a pure function of a
// lane and the animation position `played` (how many of the lane's records have finished their
// trip): the same trace and position give the same tokens, natively and in the page.
// AdvanceLoopClock moves `played` by a frame's real time (the page's only clock input).
// Single-threaded; reads the trace only.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "core/base/time.h"
#include "core/sim/trace.h"

namespace lab {

// LoopEdge is the edge a record's token travels.
enum class LoopEdge {
  kIncoming,       // a write from outside this controller (you, a kubelet, another controller)
                   // arriving at the API server (api.request)
  kWatch,          // API server → informer cache (watch.event)
  kPop,            // inside the informer: its DeltaFIFO hands a key's deltas to the indexer and
                   // the handlers (informer.pop)
  kPredicate,      // informer → predicates (predicate.eval)
  kHandler,        // predicates → event handler (handler.enqueue after its predicates passed)
  kHandlerDirect,  // informer → event handler on a watch without predicates (Owns(Pod))
  kEnqueue,        // event handler → workqueue (queue.add)
  kTimerFired,     // waiting → ready inside the workqueue (a delayed add came due: queue.add)
  kGet,            // workqueue → a worker (queue.get)
  kStart,          // worker → Reconcile (reconcile.start)
  kWrite,          // Reconcile → client → API server (an api.request the reconcile made)
  kEnd,            // Reconcile → worker (reconcile.end: the result)
  kRequeue,        // worker → workqueue, waiting (queue.add_after, queue.add_rate_limited)
  kDone,           // worker → workqueue (queue.forget, queue.done)
};
const char* LoopEdgeName(LoopEdge edge);

// LoopFate is how a token's trip ends.
enum class LoopFate {
  kArrives,   // it reaches the end of its edge
  kRejected,  // a predicate returned false: it stops at the predicates, nothing is enqueued
  kMerged,    // a coalesced add: it merges into the key's entry already in the queue
  kDirty,     // added while its key is being processed: the key is marked dirty
};

struct LoopToken {
  int64_t seq = 0;
  std::string_view type;  // the record's type (pooled: lives as long as the process)
  LoopEdge edge = LoopEdge::kWatch;
  LoopFate fate = LoopFate::kArrives;
  float progress = 0;  // 0 → 1 along the edge (eased); 1 once arrived
  float alpha = 1;     // 1 while travelling, fading to 0 after arrival
  bool moving = false;
  std::string key;     // the workqueue key, when the record has one
  int worker = -1;     // queue.get, reconcile.*: the worker slot
  std::string label;   // a few words drawn beside the token
};

// LoopLaneId names one controller of one operator process.
struct LoopLaneId {
  std::string replica;     // the operator Pod ("" outside an operator)
  std::string controller;  // "raycluster"
  bool operator<(const LoopLaneId& o) const {
    return std::tie(replica, controller) < std::tie(o.replica, o.controller);
  }
};

// LoopLane is what one controller's loop shows.
struct LoopLane {
  std::vector<int64_t> seqs;  // the records its loop animates, in seq order
  std::set<std::string> kinds;              // kinds its handlers and predicates have seen
  std::map<std::string, std::string> predicates;  // watch ("For(RayCluster)") -> its predicate
  std::map<std::string, int64_t> last_add;  // key -> the queue.add that last readied it
  std::map<std::string, int64_t> last_delay;  // key -> its last queue.add_after / add_rate_limited
  std::map<int, int64_t> worker_start;      // worker -> its last reconcile.start
  std::map<int, bool> worker_busy;          // worker -> started and not yet ended
};

class LoopIndex {
 public:
  // Update reads what the trace gained since the last call; a different or shorter trace (a
  // reset, a rewind, another branch) is read again from its start.
  void Update(const sim::Trace& trace);
  const LoopLane* Find(const LoopLaneId& id) const;
  const std::map<LoopLaneId, LoopLane>& lanes() const { return lanes_; }
  // LatestActive names the lane whose controller record is newest (a fresh page's first choice).
  const LoopLaneId* LatestActive() const;
  // latest_seq is the seq of that newest controller record (0 before any).
  int64_t latest_seq() const { return latest_seq_; }

 private:
  void Ingest(const sim::TraceLog& events, const sim::TraceEvent& e);
  void Reset();

  const sim::Trace* trace_ = nullptr;
  int64_t read_ = 0;              // records read
  base::SimTime last_t_ = 0;      // the last read record's time and type: a replaced trace that
  std::string_view last_type_;    // happens to have the same address and length differs here
  std::map<LoopLaneId, LoopLane> lanes_;
  LoopLaneId latest_;
  int64_t latest_seq_ = 0;
};

// kLoopLinger is how many later records' trips a token stays visible after arriving (twice that
// when a predicate stopped it).
constexpr double kLoopLinger = 3.0;

// AdvanceLoopClock moves the animation position by dt_seconds of real time at `speed` (1 =
// normal): about two and a half trips a second, faster when records pile up, never more than
// 40 behind the newest record. Returns the new position, at most `records`.
double AdvanceLoopClock(double played, size_t records, double dt_seconds, double speed);

// LoopTokens lists the tokens visible at position `played` of a lane: the one travelling and
// those that recently arrived, oldest first.
std::vector<LoopToken> LoopTokens(const sim::Trace& trace, const LoopLane& lane, double played);

// LoopTokenFor describes the token of one record of a lane (edge, fate, key, label) at `progress`.
LoopToken LoopTokenFor(const sim::Trace& trace, int64_t seq, float progress);

}  // namespace lab
