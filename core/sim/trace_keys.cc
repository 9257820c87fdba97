#include "core/sim/trace_keys.h"

#include <array>
#include <cstdint>
#include <cstring>

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

// The keys whose string values repeat from record to record (names, kinds, watchers, users):
// their values are pooled (trace_values.h). Free text (message, detail, text, error, command)
// and one-off values (resourceVersion) are not.
constexpr std::string_view kPooledKeys[] = {
    "verb", "kind", "namespace", "name", "subresource", "user", "watcher", "eventType",
    "controller", "watch", "predicate", "object", "result", "handler", "key", "outcome",
    "replica", "operator", "level", "pod", "node", "phase", "reason", "action", "lease",
    "identity", "holder", "system", "op", "informer", "fault", "state"};

constexpr std::array<bool, std::size(kKeys)> MakePooled() {
  std::array<bool, std::size(kKeys)> pooled{};
  for (size_t i = 0; i < std::size(kKeys); ++i) {
    for (std::string_view key : kPooledKeys) pooled[i] = pooled[i] || kKeys[i] == key;
  }
  return pooled;
}
constexpr std::array<bool, std::size(kKeys)> kPooled = MakePooled();

constexpr size_t CountPooled() {
  size_t n = 0;
  for (bool pooled : kPooled) n += pooled ? 1 : 0;
  return n;
}
static_assert(CountPooled() == std::size(kPooledKeys), "every pooled key is a listed key");

constexpr size_t kSlots = 256;  // a power of two, several times the number of keys

// Slot picks a key's place in the lookup table from its length and three of its characters:
// cheap, and every listed key lands in a slot of its own (the multipliers were searched for that;
// TraceKeys.EveryListedKeyHasASlotOfItsOwn checks it). Any other key, or a listed one added
// later that collides, is found by the scan in KnownTraceKey.
constexpr size_t Slot(std::string_view key) {
  const auto at = [&](size_t i) { return static_cast<size_t>(static_cast<unsigned char>(key[i])); };
  const size_t second = key.size() > 1 ? at(1) : 0;
  return (key.size() + at(0) * 3 + second * 11 + at(key.size() - 1) * 19) & (kSlots - 1);
}

// kSlotKey holds the index of the first listed key of each slot, or -1. Built at compile time, so
// a lookup pays no check that a function-local table was initialised.
constexpr std::array<int16_t, kSlots> MakeSlots() {
  std::array<int16_t, kSlots> slots{};
  for (size_t i = 0; i < kSlots; ++i) slots[i] = -1;
  for (size_t i = 0; i < std::size(kKeys); ++i) {
    const size_t slot = Slot(kKeys[i]);
    if (slots[slot] < 0) slots[slot] = static_cast<int16_t>(i);  // else the scan finds it
  }
  return slots;
}
constexpr std::array<int16_t, kSlots> kSlotKey = MakeSlots();

uint64_t Load8(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
uint32_t Load4(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Equal compares two keys of the same size n: keys are short, so two overlapping loads of 8 (or
// 4) bytes decide without a call to memcmp.
bool Equal(const char* a, const char* b, size_t n) {
  if (n >= 8 && n <= 16) return Load8(a) == Load8(b) && Load8(a + n - 8) == Load8(b + n - 8);
  if (n >= 4 && n < 8) return Load4(a) == Load4(b) && Load4(a + n - 4) == Load4(b + n - 4);
  return std::memcmp(a, b, n) == 0;
}

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
  const int16_t candidate = kSlotKey[Slot(key)];
  if (candidate >= 0 && kKeys[candidate].size() == key.size() &&
      Equal(kKeys[candidate].data(), key.data(), key.size())) {
    return candidate;
  }
  for (size_t i = 0; i < std::size(kKeys); ++i) {
    if (kKeys[i] == key) return static_cast<int>(i);
  }
  return -1;
}

std::string_view KnownTraceKeyAt(size_t index) { return kKeys[index]; }

bool PooledTraceKey(size_t index) { return index < kPooled.size() && kPooled[index]; }

}  // namespace sim::internal
