#pragma once
// PodInfo: what the scheduler's filters and scores read from the Pod being scheduled, parsed
// once per scheduling attempt instead of once per node (requests, tolerations, nodeSelector).
// Mirrors: kubernetes pkg/scheduler/framework/types.go PodInfo and the PreFilter steps that
// compute per-Pod state once (noderesources/fit.go computePodResourceRequest).
// Simplified: no affinity terms; an unparsable field reads as absent, as the filters did.
// Single-threaded; a PodInfo is a snapshot of one Pod object.

#include <string>
#include <utility>
#include <vector>

#include "core/api/object.h"
#include "core/world/scheduler/node_info.h"
#include "core/world/scheduler/resources.h"

namespace world {

// Toleration is one spec.tolerations entry; absent or non-string fields read as "".
struct Toleration {
  std::string key;
  std::string op;  // operator; "" means Equal
  std::string value;
  std::string effect;
};

// NodeSelectorTerm is one spec.nodeSelector entry; a non-string value matches no node.
struct NodeSelectorTerm {
  std::string key;
  bool value_is_string = false;
  std::string value;
};

// PodInfo is one Pod, pre-parsed for filtering and scoring.
struct PodInfo {
  Resources requests;          // PodRequests
  Resources nonzero_requests;  // NonzeroPodRequests
  std::vector<Toleration> tolerations;  // spec.tolerations' object entries, in order
  std::vector<NodeSelectorTerm> node_selector;  // spec.nodeSelector (when an object)
};

// BuildPodInfo parses pod.
PodInfo BuildPodInfo(const api::Json& pod);

// Tolerates mirrors core/v1 helper ToleratesTaint (operator Exists/Equal, empty key = all keys,
// empty effect = all effects): whether some toleration of pod tolerates taint.
bool Tolerates(const PodInfo& pod, const Taint& taint);

// UntoleratedTaint returns the first NoSchedule/NoExecute taint of node the Pod does not
// tolerate (tainttoleration plugin), rendered as "{key: value}", or "". A node whose Ready
// condition is not True counts as carrying the not-ready/unreachable NoSchedule taint.
std::string UntoleratedTaint(const PodInfo& pod, const NodeInfo& node);

// MatchesNodeSelector checks spec.nodeSelector against the node's labels.
bool MatchesNodeSelector(const PodInfo& pod, const NodeInfo& node);

}  // namespace world
