#pragma once
// Tracer: emits the controller-side trace records (predicate.eval, handler.enqueue, queue.*,
// reconcile.*) with the controller's name and, for an operator, its replica (Pod name).
// No Go counterpart: upstream logs and metrics at these points; the sandbox records them so a
// learner can follow watch event → handler → predicate → enqueue → reconcile.
// Single-threaded; `t` comes from the trace's clock.

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>

#include "core/base/assert.h"
#include "core/sim/trace.h"

namespace source {

// LastAdds maps a key to the queue.add record that last readied it: the controller's queue.get
// names that record as its cause. Owned by the controller; its sources write it through their
// copies of its Tracer.
using LastAdds = std::map<std::string, int64_t>;

struct Tracer {
  sim::Trace* trace = nullptr;
  std::string controller;         // lower-case controller name: "inferenceservice"
  std::string replica;            // the operator Pod's name, "" outside an operator
  LastAdds* last_adds = nullptr;  // null: nobody asks which add readied a key

  // Emit appends a record; `fields` must end with "cause"; replica is appended when set.
  int64_t Emit(std::string_view type, std::initializer_list<sim::TraceArg> fields) const {
    if (trace == nullptr) return 0;
    if (replica.empty()) return trace->Emit(type, fields);
    constexpr size_t kMost = 15;  // the longest list (reconcile.end, predicate.eval) has ~7
    RLAB_ASSERT(fields.size() <= kMost, "controller trace record with too many fields");
    sim::TraceArg with_replica[kMost + 1];
    std::copy(fields.begin(), fields.end(), with_replica);
    with_replica[fields.size()] = sim::TraceArg("replica", replica);
    return trace->Emit(type, with_replica, fields.size() + 1);
  }
  int64_t current_cause() const { return trace == nullptr ? 0 : trace->current_cause(); }

  // EmitQueueAdd records a queue.add and remembers it for the key: always when `readies` (a
  // delayed add that fired), else when it queued the key or none was remembered yet (a coalesced
  // add leaves the earlier record as the one that readied the key), and never an add that left
  // no record (a muted trace returns seq 0).
  int64_t EmitQueueAdd(const std::string& key, std::string_view outcome, int priority,
                       int64_t cause, bool readies) const {
    const int64_t seq = Emit("queue.add", {{"controller", controller},
                                           {"key", key},
                                           {"outcome", outcome},
                                           {"priority", priority},
                                           {"cause", cause}});
    if (last_adds != nullptr &&
        (readies || (seq != 0 && (outcome == "queued" || last_adds->count(key) == 0)))) {
      (*last_adds)[key] = seq;
    }
    return seq;
  }
};

}  // namespace source
