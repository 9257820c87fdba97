#pragma once
// Tracer: emits the controller-side trace records (predicate.eval, handler.enqueue, queue.*,
// reconcile.*) with the controller's name and, for an operator, its replica (Pod name).
// No Go counterpart: upstream logs and metrics at these points; the sandbox records them so a
// learner can follow watch event → handler → predicate → enqueue → reconcile.
// Single-threaded; `t` comes from the trace's clock.

#include <cstdint>
#include <string>

#include "core/sim/trace.h"

namespace source {

struct Tracer {
  sim::Trace* trace = nullptr;
  std::string controller;  // lower-case controller name: "inferenceservice"
  std::string replica;     // the operator Pod's name, "" outside an operator

  // Emit appends a record; `fields` must end with "cause"; replica is appended when set.
  int64_t Emit(const std::string& type, sim::TraceFields fields) const {
    if (trace == nullptr) return 0;
    if (!replica.empty()) fields.emplace_back("replica", replica);
    return trace->Emit(type, std::move(fields));
  }
  int64_t current_cause() const { return trace == nullptr ? 0 : trace->current_cause(); }
};

}  // namespace source
