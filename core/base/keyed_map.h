#pragma once
// KeyedMap: a std::map from string keys (iterated in key order, as every cache and the API server
// must be for a deterministic trace) with a hash index beside it for lookups by exact key.
// Keys such as "default/rc-0042-small-group-worker-x7k2p" share long prefixes, so each ordered
// compare of a lookup reaches far into two strings, and with 11,000 Pods each is a cache miss on
// another node; the index (base::StringIndex) finds the node in about one. The index reads the
// map's own keys (map nodes never move), so no key is stored twice.
// Only what the caches use of std::map is offered; insertion, erasure and lookup go through the
// index, ordered walks (begin, lower_bound) through the map.
// Single-threaded; no time.

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "core/base/byte_ops.h"
#include "core/base/string_index.h"

namespace base {

// KeyOrder is std::less<std::string>'s order (bytes compared unsigned, a prefix first) with the
// compare inlined: an insert into an 11,000-key map compares ~14 keys sharing long prefixes, and
// each std::string::compare was a call to memcmp (~2 % of a scale run natively).
struct KeyOrder {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const {
    const int c = CompareBytes(a.data(), b.data(), std::min(a.size(), b.size()));
    return c != 0 ? c < 0 : a.size() < b.size();
  }
};

template <class V>
class KeyedMap {
 public:
  using Map = std::map<std::string, V, KeyOrder>;
  using iterator = typename Map::iterator;
  using const_iterator = typename Map::const_iterator;
  using value_type = typename Map::value_type;

  KeyedMap() = default;
  KeyedMap(const KeyedMap&) = delete;  // the index points into this map's nodes
  KeyedMap& operator=(const KeyedMap&) = delete;
  KeyedMap(KeyedMap&& other) noexcept { *this = std::move(other); }
  // Moving a std::map keeps its nodes, so the moved index still points at the right keys.
  KeyedMap& operator=(KeyedMap&& other) noexcept {
    items_ = std::move(other.items_);
    index_ = std::move(other.index_);
    other.items_.clear();
    other.index_.clear();
    return *this;
  }

  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  iterator lower_bound(const std::string& key) { return items_.lower_bound(key); }
  const_iterator lower_bound(const std::string& key) const { return items_.lower_bound(key); }

  iterator find(std::string_view key) {
    const iterator* it = index_.find(key);
    return it == nullptr ? items_.end() : *it;
  }
  const_iterator find(std::string_view key) const {
    const iterator* it = index_.find(key);
    return it == nullptr ? items_.end() : const_iterator(*it);
  }
  size_t count(std::string_view key) const { return index_.find(key) == nullptr ? 0 : 1; }

  // try_emplace inserts (key, V(args...)) unless key is present, as std::map::try_emplace does.
  template <class... Args>
  std::pair<iterator, bool> try_emplace(const std::string& key, Args&&... args) {
    if (const iterator* it = index_.find(key)) return {*it, false};
    auto inserted = items_.try_emplace(key, std::forward<Args>(args)...).first;
    index_.insert(inserted);
    return {inserted, true};
  }
  V& operator[](const std::string& key) { return try_emplace(key).first->second; }

  iterator erase(iterator pos) {
    index_.erase(std::string_view(pos->first));
    return items_.erase(pos);
  }
  size_t erase(std::string_view key) {
    const iterator* it = index_.find(key);
    if (it == nullptr) return 0;
    const iterator pos = *it;
    index_.erase(key);
    items_.erase(pos);
    return 1;
  }
  void clear() {
    index_.clear();
    items_.clear();
  }

 private:
  Map items_;
  // Invariant: index_ holds exactly items_'s keys, each viewing its own node's key.
  StringIndex<iterator> index_;
};

}  // namespace base
