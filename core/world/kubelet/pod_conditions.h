#pragma once
// The kubelet's part of a Pod's status.conditions: its own conditions set on the stored list the
// way UpdatePodCondition sets each one, then listed in the kubelet's order, followed by every
// other entry (PodScheduled when present, DisruptionTarget, a user's own) in the order it had.
// Mirrors: kubernetes pkg/kubelet/kubelet_pods.go generateAPIPodStatus (the conditions it owns)
// and pkg/api/v1/pod/util.go UpdatePodCondition (lastTransitionTime moves only with the status).
// Built in one pass over the stored list: a status write is three of a Pod's five writes, so
// this runs for every Pod several times.
// Single-threaded; no time except the stamp passed in.

#include <cstddef>
#include <string>
#include <string_view>

#include "core/api/object.h"

namespace world {

// KubeletCondition is one condition the kubelet sets: its type, whether it holds, and the reason
// and message it carries (omitted when empty).
struct KubeletCondition {
  std::string_view type;
  bool ok = false;
  std::string_view reason;
  std::string_view message;
};

// KubeletConditionOrder is where the kubelet lists `type` (PodReadyToStartContainers,
// Initialized, Ready, ContainersReady, PodScheduled: 0..4), or 5 for any other type.
size_t KubeletConditionOrder(std::string_view type);

// KubeletConditions returns the conditions to write: each of `set` (`count` of them, of distinct
// kubelet types) replaces the first stored entry of its type, or is added when there is none;
// its lastTransitionTime is the stored one when the status is unchanged and `stamp` otherwise.
// Entries are then ordered by KubeletConditionOrder, ties in stored order (a replaced entry keeps
// its place). `stored` is status.conditions as read (null, or anything not an array, is empty);
// entries that are not objects are kept, last. Kept and restated entries view the stored
// entries' members (api::ShareStored), so `stored` must not be written in place afterwards.
api::Json KubeletConditions(const api::Json& stored, const KubeletCondition* set, size_t count,
                            const std::string& stamp);

// KubeletConditionsUnchanged is true exactly when KubeletConditions(stored, set, count, stamp)
// would give `stored` back, whatever the stamp: every one of `set` restates its stored entry and
// the stored list is already in the kubelet's order. Then a status write leaves the conditions
// out (a merge patch keeps what it does not name), as the kubelet's own patch, a diff of the
// old and new status, does. Answered without building anything.
bool KubeletConditionsUnchanged(const api::Json& stored, const KubeletCondition* set,
                                size_t count);

}  // namespace world
