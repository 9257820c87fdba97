#pragma once
// KeySet: a set of string keys (object keys such as "default/rc-0042-worker-x7k2p") walked in
// key order, as the indexes of every cache must be for a deterministic trace, but kept in a hash
// set. A std::set insert compares about 14 keys on the way down an 11,000-key tree, each compare
// reaching far into two strings that share a long prefix and each node another cache miss; the
// label and namespace indexes put every new Pod into several such sets that nobody walks.
// Here an insert or erase is one hash probe, and the ordered view is built when a set is first
// walked after a change (sorting what it holds), then reused until the next change.
// The set holds pointers to key_pool's copies, so the several sets indexing one object share a
// single copy of its key (key_pool.h).
// Single-threaded (the view is rebuilt inside const walks); no time.

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/base/key_pool.h"
#include "core/base/string_hash.h"

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
  // Moving an unordered_set keeps its nodes, so a moved view still points at the right keys.
  KeySet(KeySet&& other) noexcept { *this = std::move(other); }
  KeySet& operator=(KeySet&& other) noexcept {
    if (this != &other) {
      clear();
      keys_ = std::move(other.keys_);
      sorted_ = std::move(other.sorted_);
      sorted_valid_ = other.sorted_valid_;
      other.keys_.clear();
      other.Invalidate();
    }
    return *this;
  }
  ~KeySet() { clear(); }

  // insert adds key; true when it was not there. Only a real change invalidates the view.
  bool insert(const std::string& key) {
    if (keys_.find(&key) != keys_.end()) return false;
    keys_.insert(key_pool::Acquire(key));
    Invalidate();
    return true;
  }
  // erase removes key; the number removed (0 or 1).
  size_t erase(const std::string& key) {
    auto it = keys_.find(&key);
    if (it == keys_.end()) return 0;
    const std::string* pooled = *it;
    keys_.erase(it);
    key_pool::Release(pooled);
    Invalidate();
    return 1;
  }
  size_t count(const std::string& key) const { return keys_.count(&key); }
  size_t size() const { return keys_.size(); }
  bool empty() const { return keys_.empty(); }
  void clear() {
    for (const std::string* pooled : keys_) key_pool::Release(pooled);
    keys_.clear();
    Invalidate();
  }

  const_iterator begin() const { return const_iterator(Sorted().begin()); }
  const_iterator end() const { return const_iterator(Sorted().end()); }

 private:
  // Hash and equality read the text, so a caller's own string finds the pooled copy.
  struct PooledKeyHash {
    size_t operator()(const std::string* key) const { return HashText(*key); }
  };
  struct PooledKeyEqual {
    bool operator()(const std::string* a, const std::string* b) const { return *a == *b; }
  };

  void CopyFrom(const KeySet& other) {
    keys_.reserve(other.keys_.size());
    for (const std::string* pooled : other.keys_) keys_.insert(key_pool::Acquire(*pooled));
    Invalidate();
  }
  void Invalidate() {
    sorted_.clear();
    sorted_valid_ = false;
  }
  const std::vector<const std::string*>& Sorted() const {
    if (!sorted_valid_) {
      sorted_.clear();
      sorted_.reserve(keys_.size());
      for (const std::string* key : keys_) sorted_.push_back(key);
      std::sort(sorted_.begin(), sorted_.end(),
                [](const std::string* a, const std::string* b) { return *a < *b; });
      sorted_valid_ = true;
    }
    return sorted_;
  }

  // Invariant: every element is a key_pool copy this set holds one reference of.
  std::unordered_set<const std::string*, PooledKeyHash, PooledKeyEqual> keys_;
  // Invariant: when sorted_valid_, sorted_ points at every key of keys_ once, in ascending order.
  mutable std::vector<const std::string*> sorted_;
  mutable bool sorted_valid_ = true;  // an empty set's view is the empty vector
};

}  // namespace base
