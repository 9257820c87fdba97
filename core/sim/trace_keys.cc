#include "core/sim/trace_keys.h"

#include <array>
#include <cstdint>
#include <cstring>

namespace sim::internal {

namespace {

// The keys whose string values repeat from record to record (names, kinds, watchers, users):
// their values are pooled (trace_values.h). Free text (message, detail, text, error, command)
// and one-off values (resourceVersion) are not.
constexpr std::string_view kPooledKeys[] = {
    "verb", "kind", "namespace", "name", "subresource", "user", "watcher", "eventType",
    "controller", "watch", "predicate", "object", "result", "handler", "key", "outcome",
    "replica", "operator", "level", "pod", "node", "phase", "reason", "action", "lease",
    "identity", "holder", "system", "op", "informer", "fault", "state"};

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
  if (key.empty()) return -1;
  const int16_t candidate = kTraceKeySlotTable[TraceKeySlot(key)];
  if (candidate >= 0 && kTraceKeys[candidate].size() == key.size() &&
      Equal(kTraceKeys[candidate].data(), key.data(), key.size())) {
    return candidate;
  }
  for (size_t i = 0; i < std::size(kTraceKeys); ++i) {
    if (kTraceKeys[i] == key) return static_cast<int>(i);
  }
  return -1;
}

std::string_view KnownTraceKeyAt(size_t index) { return kTraceKeys[index]; }

bool PooledTraceKey(size_t index) { return index < kPooled.size() && kPooled[index]; }

}  // namespace sim::internal
