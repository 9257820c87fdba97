#include "core/api/interned_key.h"

#include <unordered_map>

namespace api {
namespace internal {
namespace {

// The table maps each text to its entry; the view points into the entry's own string, which
// never moves (entries are allocated one by one). Never destroyed: keys in static documents may
// outlive any destruction order.
struct KeyTable {
  std::unordered_map<std::string_view, KeyEntry*> entries;
  KeyEntry empty;
  KeyTable() {
    empty.refs = 1;  // the table's own reference: "" is never dropped
    entries.emplace(std::string_view(empty.text), &empty);
  }
};

KeyTable& Table() {
  static KeyTable* table = new KeyTable();
  return *table;
}

}  // namespace

KeyEntry* AcquireKey(std::string_view text) {
  KeyTable& table = Table();
  auto it = table.entries.find(text);
  if (it != table.entries.end()) {
    ++it->second->refs;
    return it->second;
  }
  auto* entry = new KeyEntry{std::string(text), 1};
  table.entries.emplace(std::string_view(entry->text), entry);
  return entry;
}

void DropKey(KeyEntry* entry) noexcept {
  if (entry == &Table().empty) return;
  Table().entries.erase(std::string_view(entry->text));
  delete entry;
}

KeyEntry* EmptyKey() noexcept { return &Table().empty; }

size_t InternedKeyCount() { return Table().entries.size(); }

}  // namespace internal
}  // namespace api
