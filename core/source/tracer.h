#pragma once
// Tracer: emits the controller-side trace records (predicate.eval, handler.enqueue, queue.*,
// reconcile.*) with the controller's name and, for an operator, its replica (Pod name).
// No Go counterpart: upstream logs and metrics at these points; the sandbox records them so a
// learner can follow watch event → handler → predicate → enqueue → reconcile.
// Single-threaded; `t` comes from the trace's clock.

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "core/base/assert.h"
#include "core/sim/trace.h"

namespace source {

struct Tracer {
  sim::Trace* trace = nullptr;
  std::string controller;  // lower-case controller name: "inferenceservice"
  std::string replica;     // the operator Pod's name, "" outside an operator

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
};

}  // namespace source
