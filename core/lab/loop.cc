// Loop: trace records as tokens on one controller's pipeline (see loop.h).

#include "core/lab/loop.h"

#include <algorithm>
#include <cmath>

namespace lab {
namespace {

using Event = sim::TraceEvent;

const Event& LoopAt(const sim::TraceLog& events, int64_t seq) {
  return events[static_cast<size_t>(seq - 1)];
}

int64_t LoopCauseOf(const Event& e) {
  const auto c = e.Field("cause");
  return c && c->is_int ? c->i : 0;
}

bool LoopIsControllerType(std::string_view type) {
  return type == "predicate.eval" || type == "handler.enqueue" || type.rfind("queue.", 0) == 0 ||
         type.rfind("reconcile.", 0) == 0;
}

// LoopKindOf reads the kind of an `object` field ("Pod/default/x" → "Pod").
std::string LoopKindOf(std::string_view object) {
  return std::string(object.substr(0, object.find('/')));
}

// LoopAddSorted adds seq to the lane's records unless it is there already (it usually belongs
// at the end: a cause is read just before its consequences).
void LoopAddSorted(LoopLane& lane, int64_t seq) {
  auto& s = lane.seqs;
  if (s.empty() || s.back() < seq) {
    s.push_back(seq);
    return;
  }
  auto at = std::lower_bound(s.begin(), s.end(), seq);
  if (at == s.end() || *at != seq) s.insert(at, seq);
}

// LoopShortUser names who made a request, in as few characters as a token label allows.
std::string LoopShortUser(std::string_view user) {
  if (user == "kubernetes-admin") return "you";
  if (user.rfind("system:node:", 0) == 0) return "kubelet";
  if (user.rfind("system:serviceaccount:", 0) == 0) {
    return std::string(user.substr(user.rfind(':') + 1));
  }
  if (user.rfind("system:", 0) == 0) return std::string(user.substr(7));
  return std::string(user);
}

float LoopEase(double t) {
  const double c = std::clamp(t, 0.0, 1.0);
  return static_cast<float>(c * c * (3 - 2 * c));
}

}  // namespace

const char* LoopEdgeName(LoopEdge edge) {
  switch (edge) {
    case LoopEdge::kIncoming: return "incoming";
    case LoopEdge::kWatch: return "watch";
    case LoopEdge::kPop: return "pop";
    case LoopEdge::kPredicate: return "predicate";
    case LoopEdge::kHandler: return "handler";
    case LoopEdge::kHandlerDirect: return "handler-direct";
    case LoopEdge::kEnqueue: return "enqueue";
    case LoopEdge::kTimerFired: return "timer-fired";
    case LoopEdge::kGet: return "get";
    case LoopEdge::kStart: return "start";
    case LoopEdge::kWrite: return "write";
    case LoopEdge::kEnd: return "end";
    case LoopEdge::kRequeue: return "requeue";
    case LoopEdge::kDone: return "done";
  }
  return "";
}

void LoopIndex::Reset() {
  read_ = 0;
  last_t_ = 0;
  last_type_ = {};
  lanes_.clear();
  latest_ = {};
  latest_seq_ = 0;
}

void LoopIndex::Update(const sim::Trace& trace) {
  const sim::TraceLog& events = trace.events();
  const int64_t size = static_cast<int64_t>(events.size());
  bool same = &trace == trace_ && size >= read_;
  if (same && read_ > 0) {
    const Event& last = LoopAt(events, read_);
    same = last.t == last_t_ && last.type == last_type_;
  }
  if (!same) Reset();
  trace_ = &trace;
  for (int64_t s = read_ + 1; s <= size; ++s) Ingest(events, LoopAt(events, s));
  read_ = size;
  if (size > 0) {
    last_t_ = LoopAt(events, size).t;
    last_type_ = LoopAt(events, size).type;
  }
}

void LoopIndex::Ingest(const sim::TraceLog& events, const Event& e) {
  const std::string_view type = e.type;
  const int64_t cause = LoopCauseOf(e);
  const std::string_view controller = e.FieldText("controller");
  if (!controller.empty() && LoopIsControllerType(type)) {
    const LoopLaneId id{std::string(e.FieldText("replica")), std::string(controller)};
    LoopLane& lane = lanes_[id];
    lane.seqs.push_back(e.seq);
    latest_ = id;
    latest_seq_ = e.seq;
    const std::string key(e.FieldText("key"));
    if (type == "predicate.eval" || type == "handler.enqueue") {
      lane.kinds.insert(LoopKindOf(e.FieldText("object")));
      if (type == "predicate.eval") {
        lane.predicates[std::string(e.FieldText("watch"))] = std::string(e.FieldText("predicate"));
      }
      // The watch event that led here, and the write that led to it, belong to this loop too.
      int64_t c = cause;
      if (c > 0 && c < e.seq && LoopAt(events, c).type == "predicate.eval") c = LoopCauseOf(LoopAt(events, c));
      if (c > 0 && c < e.seq && LoopAt(events, c).type == "watch.event") {
        LoopAddSorted(lane, c);
        // The DeltaFIFO's pop of that event follows it directly, caused by it.
        if (c + 1 < e.seq && LoopAt(events, c + 1).type == "informer.pop" &&
            LoopCauseOf(LoopAt(events, c + 1)) == c) {
          LoopAddSorted(lane, c + 1);
        }
        const int64_t w = LoopCauseOf(LoopAt(events, c));
        if (w > 0 && w < c && LoopAt(events, w).type == "api.request") LoopAddSorted(lane, w);
      }
    } else if (type == "queue.add") {
      lane.last_add[key] = e.seq;
    } else if (type == "queue.add_after" || type == "queue.add_rate_limited") {
      lane.last_delay[key] = e.seq;
    } else if (type == "reconcile.start" || type == "reconcile.end") {
      const auto w = e.Field("worker");
      const int worker = w && w->is_int ? static_cast<int>(w->i) : 0;
      if (type == "reconcile.start") lane.worker_start[worker] = e.seq;
      lane.worker_busy[worker] = type == "reconcile.start";
    }
    return;
  }
  if (type == "api.request") {
    // A request a reconcile made: that controller's client write.
    if (cause <= 0 || cause >= e.seq) return;
    const Event& c = LoopAt(events, cause);
    if (c.type != "reconcile.start") return;
    const LoopLaneId id{std::string(c.FieldText("replica")), std::string(c.FieldText("controller"))};
    auto lane = lanes_.find(id);
    if (lane != lanes_.end()) LoopAddSorted(lane->second, e.seq);
    return;
  }
  if (type == "watch.event" || type == "informer.pop") {
    // Delivered to an operator's informer (and popped from its DeltaFIFO): every controller of
    // that process watching the kind sees it (its handler may then find nothing to enqueue).
    const std::string_view watcher = e.FieldText(type == "watch.event" ? "watcher" : "informer");
    const std::string_view replica = watcher.substr(0, watcher.find('/'));
    const std::string kind(e.FieldText("kind"));
    for (auto& [id, lane] : lanes_) {
      if (id.replica != replica || lane.kinds.count(kind) == 0) continue;
      LoopAddSorted(lane, e.seq);
      if (cause > 0 && cause < e.seq && LoopAt(events, cause).type == "api.request") {
        LoopAddSorted(lane, cause);
      }
    }
  }
}

const LoopLane* LoopIndex::Find(const LoopLaneId& id) const {
  auto it = lanes_.find(id);
  return it == lanes_.end() ? nullptr : &it->second;
}

const LoopLaneId* LoopIndex::LatestActive() const {
  return latest_seq_ > 0 ? &latest_ : nullptr;
}

double AdvanceLoopClock(double played, size_t records, double dt_seconds, double speed) {
  const double n = static_cast<double>(records);
  if (played > n) return n;
  if (!(dt_seconds > 0) || !(speed > 0)) return played;
  constexpr double kMostBehind = 40;
  if (n - played > kMostBehind) played = n - kMostBehind;
  const double backlog = n - played;
  const double rate = 2.5 * speed * std::max(1.0, backlog / 3.0);  // trips per second
  return std::min(n, played + std::min(dt_seconds, 0.25) * rate);
}

LoopToken LoopTokenFor(const sim::Trace& trace, int64_t seq, float progress) {
  const sim::TraceLog& events = trace.events();
  const Event& e = LoopAt(events, seq);
  LoopToken t;
  t.seq = seq;
  t.type = e.type;
  t.progress = progress;
  t.key = std::string(e.FieldText("key"));
  const auto w = e.Field("worker");
  if (w && w->is_int) t.worker = static_cast<int>(w->i);
  const int64_t cause = LoopCauseOf(e);
  const std::string_view cause_type =
      cause > 0 && cause < seq ? LoopAt(events, cause).type : std::string_view();
  const std::string_view type = e.type;
  if (type == "api.request") {
    t.edge = cause_type == "reconcile.start" ? LoopEdge::kWrite : LoopEdge::kIncoming;
    const std::string sub(e.FieldText("subresource"));
    t.label = (t.edge == LoopEdge::kIncoming ? LoopShortUser(e.FieldText("user")) + ": " : "") +
              std::string(e.FieldText("verb")) + " " + std::string(e.FieldText("kind")) +
              (sub.empty() ? "" : "/" + sub);
  } else if (type == "watch.event") {
    t.edge = LoopEdge::kWatch;
    t.label = std::string(e.FieldText("eventType")) + " " + std::string(e.FieldText("kind")) + " " +
              std::string(e.FieldText("name"));
  } else if (type == "informer.pop") {
    t.edge = LoopEdge::kPop;
    t.key = "";  // an informer's key names an object, not a workqueue entry
    t.label = "Pop " + std::string(e.FieldText("deltas")) + " " + std::string(e.FieldText("kind"));
  } else if (type == "predicate.eval") {
    t.edge = LoopEdge::kPredicate;
    const bool passed = e.FieldString("result") == "true";
    t.fate = passed ? LoopFate::kArrives : LoopFate::kRejected;
    t.label = std::string(e.FieldText("eventType")) + (passed ? ": passes" : ": filtered out");
  } else if (type == "handler.enqueue") {
    t.edge = cause_type == "predicate.eval" ? LoopEdge::kHandler : LoopEdge::kHandlerDirect;
    t.label = t.key;
  } else if (type == "queue.add") {
    const bool timer = cause_type == "queue.add_after" || cause_type == "queue.add_rate_limited";
    t.edge = timer ? LoopEdge::kTimerFired : LoopEdge::kEnqueue;
    const std::string_view outcome = e.FieldText("outcome");
    t.fate = outcome == "coalesced" ? LoopFate::kMerged
             : outcome == "dirty"   ? LoopFate::kDirty
                                    : LoopFate::kArrives;
    t.label = t.key + " (" + std::string(outcome) + ")";
  } else if (type == "queue.get") {
    t.edge = LoopEdge::kGet;
    t.label = t.key;
  } else if (type == "reconcile.start") {
    t.edge = LoopEdge::kStart;
    t.label = t.key;
  } else if (type == "reconcile.end") {
    t.edge = LoopEdge::kEnd;
    const std::string result(e.FieldText("result"));
    t.label = result == "requeue_after"
                  ? "RequeueAfter " + base::FormatDuration(e.Field("requeueAfterMs").value_or(
                                                               sim::TraceFieldValue{}).i *
                                                           base::kMillisecond)
                  : result;
  } else if (type == "queue.add_after" || type == "queue.add_rate_limited") {
    t.edge = LoopEdge::kRequeue;
    const auto d = e.Field("delayMs");
    const std::string delay = base::FormatDuration((d && d->is_int ? d->i : 0) * base::kMillisecond);
    t.label = type == "queue.add_after" ? "AddAfter " + delay : "AddRateLimited " + delay;
  } else {
    t.edge = LoopEdge::kDone;
    t.label = type == "queue.done" ? "Done" : "Forget";
  }
  return t;
}

std::vector<LoopToken> LoopTokens(const sim::Trace& trace, const LoopLane& lane, double played) {
  std::vector<LoopToken> out;
  const double n = static_cast<double>(lane.seqs.size());
  played = std::clamp(played, 0.0, n);
  // Visible: the record travelling (index floor(played)) and those that arrived within the
  // linger window (rejected tokens stay twice as long).
  const int64_t last = std::min<int64_t>(static_cast<int64_t>(played), static_cast<int64_t>(n) - 1);
  const int64_t first = std::max<int64_t>(0, last - static_cast<int64_t>(2 * kLoopLinger) - 1);
  for (int64_t i = first; i <= last; ++i) {
    const double since = played - static_cast<double>(i);  // 0..1 travelling, then arrived
    if (since <= 0) continue;
    LoopToken t = LoopTokenFor(trace, lane.seqs[static_cast<size_t>(i)], LoopEase(since));
    t.moving = since < 1;
    if (!t.moving) {
      const double linger = t.fate == LoopFate::kRejected ? 2 * kLoopLinger : kLoopLinger;
      t.alpha = static_cast<float>(1.0 - (since - 1.0) / linger);
      if (t.alpha <= 0.02f) continue;
    }
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace lab
