#pragma once
// StringIndex: a hash index from string keys to iterators of a container that owns the keys
// (`it->first`) and never moves them, such as a std::map: KeyedMap's lookups by exact key.
// Open addressing with linear probing in one array of (hash, iterator) slots. A lookup reads one
// slot and, on a full hash match, the key itself; std::unordered_map read a bucket, a node and
// then the key, each a cache miss once the caches hold 11,000 Pods, and allocated a node per key.
// Erasing shifts the following entries back (no tombstones, probe_hole.h), so a probe ends at the
// first empty slot. Single-threaded; no time.

#include <cstddef>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/containers/probe_hole.h"
#include "core/base/containers/string_hash.h"

namespace base {

template <class It>
class StringIndex {
 public:
  StringIndex() = default;
  StringIndex(const StringIndex&) = default;
  StringIndex& operator=(const StringIndex&) = default;
  // A moved-from index is empty, as a moved-from std::unordered_map is in practice.
  StringIndex(StringIndex&& other) noexcept { *this = std::move(other); }
  StringIndex& operator=(StringIndex&& other) noexcept {
    if (this == &other) return *this;
    slots_ = std::move(other.slots_);
    mask_ = other.mask_;
    size_ = other.size_;
    other.clear();
    return *this;
  }

  // find returns the iterator filed under key, or nullptr.
  const It* find(std::string_view key) const {
    if (size_ == 0) return nullptr;
    const size_t hash = Hash(key);
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.hash == kEmpty) return nullptr;
      if (slot.hash == hash && std::string_view(slot.it->first) == key) return &slot.it;
    }
  }

  // insert files it under it->first, which must not be filed yet.
  void insert(It it) {
    if ((size_ + 1) * 8 > slots_.size() * 5) Grow();  // load factor at most 5/8
    Place(Hash(it->first), it);
    ++size_;
  }

  // erase removes key; false when it was not filed.
  bool erase(std::string_view key) {
    if (size_ == 0) return false;
    const size_t hash = Hash(key);
    size_t hole = hash & mask_;
    for (;; hole = (hole + 1) & mask_) {
      const Slot& slot = slots_[hole];
      if (slot.hash == kEmpty) return false;
      if (slot.hash == hash && std::string_view(slot.it->first) == key) break;
    }
    CloseProbeHole(slots_, hole, [](const Slot& slot) { return slot.hash == kEmpty; });
    --size_;
    return true;
  }

  void clear() {
    slots_.clear();
    mask_ = 0;
    size_ = 0;
  }
  size_t size() const { return size_; }

 private:
  static constexpr size_t kEmpty = 0;
  struct Slot {
    size_t hash = kEmpty;
    It it{};
  };

  // Hash never returns kEmpty, which marks a free slot.
  static size_t Hash(std::string_view key) {
    const size_t hash = HashText(key);
    return hash == kEmpty ? 1 : hash;
  }

  void Place(size_t hash, It it) {
    size_t i = hash & mask_;
    while (slots_[i].hash != kEmpty) i = (i + 1) & mask_;
    slots_[i].hash = hash;
    slots_[i].it = it;
  }

  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : old.size() * 2, Slot());
    mask_ = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.hash != kEmpty) Place(slot.hash, slot.it);
    }
  }

  std::vector<Slot> slots_;  // a power of two in size, or empty
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace base
