#pragma once
// KeyedMap: a map from string keys, walked in key order (as every cache and the API server must
// be for a deterministic trace), with a hash index for lookups by exact key.
// The order is kept lazily. Each entry is a node of its own (it never moves, so the index and
// iterators point at it), and `order_` lists the nodes: a sorted prefix, then the nodes inserted
// since the last ordered walk, in insertion order. A walk (begin, lower_bound) first sorts those
// and merges them in. With 11,000 Pods an insert into a balanced tree costs ~14 cache misses on
// keys sharing long prefixes, and the caches that take most inserts are almost never walked
// while they grow: here an insert is one hash probe.
// Erasing an entry of the sorted prefix marks its node dead (its value released, its key kept so
// the prefix stays sorted); the next walk drops the dead nodes.
// Rules a std::map does not have: keys inserted during a walk are not visited by it, and a walk
// must not call begin/lower_bound of the same map after inserting or erasing (both reorder;
// debug builds assert). erase returns nothing; iterators do not survive a move of the map.
// V must be default-constructible.
// Single-threaded; no time.

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/base/assert.h"
#include "core/base/containers/string_index.h"

namespace base {

// KeyOrder is std::less<std::string>'s order (bytes compared unsigned, a prefix first) for keys
// given as strings or views.
struct KeyOrder {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a < b; }
};

template <class V>
class KeyedMap {
 public:
  using value_type = std::pair<const std::string, V>;

 private:
  struct Node {
    template <class... Args>
    explicit Node(const std::string& key, Args&&... args)
        : kv(std::piecewise_construct, std::forward_as_tuple(key),
             std::forward_as_tuple(std::forward<Args>(args)...)) {}
    value_type kv;
    bool pending = true;  // in order_'s unsorted tail, at `slot`
    bool dead = false;    // erased from the sorted prefix; freed by the next Settle
    size_t slot = 0;
  };
  // NodeRef is what the index files: it reads a node's key as `it->first`.
  struct NodeRef {
    Node* node = nullptr;
    value_type* operator->() const { return &node->kv; }
  };
  static constexpr size_t kNoPosition = SIZE_MAX;

 public:
  // An iterator points at a node; a walk's iterators also know their place in order_. One from
  // find or try_emplace learns its place when first advanced.
  template <bool Const>
  class Iter {
   public:
    using MapType = std::conditional_t<Const, const KeyedMap, KeyedMap>;
    using reference = std::conditional_t<Const, const value_type&, value_type&>;
    using pointer = std::conditional_t<Const, const value_type*, value_type*>;

    Iter() = default;
    operator Iter<true>() const { return Iter<true>(map_, node_, pos_, epoch_); }  // NOLINT

    reference operator*() const { return node_->kv; }
    pointer operator->() const { return &node_->kv; }
    Iter& operator++() {
      if (pos_ == kNoPosition) {
        pos_ = map_->PositionOf(node_);
        epoch_ = map_->epoch_;
      }
      assert(epoch_ == map_->epoch_ && "a KeyedMap walk saw the map reordered under it");
      pos_ = map_->NextLive(pos_ + 1);
      node_ = pos_ < map_->sorted_ ? map_->order_[pos_] : nullptr;
      return *this;
    }
    bool operator==(const Iter& other) const { return node_ == other.node_; }
    bool operator!=(const Iter& other) const { return node_ != other.node_; }

   private:
    friend class KeyedMap;
    template <bool>
    friend class Iter;
    Iter(MapType* map, Node* node, size_t pos, uint64_t epoch)
        : map_(map), node_(node), pos_(pos), epoch_(epoch) {}
    MapType* map_ = nullptr;
    Node* node_ = nullptr;  // nullptr at end()
    size_t pos_ = kNoPosition;
    uint64_t epoch_ = 0;
  };
  using iterator = Iter<false>;
  using const_iterator = Iter<true>;

