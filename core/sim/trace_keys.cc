#include "core/sim/trace_keys.h"

#include <array>
#include <cstdint>

namespace sim::internal {

namespace {

// The keys whose string values repeat from record to record (names, kinds, watchers, users):
// their values are pooled (trace_values.h). Free text (message, detail, text, error, command)
// and one-off values (resourceVersion) are not.
constexpr std::string_view kPooledKeys[] = {
    "verb", "kind", "namespace", "name", "subresource", "user", "watcher", "eventType",
    "controller", "watch", "predicate", "object", "result", "handler", "key", "outcome",
    "replica", "operator", "level", "pod", "node", "phase", "reason", "action", "lease",
    "identity", "holder", "system", "op", "informer", "fault", "state", "deltas"};

constexpr std::array<bool, std::size(kTraceKeys)> MakePooled() {
  std::array<bool, std::size(kTraceKeys)> pooled{};
  for (size_t i = 0; i < std::size(kTraceKeys); ++i) {
    for (std::string_view key : kPooledKeys) pooled[i] = pooled[i] || kTraceKeys[i] == key;
  }
  return pooled;
}
constexpr std::array<bool, std::size(kTraceKeys)> kPooled = MakePooled();

constexpr size_t CountPooled() {
  size_t n = 0;
  for (bool pooled : kPooled) n += pooled ? 1 : 0;
  return n;
}
static_assert(CountPooled() == std::size(kPooledKeys), "every pooled key is a listed key");

}  // namespace

const size_t kKnownTraceKeys = std::size(kTraceKeys);

size_t KnownTraceKeySlotCollisions() {
  std::array<bool, kTraceKeySlots> taken{};
  size_t collisions = 0;
  for (std::string_view key : kTraceKeys) {
    bool& t = taken[TraceKeySlot(key)];
    if (t) ++collisions;
    t = true;
  }
  return collisions;
}

int KnownTraceKey(std::string_view key) {
  // The slot lookup TraceArg makes settles every listed key that does not collide (every one
  // listed so far); the scan finds one that does, and answers -1 for any other key.
  const int slotted = SlotTraceKey(key);
  if (slotted != kTraceKeyUnresolved) return slotted;
  for (size_t i = 0; i < std::size(kTraceKeys); ++i) {
    if (kTraceKeys[i] == key) return static_cast<int>(i);
  }
  return -1;
}

std::string_view KnownTraceKeyAt(size_t index) { return kTraceKeys[index]; }

bool PooledTraceKey(size_t index) { return index < kPooled.size() && kPooled[index]; }

}  // namespace sim::internal
