#pragma once
// TraceLog: the records of a trace, in fixed chunks that never move. A std::vector doubles and
// moves every record as it grows: at 346,125 records (`rlab bench rayclusters 1000`) its last
// growth would copy 262,144 records into a fresh 524,288-slot buffer, a third of which stays
// empty, and the buffers it leaves behind are memory first touched for nothing (natively and,
// more costly, in WebAssembly's heap). Here a record is written once, where it stays, and at
// most one chunk is partly empty.
// It reads like a const std::vector: size, operator[], back, and random-access iterators for
// range-for, std::lower_bound and reverse walks.
// Single-threaded; no time.

#include <cstddef>
#include <iterator>
#include <memory>
#include <vector>

namespace sim {

template <class T>
class ChunkedLog {
 public:
  // kChunk records per chunk: 4,096 (192 KiB natively) — a small tail, a short chunk index.
  static constexpr size_t kChunkBits = 12;
  static constexpr size_t kChunk = size_t{1} << kChunkBits;

  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;

    const_iterator() = default;
    reference operator*() const { return (*log_)[i_]; }
    pointer operator->() const { return &(*log_)[i_]; }
    reference operator[](difference_type n) const { return (*log_)[i_ + n]; }
    const_iterator& operator++() { ++i_; return *this; }
    const_iterator operator++(int) { const_iterator b = *this; ++i_; return b; }
    const_iterator& operator--() { --i_; return *this; }
    const_iterator operator--(int) { const_iterator b = *this; --i_; return b; }
    const_iterator& operator+=(difference_type n) { i_ += n; return *this; }
    const_iterator& operator-=(difference_type n) { i_ -= n; return *this; }
    friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
    friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
    friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }
    bool operator<(const const_iterator& o) const { return i_ < o.i_; }
    bool operator>(const const_iterator& o) const { return i_ > o.i_; }
    bool operator<=(const const_iterator& o) const { return i_ <= o.i_; }
    bool operator>=(const const_iterator& o) const { return i_ >= o.i_; }

   private:
    friend class ChunkedLog;
    const_iterator(const ChunkedLog* log, size_t i) : log_(log), i_(i) {}
    const ChunkedLog* log_ = nullptr;
    size_t i_ = 0;
  };
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  ChunkedLog() = default;
  ChunkedLog(const ChunkedLog&) = delete;
  ChunkedLog& operator=(const ChunkedLog&) = delete;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](size_t i) const { return chunks_[i >> kChunkBits][i & (kChunk - 1)]; }
  const T& front() const { return (*this)[0]; }
  const T& back() const { return (*this)[size_ - 1]; }

  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size_); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  void push_back(T&& value) {
    if ((size_ & (kChunk - 1)) == 0) {
      chunks_.emplace_back();
      chunks_.back().reserve(kChunk);  // never grows past this: records stay where they are
    }
    chunks_.back().push_back(std::move(value));
    ++size_;
  }

 private:
  std::vector<std::vector<T>> chunks_;  // Invariant: every chunk but the last holds kChunk.
  size_t size_ = 0;
};

}  // namespace sim