  KeyedMap() = default;
  KeyedMap(const KeyedMap&) = delete;
  KeyedMap& operator=(const KeyedMap&) = delete;
  KeyedMap(KeyedMap&& other) noexcept { *this = std::move(other); }
  // The nodes move with order_ and the index that points at them; the moved-from map is empty.
  KeyedMap& operator=(KeyedMap&& other) noexcept {
    if (this == &other) return *this;
    clear();
    order_ = std::move(other.order_);
    index_ = std::move(other.index_);
    sorted_ = other.sorted_;
    dead_ = other.dead_;
    size_ = other.size_;
    ++epoch_;
    other.order_.clear();
    other.index_.clear();
    other.sorted_ = other.dead_ = other.size_ = 0;
    ++other.epoch_;
    return *this;
  }
  ~KeyedMap() { FreeNodes(); }

  iterator begin() {
    Settle();
    return MakeWalk<false>(this, 0);
  }
  const_iterator begin() const {
    Settle();
    return MakeWalk<true>(this, 0);
  }
  iterator end() { return iterator(this, nullptr, kNoPosition, 0); }
  const_iterator end() const { return const_iterator(this, nullptr, kNoPosition, 0); }
  iterator lower_bound(std::string_view key) { return MakeWalk<false>(this, LowerBound(key)); }
  const_iterator lower_bound(std::string_view key) const {
    return MakeWalk<true>(this, LowerBound(key));
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  iterator find(std::string_view key) { return iterator(this, Lookup(key), kNoPosition, 0); }
  const_iterator find(std::string_view key) const {
    return const_iterator(this, Lookup(key), kNoPosition, 0);
  }
  size_t count(std::string_view key) const { return Lookup(key) == nullptr ? 0 : 1; }
  // at is the value under key, which must be present (a caller's invariant, as with std::map::at
  // where that throws).
  V& at(std::string_view key) { return AtKey(this, key); }
  const V& at(std::string_view key) const { return AtKey(this, key); }

  // try_emplace inserts (key, V(args...)) unless key is present, as std::map::try_emplace does.
  template <class... Args>
  std::pair<iterator, bool> try_emplace(const std::string& key, Args&&... args) {
    if (Node* found = Lookup(key)) return {iterator(this, found, kNoPosition, 0), false};
    Node* node = new Node(key, std::forward<Args>(args)...);
    node->slot = order_.size();
    order_.push_back(node);
    index_.insert(NodeRef{node});
    ++size_;
    ++epoch_;  // a walk in progress would not visit it: debug builds stop that walk
    return {iterator(this, node, kNoPosition, 0), true};
  }
  V& operator[](const std::string& key) { return try_emplace(key).first->second; }

  void erase(const_iterator pos) { EraseNode(pos.node_); }
  size_t erase(std::string_view key) {
    Node* node = Lookup(key);
    if (node == nullptr) return 0;
    EraseNode(node);
    return 1;
  }
  void clear() {
    FreeNodes();
    order_.clear();
    index_.clear();
    sorted_ = dead_ = size_ = 0;
    ++epoch_;
  }

 private:
  static bool NodeLess(const Node* a, const Node* b) { return KeyOrder()(a->kv.first, b->kv.first); }

  // MakeWalk starts a walk at pos of a settled order.
  template <bool Const, class M>
  static Iter<Const> MakeWalk(M* map, size_t pos) {
    pos = map->NextLive(pos);
    Node* node = pos < map->sorted_ ? map->order_[pos] : nullptr;
    return Iter<Const>(map, node, pos, map->epoch_);
  }

  template <class M>
  static auto& AtKey(M* map, std::string_view key) {
    Node* node = map->Lookup(key);
    RLAB_ASSERT(node != nullptr, "KeyedMap::at of an absent key");
    return node->kv.second;
  }

  Node* Lookup(std::string_view key) const {
    const NodeRef* ref = index_.find(key);
    return ref == nullptr ? nullptr : ref->node;
  }

  // LowerBound settles the order and returns the place of the first key not less than key.
  size_t LowerBound(std::string_view key) const {
    Settle();
    auto it = std::lower_bound(order_.begin(), order_.end(), key,
                               [](const Node* n, std::string_view k) {
                                 return KeyOrder()(n->kv.first, k);
                               });
    return static_cast<size_t>(it - order_.begin());
  }

  // PositionOf settles the order and returns node's place in it.
  size_t PositionOf(const Node* node) const {
    const size_t pos = LowerBound(node->kv.first);
    assert(pos < order_.size() && order_[pos] == node);
    return pos;
  }

  size_t NextLive(size_t pos) const {
    while (pos < sorted_ && order_[pos]->dead) ++pos;
    return pos;
  }

  void EraseNode(Node* node) {
    if (node == nullptr) return;
    index_.erase(node->kv.first);
    --size_;
    if (node->pending) {  // the tail is unordered: the last node takes its slot
      Node* last = order_.back();
      order_[node->slot] = last;
      last->slot = node->slot;
      order_.pop_back();
      delete node;
      return;
    }
    node->dead = true;
    node->kv.second = V();  // what the entry held is released now, as std::map::erase would
    ++dead_;
  }

  // Settle drops dead nodes and merges the unsorted tail into the sorted prefix.
  void Settle() const {
    if (sorted_ == order_.size() && dead_ == 0) return;
    ++epoch_;
    if (dead_ > 0) {
      size_t kept = 0;
      for (size_t i = 0; i < sorted_; ++i) {
        if (order_[i]->dead) {
          delete order_[i];
        } else {
          order_[kept++] = order_[i];
        }
      }
      order_.erase(order_.begin() + static_cast<std::ptrdiff_t>(kept),
                   order_.begin() + static_cast<std::ptrdiff_t>(sorted_));
      sorted_ = kept;
      dead_ = 0;
    }
    const auto tail = order_.begin() + static_cast<std::ptrdiff_t>(sorted_);
    std::sort(tail, order_.end(), NodeLess);
    for (auto it = tail; it != order_.end(); ++it) (*it)->pending = false;
    const size_t fresh = order_.size() - sorted_;
    if (fresh * 32 < sorted_) {
      MergeFew();
    } else {
      std::inplace_merge(order_.begin(), tail, order_.end(), NodeLess);  // reads every key
    }
    sorted_ = order_.size();
  }

  // MergeFew places a short sorted tail into the long sorted prefix from the back: each new
  // node finds its place by binary search (a few key reads, not one per entry), and the entries
  // after it move up in one block.
  void MergeFew() const {
    const std::vector<Node*> fresh(order_.begin() + static_cast<std::ptrdiff_t>(sorted_),
                                   order_.end());
    size_t unmoved = sorted_;      // order_[0, unmoved) are still in their old places
    size_t out = order_.size();  // order_[out, end) are final
    for (size_t i = fresh.size(); i-- > 0;) {
      const auto first = order_.begin();
      const auto at = std::lower_bound(first, first + static_cast<std::ptrdiff_t>(unmoved),
                                       fresh[i], NodeLess);
      const auto stop = first + static_cast<std::ptrdiff_t>(unmoved);
      std::move_backward(at, stop, first + static_cast<std::ptrdiff_t>(out));
      out -= static_cast<size_t>(stop - at);
      order_[--out] = fresh[i];
      unmoved = static_cast<size_t>(at - first);
    }
  }

  void FreeNodes() {
    for (Node* node : order_) delete node;
  }

  // order_[0, sorted_) is sorted by key and may hold dead nodes; order_[sorted_, end) are the
  // live nodes inserted since, each knowing its slot. Settling reorders but changes no entry,
  // so a const walk may settle: the three are mutable. epoch_ counts reorderings.
  mutable std::vector<Node*> order_;
  mutable size_t sorted_ = 0;
  mutable size_t dead_ = 0;
  mutable uint64_t epoch_ = 0;
  size_t size_ = 0;  // live entries
  // Invariant: index_ holds exactly the live nodes, each under its own key.
  StringIndex<NodeRef> index_;
};

}  // namespace base
