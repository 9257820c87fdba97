#pragma once
// QueueUnique: a workqueue never holds a key twice — not twice among the ready keys, not twice
// among the waiting ones, and (classic queue) never ready while it is being processed; on the
// priority queue a ready key that is being processed is locked, and a key is ready or waiting,
// never both.
// Mirrors client-go util/workqueue/queue.go's field invariants (everything in queue is in dirty
// and not in processing) and controller-runtime pkg/controller/priorityqueue (one item per key).
// Single-threaded.

#include "core/check/invariant.h"

namespace check {

class QueueUnique : public Invariant {
 public:
  const char* name() const override { return "queue-unique"; }
  const char* statement() const override {
    return "a workqueue never holds a key twice and never hands out a key that is being "
           "processed";
  }
  void Check(const State& state, std::vector<Violation>* out) override;
};

// OneWorkerPerKey: no key is reconciled by two workers of one controller at once, and every
// busy worker's key is in its queue's processing set.
// Mirrors client-go's "stingy" property (util/workqueue/doc.go) that controller-runtime's
// processNextWorkItem relies on.
class OneWorkerPerKey : public Invariant {
 public:
  const char* name() const override { return "one-worker-per-key"; }
  const char* statement() const override {
    return "no key is reconciled by two workers at once";
  }
  void Check(const State& state, std::vector<Violation>* out) override;
};

}  // namespace check
