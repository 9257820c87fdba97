#pragma once
// The field keys trace records use (DESIGN.md "The trace", and the world's records), so a packed
// record stores one of them as a one-byte index instead of spelling it out: a scale run keeps
// ~350,000 records of ~7 fields each, and spelled out the keys are a third of their bytes.
// A key not listed here is still stored, spelled out; adding one changes no trace line.
// The table and its slot lookup are constexpr so that a TraceArg built from a literal key
// (nearly all of them) gets its index when it is compiled, not through a ~55-instruction lookup
// for each of the ~2 million fields a scale run records.
// Single-threaded; no time.

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

namespace sim::internal {

inline constexpr std::string_view kTraceKeys[] = {
    // DESIGN.md's record types
    "cause", "verb", "kind", "namespace", "name", "subresource", "user", "code", "resourceVersion",
    "watcher", "eventType", "controller", "watch", "predicate", "object", "result", "handler",
    "key", "outcome", "priority", "delayMs", "requeues", "worker", "requeueAfterMs", "error",
    "replica",
    // the world's, the operators' and the lab's records
    "detail", "message", "operator", "level", "pod", "node", "phase", "reason", "restartCount",
    "action", "lease", "identity", "holder", "system", "op", "latencyMs", "informer", "command",
    "text", "fault", "mark", "count", "generation", "state", "deltas"};

static_assert(std::size(kTraceKeys) <= 256, "a known key's index is packed into one byte");

inline constexpr size_t kTraceKeySlots = 256;  // a power of two, several times the number of keys

// TraceKeySlot picks a key's place in the lookup table from its length and three of its
// characters: cheap, and every listed key lands in a slot of its own (the multipliers are
// chosen for that; TraceKeys.EveryListedKeyHasASlotOfItsOwn checks it). Any other key, or a
// listed one added later that collides, is found by the scan in KnownTraceKey.
constexpr size_t TraceKeySlot(std::string_view key) {
  const auto at = [&](size_t i) { return static_cast<size_t>(static_cast<unsigned char>(key[i])); };
  const size_t second = key.size() > 1 ? at(1) : 0;
  return (key.size() + at(0) * 3 + second * 11 + at(key.size() - 1) * 19) & (kTraceKeySlots - 1);
}

// MakeTraceKeySlots builds the index of the first listed key of each slot, or -1.
constexpr std::array<int16_t, kTraceKeySlots> MakeTraceKeySlots() {
  std::array<int16_t, kTraceKeySlots> slots{};
  for (size_t i = 0; i < kTraceKeySlots; ++i) slots[i] = -1;
  for (size_t i = 0; i < std::size(kTraceKeys); ++i) {
    const size_t slot = TraceKeySlot(kTraceKeys[i]);
    if (slots[slot] < 0) slots[slot] = static_cast<int16_t>(i);  // else the scan finds it
  }
  return slots;
}
inline constexpr std::array<int16_t, kTraceKeySlots> kTraceKeySlotTable = MakeTraceKeySlots();

// kTraceKeyUnresolved is what SlotTraceKey answers when its slot does not hold key.
inline constexpr int kTraceKeyUnresolved = -2;

// SlotTraceKey returns the index of key when its own slot holds it, -1 for the empty key, else
// kTraceKeyUnresolved (KnownTraceKey then decides). Inline and constexpr: for a literal key the
// compiler folds it to a constant.
constexpr int SlotTraceKey(std::string_view key) {
  if (key.empty()) return -1;
  const int16_t candidate = kTraceKeySlotTable[TraceKeySlot(key)];
  if (candidate < 0 || kTraceKeys[candidate].size() != key.size()) return kTraceKeyUnresolved;
  for (size_t i = 0; i < key.size(); ++i) {
    if (kTraceKeys[candidate][i] != key[i]) return kTraceKeyUnresolved;
  }
  return candidate;
}

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
