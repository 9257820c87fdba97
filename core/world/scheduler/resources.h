#pragma once
// Resource quantities and a Pod's requests, as the scheduler's NodeResourcesFit plugin sees them.
// Mirrors: apimachinery pkg/api/resource/quantity.go (ParseQuantity, MilliValue, Value) and
// kubernetes pkg/scheduler/util/pod_resources.go (GetNonzeroRequests),
// pkg/api/v1/resource/helpers.go (PodRequests: sum of containers, max with init containers).
// Simplified: cpu, memory and the pod count only; no extended resources, overhead or sidecars.
// Single-threaded; integer arithmetic only (128-bit intermediates, overflow is an error).

#include <cstdint>
#include <string>
#include <utility>

#include "core/api/object.h"
#include "core/base/status.h"

namespace world {

// ParseQuantityMilli parses "500m", "2", "1.5", "32Gi", "512Mi", "1G", "1e3" into milli-units
// (cpu "500m" -> 500, memory "1Ki" -> 1024000), rounding up as Quantity.MilliValue does.
// kInvalid for anything else (quantities must match the regular expression in quantity.go).
base::StatusOr<int64_t> ParseQuantityMilli(const std::string& text);

// Resources is what a Pod requests or a Node offers.
struct Resources {
  int64_t cpu_milli = 0;  // millicores
  int64_t memory = 0;     // bytes
  int64_t pods = 0;

  Resources& operator+=(const Resources& o) {
    cpu_milli += o.cpu_milli;
    memory += o.memory;
    pods += o.pods;
    return *this;
  }
  Resources& operator-=(const Resources& o) {
    cpu_milli -= o.cpu_milli;
    memory -= o.memory;
    pods -= o.pods;
    return *this;
  }
};

// PodRequests sums the containers' resources.requests (max with each init container);
// unparsable quantities count as 0. pods is 1.
Resources PodRequests(const api::Json& pod);
// NonzeroPodRequests is PodRequests where a container without a cpu (memory) request counts
// 100m (200Mi): the scheduler's scoring default (GetNonzeroRequests), so empty Pods spread.
Resources NonzeroPodRequests(const api::Json& pod);
// PodRequestsWithNonzero is (PodRequests, NonzeroPodRequests) from one walk of the Pod.
std::pair<Resources, Resources> PodRequestsWithNonzero(const api::Json& pod);
// SameRequestInputs reports whether PodRequestsWithNonzero reads the same values from a and b:
// their containers' and init containers' resources.requests are equal, entry by entry. A status
// write keeps them, so the scheduler's cache need not parse the quantities again.
bool SameRequestInputs(const api::Json& a, const api::Json& b);
// NodeAllocatable reads status.allocatable (falling back to status.capacity) of a Node.
Resources NodeAllocatable(const api::Json& node);

// LeastRequestedScore is least_allocated.go leastRequestedScore for one resource: the free share
// of capacity after `requested`, on a 0..1'000'000 scale (0 when over capacity or no capacity).
// NOTE: the real scale is MaxNodeScore 100; its many ties are broken at random upstream, so the
// scheduler here uses a finer scale plus name order, which spreads Pods as evenly and stays
// deterministic.
int64_t LeastRequestedScore(int64_t requested, int64_t capacity);

}  // namespace world
