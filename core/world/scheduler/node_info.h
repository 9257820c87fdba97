#pragma once
// NodeInfo: what the scheduler's filters and scores read from one Node, parsed once when the
// Node changes instead of once per Pod and node (allocatable, taints, labels, readiness).
// Mirrors: kubernetes pkg/scheduler/framework/types.go NodeInfo and backend/cache/snapshot.go
// (the cache refreshes only the nodes whose generation changed at the start of a cycle).
// Simplified: the requested sums live in the scheduler's own map (a pointer here), no image
// states, ports or volume counts.
// Single-threaded; a NodeInfo is valid while `node` is the cached object it was built from.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/api/object.h"
#include "core/world/scheduler/resources.h"

namespace world {

// Taint is one spec.taints entry; absent or non-string fields read as "".
struct Taint {
  std::string key;
  std::string value;
  std::string effect;
};

// NodeReady is the Node's Ready condition status, as the TaintNodesByCondition taints see it.
enum class NodeReady { kTrue, kFalse, kUnknown };

// NodeInfo is one Node, pre-parsed for filtering and scoring.
struct NodeInfo {
  api::ObjectPtr node;  // Invariant: the object the fields below were read from
  bool unschedulable = false;  // spec.unschedulable == true
  // scheduling_taints are the NoSchedule/NoExecute taints, in spec order (the only effects
  // the tainttoleration filter reads).
  std::vector<Taint> scheduling_taints;
  NodeReady ready = NodeReady::kUnknown;
  std::map<std::string, std::string> labels;
  Resources allocatable;
  // requested points at the scheduler's (plain, nonzero) sums for this node name.
  const std::pair<Resources, Resources>* requested = nullptr;
  // nothing_to_tolerate: no scheduling taint and Ready, so UntoleratedTaint is "" for any Pod.
  // Every Pod checks up to every node: most nodes skip the check and its string.
  bool nothing_to_tolerate = false;
  // ScoreMemo is the node's last score and the requested sums (the node's nonzero sums plus the
  // Pod's) it was computed for. Every Pod scores up to every node, and between two Pods of the
  // same size only the node the first was bound to has new sums: the others reuse their score
  // instead of dividing again.
  struct ScoreMemo {
    bool set = false;
    int64_t cpu_milli = 0;
    int64_t memory = 0;
    int64_t score = 0;
  };
  ScoreMemo score_memo;
};

// BuildNodeInfo parses node (non-null); requested is left null for the caller.
NodeInfo BuildNodeInfo(const api::ObjectPtr& node);

}  // namespace world
