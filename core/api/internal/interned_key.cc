#include "core/api/internal/interned_key.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace api {
namespace internal {
namespace {

// kRecentSlots sizes the direct-mapped cache in front of the table: documents are built from a
// few hundred distinct keys ("metadata", "status", "type"), and a slot probe (a multiply of the
// length and the first and last bytes, then one compare) replaces hashing the whole text and
// walking a bucket, about 120 of the 160 instructions an acquisition took.
constexpr size_t kRecentSlots = 1024;  // RecentSlot returns 10 bits

// The table maps each text to its entry; the view points into the entry's own string, which
// never moves (entries are allocated one by one). Never destroyed: keys in static documents may
// outlive any destruction order.
struct KeyTable {
  std::unordered_map<std::string_view, KeyEntry*> entries;
  KeyEntry empty;
  // Invariant: a non-null slot holds a live entry of `entries` whose text maps to that slot.
  std::array<KeyEntry*, kRecentSlots> recent{};
  KeyTable() {
    empty.refs = 1;  // the table's own reference: "" is never dropped
    entries.emplace(std::string_view(empty.text), &empty);
  }
};

KeyTable& Table() {
  static KeyTable* table = new KeyTable();
  return *table;
}

// RecentSlot picks text's cache slot from its length and its first and last (up to) 8 bytes.
size_t RecentSlot(std::string_view text) {
  uint64_t head = 0, tail = 0;
  if (text.size() >= 8) {  // two fixed-size loads
    std::memcpy(&head, text.data(), 8);
    std::memcpy(&tail, text.data() + text.size() - 8, 8);
  } else {
    for (char c : text) head = (head << 8) | static_cast<unsigned char>(c);
  }
  const uint64_t mixed = (head ^ (tail * 0x9e3779b97f4a7c15ULL) ^ text.size()) *
                         0xff51afd7ed558ccdULL;
  return static_cast<size_t>(mixed >> 54);  // the top 10 bits: a slot below kRecentSlots
}

}  // namespace

KeyEntry* AcquireKey(std::string_view text) {
  KeyTable& table = Table();
  KeyEntry*& recent = table.recent[RecentSlot(text)];
  if (recent != nullptr && std::string_view(recent->text) == text) {
    ++recent->refs;
    return recent;
  }
  auto it = table.entries.find(text);
  if (it != table.entries.end()) {
    ++it->second->refs;
    recent = it->second;
    return it->second;
  }
  auto* entry = new KeyEntry{std::string(text), 1};
  table.entries.emplace(std::string_view(entry->text), entry);
  recent = entry;
  return entry;
}

void DropKey(KeyEntry* entry) noexcept {
  KeyTable& table = Table();
  if (entry == &table.empty) return;
  KeyEntry*& recent = table.recent[RecentSlot(entry->text)];
  if (recent == entry) recent = nullptr;
  table.entries.erase(std::string_view(entry->text));
  delete entry;
}

KeyEntry* EmptyKey() noexcept { return &Table().empty; }

size_t InternedKeyCount() { return Table().entries.size(); }

}  // namespace internal
}  // namespace api
