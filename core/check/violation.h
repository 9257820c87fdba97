#pragma once
// Violation: one broken invariant, with enough detail to debug it.
// No Go counterpart (TigerBeetle's VOPR and FoundationDB's simulation workloads report the same).
// Single-threaded.

#include <cstdint>
#include <string>

namespace check {

struct Violation {
  std::string invariant;  // the invariant's name, e.g. "watch-order"
  uint64_t step = 0;      // scheduler events run when it was found (Scheduler::executed())
  std::string detail;     // what was seen, with the keys, resourceVersions and owners involved

  // ToString renders "step N: invariant: detail".
  std::string ToString() const;
};

}  // namespace check
