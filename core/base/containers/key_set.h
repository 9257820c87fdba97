#pragma once
// KeySet: a set of string keys (object keys such as "default/rc-0042-worker-x7k2p") walked in
// key order, as the indexes of every cache must be for a deterministic trace, but kept in a hash
// set. A std::set insert compares about 14 keys on the way down an 11,000-key tree, each compare
// reaching far into two strings that share a long prefix and each node another cache miss; the
// label and namespace indexes put every new Pod into several such sets that nobody walks.
// Here an insert or erase is one hash probe, and the ordered view is built when a set is first
// walked after a change (sorting what it holds), then reused until the next change. The hash set
// is open addressing in one array of (hash, key) slots, as StringIndex is: std::unordered_set
// allocated a node per key, hashed a key twice per insert and divided by a prime bucket count
// on every probe (~1 % of a scale run natively).
// The set holds pointers to key_pool's copies, so the several sets indexing one object share a
// single copy of its key (key_pool.h).
// Single-threaded (the view is rebuilt inside const walks); no time.

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "core/base/containers/key_pool.h"
#include "core/base/containers/probe_hole.h"
#include "core/base/containers/string_hash.h"

namespace base {

class KeySet {
 public:
  // const_iterator walks the ordered view, yielding each key. Invalidated by insert and erase.
  class const_iterator {
   public:
    using Base = std::vector<const std::string*>::const_iterator;
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::string;
    using difference_type = std::ptrdiff_t;
    using pointer = const std::string*;
    using reference = const std::string&;
    explicit const_iterator(Base it) : it_(it) {}
    const std::string& operator*() const { return **it_; }
    const std::string* operator->() const { return *it_; }
    const_iterator& operator++() {
      ++it_;
      return *this;
    }
    const_iterator operator++(int) { return const_iterator(it_++); }
    bool operator==(const const_iterator& other) const { return it_ == other.it_; }
    bool operator!=(const const_iterator& other) const { return it_ != other.it_; }

   private:
    Base it_;
  };

  KeySet() = default;
  KeySet(const KeySet& other) { CopyFrom(other); }
  KeySet& operator=(const KeySet& other) {
    if (this != &other) {
      clear();
      CopyFrom(other);
    }
    return *this;
  }
  // A moved view still points at the right keys: it holds the pool's copies, not slots.
  KeySet(KeySet&& other) noexcept { *this = std::move(other); }
  KeySet& operator=(KeySet&& other) noexcept {
    if (this != &other) {
      clear();
      slots_ = std::move(other.slots_);
      size_ = other.size_;
      sorted_ = std::move(other.sorted_);
      sorted_valid_ = other.sorted_valid_;
      other.slots_.clear();
      other.size_ = 0;
      other.Invalidate();
    }
    return *this;
  }
  ~KeySet() { clear(); }

  // insert adds key; true when it was not there. Only a real change invalidates the view.
  bool insert(const std::string& key) {
    if ((size_ + 1) * 8 > slots_.size() * 5) Grow();  // load factor at most 5/8
    const size_t hash = HashText(key);
    Slot& slot = slots_[Probe(key, hash)];
    if (slot.key != nullptr) return false;
    slot = Slot{hash, key_pool::Acquire(key)};
    ++size_;
    Invalidate();
    return true;
  }
  // erase removes key; the number removed (0 or 1).
  size_t erase(const std::string& key) {
    if (size_ == 0) return 0;
    const size_t hole = Probe(key, HashText(key));
    if (slots_[hole].key == nullptr) return 0;
    key_pool::Release(slots_[hole].key);
    CloseProbeHole(slots_, hole, [](const Slot& slot) { return slot.key == nullptr; });
    --size_;
    Invalidate();
    return 1;
  }
  size_t count(const std::string& key) const {
    return size_ != 0 && slots_[Probe(key, HashText(key))].key != nullptr ? 1 : 0;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() {
    for (const Slot& slot : slots_) {
      if (slot.key != nullptr) key_pool::Release(slot.key);
    }
    slots_.clear();
    size_ = 0;
    Invalidate();
  }

  const_iterator begin() const { return const_iterator(Sorted().begin()); }
  const_iterator end() const { return const_iterator(Sorted().end()); }

 private:
  struct Slot {
    size_t hash = 0;
    const std::string* key = nullptr;  // a key_pool copy; null marks a free slot
  };

  // Probe returns the slot holding key, or the free slot ending its run (where it would go).
  // The table must not be empty.
  size_t Probe(const std::string& key, size_t hash) const {
    const size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      const Slot& slot = slots_[i];
      if (slot.key == nullptr || (slot.hash == hash && *slot.key == key)) return i;
    }
  }
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 8 : old.size() * 2, Slot());
    const size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.key == nullptr) continue;
      size_t i = slot.hash & mask;
      while (slots_[i].key != nullptr) i = (i + 1) & mask;
      slots_[i] = slot;
    }
  }
  void CopyFrom(const KeySet& other) {
    slots_ = other.slots_;  // same hashes, same places
    size_ = other.size_;
    for (const Slot& slot : slots_) {
      if (slot.key != nullptr) key_pool::Acquire(*slot.key);
    }
    Invalidate();
  }
  void Invalidate() {
    sorted_.clear();
    sorted_valid_ = false;
  }
  const std::vector<const std::string*>& Sorted() const {
    if (!sorted_valid_) {
      sorted_.clear();
      sorted_.reserve(size_);
      for (const Slot& slot : slots_) {
        if (slot.key != nullptr) sorted_.push_back(slot.key);
      }
      std::sort(sorted_.begin(), sorted_.end(),
                [](const std::string* a, const std::string* b) { return *a < *b; });
      sorted_valid_ = true;
    }
    return sorted_;
  }

  // Invariant: slots_ is empty or a power of two in size; its non-null keys are size_ distinct
  // key_pool copies this set holds one reference each of, each reachable from its home slot
  // (hash & mask) without crossing a free slot.
  std::vector<Slot> slots_;
  size_t size_ = 0;
  // Invariant: when sorted_valid_, sorted_ points at every key of slots_ once, in ascending order.
  mutable std::vector<const std::string*> sorted_;
  mutable bool sorted_valid_ = true;  // an empty set's view is the empty vector
};

}  // namespace base
