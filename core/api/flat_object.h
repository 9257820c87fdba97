#pragma once
// FlatObject is the member map of a JSON object: one sorted vector of (key, value) pairs instead
// of one tree node per member. A Pod copied for a status write, a watch delivery or a template
// then costs one allocation per object rather than one per field, and a field read scans
// contiguous keys. Iteration order is the sorted key order std::map gave, so every document
// serialises byte for byte as before (traces, `-o yaml`, hashes). Keys are stored interned
// (interned_key.h): copying a member copies a pointer, and equal keys share one text.
//
// Unlike std::map, inserting or erasing a member moves its siblings: a reference or iterator into
// an object is invalidated by any insertion into or erasure from that same object (values of
// nested objects and arrays live on the heap and do not move). Take such references after the
// last insertion, or look the member up again. Sanitizer builds (RLAB_FLAT_OBJECT_CHECK, set with
// RLAB_SANITIZE) move the members to new storage on every insertion and erasure, so AddressSanitizer
// reports any use of a stale reference the tests reach, not only those that outgrow the capacity.
// Single-threaded; no time.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/api/interned_key.h"

namespace api {

template <class Key, class T, class Compare = std::less<>,
          class Allocator = std::allocator<std::pair<const Key, T>>>
class FlatObject {
 public:
  // key_type is what callers look up and insert with (nlohmann's std::string); members store it
  // interned (interned_key.h), which converts back to `const Key&` wherever nlohmann reads a key.
  using key_type = Key;
  using mapped_type = T;
  // The key is not const (std::map's is) so members can be shifted by move assignment; nothing
  // outside this class may change a key in place.
  using value_type = std::pair<InternedKey, T>;
  using key_compare = Compare;
  using allocator_type = typename std::allocator_traits<Allocator>::template rebind_alloc<value_type>;
  using Storage = std::vector<value_type, allocator_type>;
  using size_type = typename Storage::size_type;
  using difference_type = typename Storage::difference_type;
  using reference = value_type&;
  using const_reference = const value_type&;
  using iterator = typename Storage::iterator;
  using const_iterator = typename Storage::const_iterator;

  FlatObject() = default;
  explicit FlatObject(const Allocator&) {}
  template <class InputIt>
  FlatObject(InputIt first, InputIt last, const Allocator& = Allocator()) {
    insert(first, last);
  }
  FlatObject(std::initializer_list<value_type> init, const Allocator& = Allocator()) {
    insert(init.begin(), init.end());
  }

  iterator begin() noexcept { return items_.begin(); }
  iterator end() noexcept { return items_.end(); }
  const_iterator begin() const noexcept { return items_.begin(); }
  const_iterator end() const noexcept { return items_.end(); }
  const_iterator cbegin() const noexcept { return items_.cbegin(); }
  const_iterator cend() const noexcept { return items_.cend(); }

  bool empty() const noexcept { return items_.empty(); }
  size_type size() const noexcept { return items_.size(); }
  size_type max_size() const noexcept { return items_.max_size(); }
  // reserve makes room for n members; a builder that knows its size inserts without regrowing.
  void reserve(size_type n) { items_.reserve(n); }
  void clear() noexcept { items_.clear(); }

  template <class K>
  iterator find(const K& key) {
    return items_.begin() + (Locate(key) - items_.cbegin());
  }
  template <class K>
  const_iterator find(const K& key) const {
    return Locate(key);
  }
  template <class K>
  size_type count(const K& key) const {
    return Locate(key) == items_.cend() ? 0 : 1;
  }

  template <class K>
  T& at(const K& key) {
    auto it = find(key);
    if (it == end()) throw std::out_of_range("key not found");
    return it->second;
  }
  template <class K>
  const T& at(const K& key) const {
    auto it = find(key);
    if (it == end()) throw std::out_of_range("key not found");
    return it->second;
  }

  template <class K>
  T& operator[](K&& key) {
    return emplace(std::forward<K>(key), T()).first->second;
  }

  // emplace keeps the existing member when the key is present, as std::map::emplace does.
  template <class K, class... Args>
  std::pair<iterator, bool> emplace(K&& key, Args&&... args) {
#ifdef RLAB_FLAT_OBJECT_CHECK
    if (Locate(key) == items_.cend()) Relocate(1);
#endif
    auto pos = LowerBound(key);
    if (pos != items_.end() && !Less(View(key), pos->first.view())) return {pos, false};
    if (pos == items_.end()) {
      items_.emplace_back(std::piecewise_construct, std::forward_as_tuple(std::forward<K>(key)),
                          std::forward_as_tuple(std::forward<Args>(args)...));
      return {items_.end() - 1, true};
    }
    return {items_.emplace(pos, std::piecewise_construct,
                           std::forward_as_tuple(std::forward<K>(key)),
                           std::forward_as_tuple(std::forward<Args>(args)...)),
            true};
  }

