#include "core/check/invariants/queue_unique.h"

#include <algorithm>
#include <map>
#include <set>

namespace check {

void QueueUnique::Check(const State& state, std::vector<Violation>* out) {
  for (const QueueState& q : state.queues) {
    const workqueue::QueueSnapshot& s = q.snapshot;
    const std::set<std::string> processing(s.processing.begin(), s.processing.end());
    std::set<std::string> ready;
    for (const workqueue::ReadyEntry& e : s.ready) {
      if (!ready.insert(e.key).second) {
        out->push_back({name(), state.step, q.controller + " queue holds " + e.key +
                                                " twice among its ready keys"});
      }
      if (processing.count(e.key) != 0 && !(s.priority_queue && e.locked)) {
        out->push_back({name(), state.step,
                        q.controller + " queue has " + e.key +
                            " ready while it is being processed (Get would hand it out twice)"});
      }
    }
    std::set<std::string> waiting;
    for (const workqueue::WaitingEntry& e : s.waiting) {
      if (!waiting.insert(e.key).second) {
        out->push_back({name(), state.step, q.controller + " queue holds " + e.key +
                                                " twice among its waiting keys"});
      }
      if (s.priority_queue && ready.count(e.key) != 0) {
        out->push_back({name(), state.step,
                        q.controller + " priority queue holds " + e.key + " ready and waiting"});
      }
    }
  }
}

void OneWorkerPerKey::Check(const State& state, std::vector<Violation>* out) {
  std::map<std::string, const QueueState*> queues;
  for (const QueueState& q : state.queues) queues[q.controller] = &q;
  for (const WorkerSet& set : state.workers) {
    std::map<std::string, int> holder;
    for (const controller::WorkerState& w : set.workers) {
      if (w.key.empty()) continue;
      auto [it, fresh] = holder.emplace(w.key, w.worker);
      if (!fresh) {
        out->push_back({name(), state.step,
                        set.controller + " workers " + std::to_string(it->second) + " and " +
                            std::to_string(w.worker) + " both reconcile " + w.key});
      }
      auto q = queues.find(set.controller);
      if (q == queues.end()) continue;
      const auto& processing = q->second->snapshot.processing;
      if (std::find(processing.begin(), processing.end(), w.key) == processing.end()) {
        out->push_back({name(), state.step,
                        set.controller + " worker " + std::to_string(w.worker) + " reconciles " +
                            w.key + " but the queue does not count it as processing"});
      }
    }
  }
}

}  // namespace check
