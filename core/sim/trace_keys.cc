#include "core/sim/trace_keys.h"

#include <array>
#include <cstdint>

namespace sim::internal {

namespace {

constexpr std::string_view kKeys[] = {
    // DESIGN.md's record types
    "cause", "verb", "kind", "namespace", "name", "subresource", "user", "code", "resourceVersion",
    "watcher", "eventType", "controller", "watch", "predicate", "object", "result", "handler",
    "key", "outcome", "priority", "delayMs", "requeues", "worker", "requeueAfterMs", "error",
    "replica",
    // the world's, the operators' and the lab's records
    "detail", "message", "operator", "level", "pod", "node", "phase", "reason", "restartCount",
    "action", "lease", "identity", "holder", "system", "op", "latencyMs", "informer", "command",
    "text", "fault", "mark", "count", "generation", "state"};

static_assert(std::size(kKeys) <= 256, "a known key's index is packed into one byte");

constexpr size_t kSlots = 256;  // a power of two, several times the number of keys

// Slot picks a key's place in the lookup table from its length and three of its characters:
// cheap, and every listed key lands in a slot of its own (the multipliers were searched for that;
// TraceKeys.EveryListedKeyHasASlotOfItsOwn checks it). Any other key, or a listed one added
// later that collides, is found by the scan in KnownTraceKey.
size_t Slot(std::string_view key) {
  const auto at = [&](size_t i) { return static_cast<size_t>(static_cast<unsigned char>(key[i])); };
  const size_t second = key.size() > 1 ? at(1) : 0;
  return (key.size() + at(0) * 3 + second * 11 + at(key.size() - 1) * 19) & (kSlots - 1);
}

struct Table {
  std::array<int16_t, kSlots> slot;
  Table() {
    slot.fill(-1);
    for (size_t i = 0; i < std::size(kKeys); ++i) {
      int16_t& s = slot[Slot(kKeys[i])];
      if (s < 0) s = static_cast<int16_t>(i);  // a collision falls back to the scan below
    }
  }
};

}  // namespace

const size_t kKnownTraceKeys = std::size(kKeys);

size_t KnownTraceKeySlotCollisions() {
  std::array<bool, kSlots> taken{};
  size_t collisions = 0;
  for (std::string_view key : kKeys) {
    bool& t = taken[Slot(key)];
    if (t) ++collisions;
    t = true;
  }
  return collisions;
}

int KnownTraceKey(std::string_view key) {
  if (key.empty()) return -1;
  static const Table table;
  const int16_t candidate = table.slot[Slot(key)];
  if (candidate >= 0 && kKeys[candidate] == key) return candidate;
  for (size_t i = 0; i < std::size(kKeys); ++i) {
    if (kKeys[i] == key) return static_cast<int>(i);
  }
  return -1;
}

std::string_view KnownTraceKeyAt(size_t index) { return kKeys[index]; }

}  // namespace sim::internal