  template <class P>
  std::pair<iterator, bool> insert(P&& member) {
    return emplace(std::forward<P>(member).first, std::forward<P>(member).second);
  }
  template <class InputIt>
  void insert(InputIt first, InputIt last) {
    for (; first != last; ++first) emplace(first->first, first->second);
  }

  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(iterator pos) { return erase(const_iterator(pos), const_iterator(pos) + 1); }
  iterator erase(const_iterator first, const_iterator last) {
#ifdef RLAB_FLAT_OBJECT_CHECK
    const auto from = first - items_.cbegin();
    const auto count = last - first;
    Relocate(0);
    first = items_.cbegin() + from;
    last = first + count;
#endif
    return items_.erase(first, last);
  }
  template <class K>
  size_type erase(const K& key) {
    auto it = Locate(key);
    if (it == items_.cend()) return 0;
    erase(it);
    return 1;
  }

  friend bool operator==(const FlatObject& a, const FlatObject& b) { return a.items_ == b.items_; }
  friend bool operator!=(const FlatObject& a, const FlatObject& b) { return !(a == b); }
  friend bool operator<(const FlatObject& a, const FlatObject& b) { return a.items_ < b.items_; }
  friend bool operator>(const FlatObject& a, const FlatObject& b) { return b < a; }
  friend bool operator<=(const FlatObject& a, const FlatObject& b) { return !(b < a); }
  friend bool operator>=(const FlatObject& a, const FlatObject& b) { return !(a < b); }

 private:
  // Objects are small (a Pod's largest has ~10 members): up to this size an equality scan, which
  // rejects most keys on their length, beats a binary search of ordered compares (Pod metadata
  // reads measured ~30 ns a lookup pair at 8, ~25 at 16).
  static constexpr size_type kLinearScan = 16;

  template <class K>
  static std::string_view View(const K& key) {
    return std::string_view(key);
  }
  static std::string_view View(const InternedKey& key) { return key.view(); }

  // SameBytes compares two keys of n bytes each without calling memcmp: keys are short (a Pod's
  // longest is ~25 bytes), and for them the call costs more than the compare (this scan's memcmp
  // calls were ~2 % of the scale run's instructions natively; in WebAssembly memcmp is a plain
  // loop behind a call).
  static bool SameBytes(const char* a, const char* b, size_t n) {
    for (; n >= 8; a += 8, b += 8, n -= 8) {
      std::uint64_t x, y;
      std::memcpy(&x, a, 8);
      std::memcpy(&y, b, 8);
      if (x != y) return false;
    }
    if (n >= 4) {
      std::uint32_t x, y;
      std::memcpy(&x, a, 4);
      std::memcpy(&y, b, 4);
      if (x != y) return false;
      a += 4, b += 4, n -= 4;
    }
    for (; n > 0; ++a, ++b, --n) {
      if (*a != *b) return false;
    }
    return true;
  }

  // Less is the order std::less<> gives the keys (std::string's, bytes compared unsigned).
  static bool Less(std::string_view a, std::string_view b) { return a < b; }

  // Position is the index of the first member whose key is not less than `want`.
  size_type Position(std::string_view want) const {
    auto less = [](const value_type& m, std::string_view k) { return Less(m.first.view(), k); };
    auto it = std::lower_bound(items_.cbegin(), items_.cend(), want, less);
    return static_cast<size_type>(it - items_.cbegin());
  }

  template <class K>
  const_iterator Locate(const K& key) const {
    const std::string_view want = View(key);
    if (items_.size() <= kLinearScan) {
      for (auto it = items_.cbegin(); it != items_.cend(); ++it) {
        if (it->first.size() == want.size() &&
            SameBytes(it->first.data(), want.data(), want.size())) {
          return it;
        }
      }
      return items_.cend();
    }
    auto it = items_.cbegin() + Position(want);
    return it != items_.cend() && !Less(want, it->first.view()) ? it : items_.cend();
  }

  // An interned key is found by its entry (equal texts share one, interned_key.h), so find,
  // count, at and erase with one compare pointers only.
  const_iterator Locate(const InternedKey& key) const {
    if (items_.size() <= kLinearScan) {
      for (auto it = items_.cbegin(); it != items_.cend(); ++it) {
        if (it->first == key) return it;
      }
      return items_.cend();
    }
    auto it = items_.cbegin() + Position(key.view());
    return it != items_.cend() && it->first == key ? it : items_.cend();
  }

  template <class K>
  iterator LowerBound(const K& key) {
    const std::string_view want = View(key);
    // Members usually arrive in key order (parsing our own sorted output, copying): append fast.
    if (items_.empty() || Less(items_.back().first.view(), want)) return items_.end();
    return items_.begin() + Position(want);
  }

#ifdef RLAB_FLAT_OBJECT_CHECK
  // Relocate moves every member to freshly allocated storage with room for `extra` more.
  void Relocate(size_type extra) {
    Storage fresh;
    fresh.reserve(items_.size() + extra);
    for (auto& m : items_) fresh.push_back(std::move(m));
    items_.swap(fresh);
  }
#endif

  Storage items_;
};

}  // namespace api
