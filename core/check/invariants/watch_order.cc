#include "core/check/invariants/watch_order.h"

#include <algorithm>

namespace check {

namespace {

std::string Describe(const WatchLog& log) {
  return "watch " + std::to_string(log.id) + " (" + log.watcher + ", " + log.kind +
         (log.namespace_.empty() ? "" : " in " + log.namespace_) +
         (log.label_selector.empty() ? "" : " -l " + log.label_selector) + ")";
}

}  // namespace

void WatchOrder::Check(const State& state, std::vector<Violation>* out) {
  for (const auto& [id, log] : state.recorder->watches()) {
    size_t& from = checked_[id];
    for (size_t i = from; i < log.delivered.size(); ++i) {
      const WatchDelivery& got = log.delivered[i];
      if (i > 0 && got.resource_version <= log.delivered[i - 1].resource_version) {
        out->push_back({name(), state.step,
                        Describe(log) + " received " + got.ToString() + " after " +
                            log.delivered[i - 1].ToString() +
                            ": resourceVersion did not increase"});
      }
      if (i >= log.queued.size()) {
        out->push_back({name(), state.step,
                        Describe(log) + " received " + got.ToString() +
                            " that was never queued to it (" + std::to_string(log.queued.size()) +
                            " queued, this is delivery " + std::to_string(i + 1) + ")"});
      } else if (!(log.queued[i] == got)) {
        out->push_back({name(), state.step,
                        Describe(log) + " delivery " + std::to_string(i + 1) + " is " +
                            got.ToString() + " but " + log.queued[i].ToString() +
                            " was queued there"});
      }
    }
    from = log.delivered.size();
  }
}

void WatchComplete::Check(const State& state, std::vector<Violation>* out) {
  for (const auto& [id, log] : state.recorder->watches()) {
    if (!log.expected_known) continue;
    size_t& from = checked_[id];
    const size_t n = std::max(log.expected.size(), log.queued.size());
    for (size_t i = from; i < n; ++i) {
      if (i >= log.queued.size()) {
        out->push_back({name(), state.step,
                        Describe(log) + " was never queued " + log.expected[i].ToString()});
      } else if (i >= log.expected.size()) {
        out->push_back({name(), state.step,
                        Describe(log) + " was queued " + log.queued[i].ToString() +
                            ", which is not a change in its scope"});
      } else if (!(log.expected[i] == log.queued[i])) {
        out->push_back({name(), state.step,
                        Describe(log) + " event " + std::to_string(i + 1) + " is " +
                            log.queued[i].ToString() + ", expected " + log.expected[i].ToString()});
      }
    }
    from = n;
  }
}

}  // namespace check
