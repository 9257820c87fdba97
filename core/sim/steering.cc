#include "core/sim/steering.h"

#include <set>
#include <utility>

namespace sim {
namespace {

// WorkerSlot returns "<controller> worker N" for a label "<controller> worker N …", else "".
std::string WorkerSlot(const std::string& label) {
  const size_t at = label.find(" worker ");
  if (at == std::string::npos) return "";
  return label.substr(0, label.find(' ', at + 8));
}

// ReplicaOf returns "<pod>" for a delivery to an operator's informer ("watch deliver
// <pod>/<kind>-informer"; a manager's cache is named after its Pod), else "".
std::string ReplicaOf(const std::string& label) {
  const std::string prefix = "watch deliver ";
  if (label.rfind(prefix, 0) != 0) return "";
  const size_t slash = label.find('/', prefix.size());
  return slash == std::string::npos ? "" : label.substr(prefix.size(), slash - prefix.size());
}

}  // namespace

const char* ChoiceKindName(ChoiceKind kind) {
  switch (kind) {
    case ChoiceKind::kOrder:
      return "order";
    case ChoiceKind::kWorker:
      return "worker";
    case ChoiceKind::kReplica:
      return "replica";
    case ChoiceKind::kLag:
      return "lag";
  }
  return "order";
}

void Steering::Pin(std::map<size_t, size_t> pins, base::Duration lag) {
  active_ = true;
  lag_ = lag;
  pins_ = std::move(pins);
  points_.clear();
  mismatches_ = 0;
}

size_t Steering::Decide(ChoiceKind kind, base::SimTime at, std::vector<std::string> options) {
  ChoicePoint point;
  point.kind = kind;
  point.at = at;
  point.options = std::move(options);
  point.fingerprint = fingerprint_ ? fingerprint_() : 0;
  auto pin = pins_.find(points_.size());
  if (pin != pins_.end()) {
    if (pin->second < point.options.size()) {
      point.chosen = pin->second;
    } else {
      ++mismatches_;
    }
  }
  points_.push_back(std::move(point));
  return points_.back().chosen;
}

ChoiceKind ClassifyOrder(const std::vector<PendingEvent>& due) {
  std::map<std::string, std::set<std::string>> workers;  // controller -> distinct labels
  std::set<std::string> replicas;
  for (const PendingEvent& e : due) {
    const std::string slot = WorkerSlot(e.label);
    if (!slot.empty()) workers[slot.substr(0, slot.find(" worker "))].insert(slot);
    const std::string replica = ReplicaOf(e.label);
    if (!replica.empty()) replicas.insert(replica);
  }
  for (const auto& [controller, slots] : workers) {
    if (slots.size() >= 2) return ChoiceKind::kWorker;
  }
  if (replicas.size() >= 2) return ChoiceKind::kReplica;
  return ChoiceKind::kOrder;
}

}  // namespace sim
