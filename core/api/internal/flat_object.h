#pragma once
// FlatObject is the member map of a JSON object: one sorted block of (key, value) pairs instead
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
//
// Sharing: ShareFrom makes an object view another's members without copying them; the API
// server's status writes give a Pod's new version the spec of the version it replaces this way
// (api::ShareStored). The members live in one counted block. A plain copy still copies them, so
// only what ShareFrom joined is ever shared, and inserting or erasing in a shared object first
// gives it a copy of its own. One thing cannot be made safe here, so it is a rule instead:
// nlohmann reads a const document through the non-const find and begin, so those cannot copy: a
// write through at, find or an iterator into a shared object reaches every sharer. (nlohmann's
// own destructor, which moves an object's members out to free them, would empty them for every
// sharer too; api::Json's destructor is replaced for that, object.h.)
// Sanitizer builds hash a block's members when it becomes shared and abort if a sharer lets go of
// it with different members, so a test that breaks the rule fails.
// Single-threaded; no time.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <functional>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/api/internal/interned_key.h"

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
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = value_type&;
  using const_reference = const value_type&;
  using iterator = value_type*;
  using const_iterator = const value_type*;

  FlatObject() = default;
  explicit FlatObject(const Allocator&) {}
  template <class InputIt>
  FlatObject(InputIt first, InputIt last, const Allocator& = Allocator()) {
    insert(first, last);
  }
  FlatObject(std::initializer_list<value_type> init, const Allocator& = Allocator()) {
    insert(init.begin(), init.end());
  }
  // A copy has members of its own, even when `other` shares its members (ShareFrom).
  FlatObject(const FlatObject& other) : rep_(Clone(other.rep_)) {}
  FlatObject(FlatObject&& other) noexcept : rep_(other.rep_) { other.rep_ = nullptr; }
  FlatObject& operator=(const FlatObject& other) {
    if (this != &other) {
      Rep* fresh = Clone(other.rep_);
      Drop();
      rep_ = fresh;
    }
    return *this;
  }
  FlatObject& operator=(FlatObject&& other) noexcept {
    if (this != &other) {
      Drop();
      rep_ = other.rep_;
      other.rep_ = nullptr;
    }
    return *this;
  }
  ~FlatObject() { Drop(); }

  // ShareFrom makes this object view `other`'s members (replacing its own) until either side
  // inserts or erases. Only for documents that are stored immutable right after (see above).
  void ShareFrom(const FlatObject& other) {
    if (other.rep_ == rep_) return;
    Drop();
    rep_ = other.rep_;
    if (rep_ == nullptr) return;
#ifdef RLAB_FLAT_OBJECT_CHECK
    if (rep_->refs == 1) rep_->hash = DeepHash(rep_);
#endif
    ++rep_->refs;
  }
  // shared is true while another object views the same members.
  bool shared() const noexcept { return rep_ != nullptr && rep_->refs > 1; }
  // SameMembers is true when both view one block (ShareFrom): equal without comparing.
  bool SameMembers(const FlatObject& other) const noexcept {
    return rep_ != nullptr && rep_ == other.rep_;
  }

  iterator begin() noexcept { return Items(rep_); }
  iterator end() noexcept { return Items(rep_) + size(); }
  const_iterator begin() const noexcept { return Items(rep_); }
  const_iterator end() const noexcept { return Items(rep_) + size(); }
  const_iterator cbegin() const noexcept { return begin(); }
  const_iterator cend() const noexcept { return end(); }

  bool empty() const noexcept { return size() == 0; }
  size_type size() const noexcept { return rep_ == nullptr ? 0 : rep_->size; }
  size_type max_size() const noexcept { return std::numeric_limits<std::uint32_t>::max(); }
  // reserve makes room for n members; a builder that knows its size inserts without regrowing.
  void reserve(size_type n) {
    Own();
    if (n > Capacity()) Regrow(n);
  }
  // clear drops the members; an object that shared them lets go of the block instead.
  void clear() noexcept {
    if (rep_ == nullptr) return;
    if (rep_->refs > 1) {
      Drop();
      return;
    }
    DestroyItems(rep_);
  }

  template <class K>
  iterator find(const K& key) {
    return const_cast<iterator>(Locate(key));
  }
  template <class K>
  const_iterator find(const K& key) const {
    return Locate(key);
  }
  template <class K>
  size_type count(const K& key) const {
    return Locate(key) == cend() ? 0 : 1;
  }

  template <class K>
  T& at(const K& key) {
    auto it = find(key);
    if (it == end()) OutOfRange();
    return it->second;
  }
  template <class K>
  const T& at(const K& key) const {
    auto it = find(key);
    if (it == end()) OutOfRange();
    return it->second;
  }

  template <class K>
  T& operator[](K&& key) {
    return emplace(std::forward<K>(key), T()).first->second;
  }

  // emplace keeps the existing member when the key is present, as std::map::emplace does.
  template <class K, class... Args>
  std::pair<iterator, bool> emplace(K&& key, Args&&... args) {
    Own();
    const std::string_view want = View(key);
    const size_type count = size();
    size_type at = count;
    // Members usually arrive in key order (parsing our own sorted output, copying): append fast.
    if (count != 0 && !Less(Items(rep_)[count - 1].first.view(), want)) {
      value_type* first = Items(rep_);
      if constexpr (std::is_same_v<std::decay_t<K>, InternedKey>) {
        // An interned key is present only as its own entry (interned_key.h): the writes that
        // replace a member of a copied object (a status field, say) find it by pointer, without
        // the ordered compares of a binary search.
        if (count <= kLinearScan) {
          for (size_type i = 0; i < count; ++i) {
            if (first[i].first == key) return {first + i, false};
          }
        }
      }
      auto less = [](const value_type& m, std::string_view k) { return Less(m.first.view(), k); };
      at = static_cast<size_type>(std::lower_bound(first, first + count, want, less) - first);
      if (at < count && !Less(want, first[at].first.view())) return {first + at, false};
    }
    // Built before anything moves: the arguments may refer into this object.
    value_type member(std::piecewise_construct, std::forward_as_tuple(std::forward<K>(key)),
                      std::forward_as_tuple(std::forward<Args>(args)...));
#ifdef RLAB_FLAT_OBJECT_CHECK
    Regrow(size() + 1);
#else
    if (size() == Capacity()) Regrow(size() == 0 ? 1 : 2 * size());  // as std::vector grows
#endif
    value_type* items = Items(rep_);
    const size_type n = rep_->size;
    if (at == n) {
      new (items + n) value_type(std::move(member));
    } else {
      new (items + n) value_type(std::move(items[n - 1]));
      std::move_backward(items + at, items + n - 1, items + n);
      items[at] = std::move(member);
    }
    ++rep_->size;
    return {items + at, true};
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
    const size_type from = static_cast<size_type>(first - cbegin());
    const size_type count = static_cast<size_type>(last - first);
    if (count == 0) return begin() + from;
    Own();
#ifdef RLAB_FLAT_OBJECT_CHECK
    Regrow(size());
#endif
    value_type* items = Items(rep_);
    const size_type n = rep_->size;
    std::move(items + from + count, items + n, items + from);
    for (size_type i = n - count; i < n; ++i) items[i].~value_type();
    rep_->size = static_cast<std::uint32_t>(n - count);
    return items + from;
  }
  template <class K>
  size_type erase(const K& key) {
    auto it = Locate(key);
    if (it == cend()) return 0;
    erase(it);
    return 1;
  }

  friend bool operator==(const FlatObject& a, const FlatObject& b) {
    return a.rep_ == b.rep_ || std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator!=(const FlatObject& a, const FlatObject& b) { return !(a == b); }
  friend bool operator<(const FlatObject& a, const FlatObject& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator>(const FlatObject& a, const FlatObject& b) { return b < a; }
  friend bool operator<=(const FlatObject& a, const FlatObject& b) { return !(b < a); }
  friend bool operator>=(const FlatObject& a, const FlatObject& b) { return !(a < b); }

 private:
  // Rep is one block: this header, then `capacity` members. refs counts the objects viewing it.
  struct alignas(16) Rep {
    std::uint32_t refs;
    std::uint32_t size;
    std::uint32_t capacity;
    std::uint32_t hash;  // sanitizer builds: the members' deep hash while shared
  };
  using RepAllocator = typename std::allocator_traits<Allocator>::template rebind_alloc<Rep>;

  static value_type* Items(Rep* rep) noexcept {
    // Here, not at class scope: T (the document type) is incomplete where nlohmann names this.
    static_assert(alignof(value_type) <= alignof(Rep), "members follow the header");
    return rep == nullptr ? nullptr : reinterpret_cast<value_type*>(rep + 1);
  }
  static const value_type* Items(const Rep* rep) noexcept {
    return rep == nullptr ? nullptr : reinterpret_cast<const value_type*>(rep + 1);
  }
  size_type Capacity() const noexcept { return rep_ == nullptr ? 0 : rep_->capacity; }
  // Units of sizeof(Rep) for a block of `capacity` members.
  static size_type Units(size_type capacity) {
    return 1 + (capacity * sizeof(value_type) + sizeof(Rep) - 1) / sizeof(Rep);
  }
  static Rep* Allocate(size_type capacity) {
    RepAllocator alloc;
    Rep* rep = alloc.allocate(Units(capacity));
    rep->refs = 1;
    rep->size = 0;
    rep->capacity = static_cast<std::uint32_t>(capacity);
    rep->hash = 0;
    return rep;
  }
  static void Deallocate(Rep* rep) noexcept {
    RepAllocator alloc;
    alloc.deallocate(rep, Units(rep->capacity));
  }
  static void DestroyItems(Rep* rep) noexcept {
    value_type* items = Items(rep);
    for (std::uint32_t i = 0; i < rep->size; ++i) items[i].~value_type();
    rep->size = 0;
  }
  // Clone copies a block's members into a new block of their own (null for none).
  static Rep* Clone(const Rep* from) {
    if (from == nullptr || from->size == 0) return nullptr;
    Rep* rep = Allocate(from->size);
    const value_type* src = Items(from);
    value_type* dst = Items(rep);
#if defined(__cpp_exceptions)
    try {
      for (; rep->size < from->size; ++rep->size) new (dst + rep->size) value_type(src[rep->size]);
    } catch (...) {
      DestroyItems(rep);
      Deallocate(rep);
      throw;
    }
#else
    for (; rep->size < from->size; ++rep->size) new (dst + rep->size) value_type(src[rep->size]);
#endif
    return rep;
  }
  // OutOfRange is std::map::at's failure: an exception, or an abort where exceptions are off
  // (the WebAssembly core, RLAB_WASM_CORE_EXCEPTIONS=OFF), as nlohmann's own throws become.
  [[noreturn]] static void OutOfRange() {
#if defined(__cpp_exceptions)
    throw std::out_of_range("key not found");
#else
    std::fputs("api::FlatObject::at: key not found\n", stderr);
    std::abort();
#endif
  }
  // Drop lets go of the block; the last viewer destroys it.
  void Drop() noexcept {
    if (rep_ == nullptr) return;
#ifdef RLAB_FLAT_OBJECT_CHECK
    if (rep_->refs > 1) CheckUnchanged(rep_);
#endif
    if (--rep_->refs == 0) {
      DestroyItems(rep_);
      Deallocate(rep_);
    }
    rep_ = nullptr;
  }
  // Own gives this object members of its own before it inserts or erases.
  void Own() {
    if (rep_ == nullptr || rep_->refs == 1) return;
    Rep* fresh = Clone(rep_);
    Drop();
    rep_ = fresh;
  }
  // Regrow moves the members to a new block with room for `capacity` (at least their number).
  void Regrow(size_type capacity) {
    Rep* fresh = Allocate(capacity);
    if (rep_ != nullptr) {
      value_type* src = Items(rep_);
      value_type* dst = Items(fresh);
      for (std::uint32_t i = 0; i < rep_->size; ++i) {
        new (dst + i) value_type(std::move(src[i]));
        src[i].~value_type();
      }
      fresh->size = rep_->size;
      rep_->size = 0;
      Deallocate(rep_);
    }
    rep_ = fresh;
  }

#ifdef RLAB_FLAT_OBJECT_CHECK
  static std::uint32_t DeepHash(const Rep* rep) {
    std::size_t h = rep->size;
    for (const value_type* m = Items(rep); m != Items(rep) + rep->size; ++m) {
      h = h * 1000003u ^ std::hash<std::string_view>()(m->first.view());
      h = h * 1000003u ^ std::hash<T>()(m->second);
    }
    return static_cast<std::uint32_t>(h ^ (h >> 32));
  }
  static void CheckUnchanged(const Rep* rep) {
    if (DeepHash(rep) != rep->hash) {
      std::fputs("api::FlatObject: a shared object was written in place\n", stderr);
      std::abort();
    }
  }
#endif

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
  // longest is ~25 bytes), and for them the call costs more than the compare (as memcmp calls,
  // this scan's compares are ~2 % of the scale run's instructions natively; in WebAssembly
  // memcmp is a plain loop behind a call).
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

  // Less is the order std::less<> gives the keys (std::string's, bytes compared unsigned),
  // decided eight bytes at a time without calling memcmp: a key is inserted out of order by a
  // binary search of such compares (a kubelet's status, a defaulted spec), and the call cost
  // more than the compare (most keys differ in their first word). Byte-swapped, a little-endian
  // word orders as its bytes do.
  static bool Less(std::string_view a, std::string_view b) {
    const size_t n = a.size() < b.size() ? a.size() : b.size();
    size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; i + 8 <= n; i += 8) {
      std::uint64_t x, y;
      std::memcpy(&x, a.data() + i, 8);
      std::memcpy(&y, b.data() + i, 8);
      if (x != y) return __builtin_bswap64(x) < __builtin_bswap64(y);
    }
#endif
    for (; i < n; ++i) {
      if (a[i] != b[i]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
    }
    return a.size() < b.size();
  }

  // Position is the index of the first member whose key is not less than `want`.
  size_type Position(std::string_view want) const {
    if (rep_ == nullptr) return 0;
    const value_type* first = Items(rep_);
    const size_type n = rep_->size;
    // Members usually arrive in key order (parsing our own sorted output, copying): append fast.
    if (n == 0 || Less(first[n - 1].first.view(), want)) return n;
    auto less = [](const value_type& m, std::string_view k) { return Less(m.first.view(), k); };
    return static_cast<size_type>(std::lower_bound(first, first + n, want, less) - first);
  }

  // The lookups read the block's bounds once: they run for every field read.
  template <class K>
  const_iterator Locate(const K& key) const {
    if (rep_ == nullptr) return nullptr;
    const std::string_view want = View(key);
    const value_type* first = Items(rep_);
    const value_type* last = first + rep_->size;
    if (rep_->size <= kLinearScan) {
      for (const value_type* it = first; it != last; ++it) {
        if (it->first.size() == want.size() &&
            SameBytes(it->first.data(), want.data(), want.size())) {
          return it;
        }
      }
      return last;
    }
    const value_type* it = first + Position(want);
    return it != last && !Less(want, it->first.view()) ? it : last;
  }

  // An interned key is found by its entry (equal texts share one, interned_key.h), so find,
  // count, at and erase with one compare pointers only.
  const_iterator Locate(const InternedKey& key) const {
    if (rep_ == nullptr) return nullptr;
    const value_type* first = Items(rep_);
    const value_type* last = first + rep_->size;
    if (rep_->size <= kLinearScan) {
      for (const value_type* it = first; it != last; ++it) {
        if (it->first == key) return it;
      }
      return last;
    }
    const value_type* it = first + Position(key.view());
    return it != last && it->first == key ? it : last;
  }

  Rep* rep_ = nullptr;  // null: no members and no block
};

}  // namespace api
