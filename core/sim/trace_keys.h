#pragma once
// The field keys trace records use (DESIGN.md "The trace", and the world's records), so a packed
// record stores one of them as a one-byte index instead of spelling it out: a scale run keeps
// ~400,000 records of ~7 fields each, and the keys were a third of their bytes.
// A key not listed here is still stored, spelled out; adding one changes no trace line.
// Single-threaded; no time.

#include <cstddef>
#include <string_view>

namespace sim::internal {

// KnownTraceKey returns the index of key in KnownTraceKeyAt's table, or -1.
int KnownTraceKey(std::string_view key);
// KnownTraceKeyAt returns the key at index (0 <= index < kKnownTraceKeys).
std::string_view KnownTraceKeyAt(size_t index);
extern const size_t kKnownTraceKeys;
// PooledTraceKey says whether the string values of the key at index repeat across records, so a
// record stores them pooled (trace_values.h).
bool PooledTraceKey(size_t index);
// KnownTraceKeySlotCollisions counts the listed keys that share a lookup slot with an earlier
// one (each costs a scan when looked up); for the test that keeps it at zero.
size_t KnownTraceKeySlotCollisions();

}  // namespace sim::internal
