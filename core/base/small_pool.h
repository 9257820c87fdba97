#pragma once
// SmallPool: free lists of small blocks (16-byte size classes up to 512 bytes) carved from 64 KiB
// chunks, for the JSON documents that are every object's representation. A Pod is ~270 such
// blocks (one per string value, object, array and member buffer), copied for each status write
// and freed when its version leaves the watch history: 1,000 RayClusters make ~48 million small
// allocations. A pop or a push here is a few instructions: measured, it took 26 of jemalloc's 48
// million requests away and 6 % of the instructions natively, ~3 % of the time under Node
// (docs/performance.md, session 11).
// Blocks go back to their class's list, never to the system: the pool's footprint is its peak.
// Under AddressSanitizer (or with RLAB_SMALL_POOL_OFF defined) every request goes to operator new,
// so ASan still sees each block's lifetime and reports a use after free.
// Single-threaded (the core has no threads); no time.

#include <cstddef>
#include <cstdint>
#include <new>

#include "core/base/free_lists.h"

#if !defined(RLAB_SMALL_POOL_OFF) && defined(__SANITIZE_ADDRESS__)
#define RLAB_SMALL_POOL_OFF 1
#endif
#if !defined(RLAB_SMALL_POOL_OFF) && defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RLAB_SMALL_POOL_OFF 1
#endif
#endif

namespace base {

class SmallPool {
 public:
  static constexpr size_t kGranule = 16;
  static constexpr size_t kMaxBlock = 512;
  static constexpr size_t kChunkBytes = 64 * 1024;
#ifdef RLAB_SMALL_POOL_OFF
  static constexpr bool kEnabled = false;  // every request goes to operator new
#else
  static constexpr bool kEnabled = true;
#endif

  struct Stats {
    uint64_t chunk_bytes = 0;  // taken from the system allocator, never returned
    uint64_t idle_bytes = 0;   // in free lists and the unused tail of the current chunk
  };

  static void* Allocate(size_t bytes) {
#ifdef RLAB_SMALL_POOL_OFF
    return ::operator new(bytes);
#else
    if (bytes > kMaxBlock) return ::operator new(bytes);
    const size_t cls = ClassOf(bytes);
    if (void* block = state_.lists.Pop(cls, BlockBytes(cls))) return block;
    return Carve(cls);
#endif
  }

  static void Deallocate(void* p, [[maybe_unused]] size_t bytes) noexcept {
#ifdef RLAB_SMALL_POOL_OFF
    ::operator delete(p);
#else
    if (bytes > kMaxBlock) {
      ::operator delete(p);
      return;
    }
    const size_t cls = ClassOf(bytes);
    state_.lists.Push(p, cls, BlockBytes(cls));
#endif
  }

  // The embedder's heap probe subtracts idle_bytes: what the pool holds but nothing uses.
  static Stats GetStats() {
    return Stats{state_.chunk_bytes, state_.lists.idle_bytes + TailBytes()};
  }

 private:
  static constexpr size_t kClasses = kMaxBlock / kGranule;
  // Plain data with constant initialisation and no destructor: blocks freed by static objects'
  // destructors at exit still find the lists intact.
  struct State {
    FreeLists<kClasses> lists;  // the tail is added to their idle bytes by GetStats
    char* tail;
    char* tail_end;
    uint64_t chunk_bytes;
  };

  static size_t ClassOf(size_t bytes) { return bytes == 0 ? 0 : (bytes - 1) / kGranule; }
  static size_t BlockBytes(size_t cls) { return (cls + 1) * kGranule; }
  static uint64_t TailBytes() { return static_cast<uint64_t>(state_.tail_end - state_.tail); }
  static void* Carve(size_t cls);

  static State state_;
};

// SmallPoolAllocator routes a container's allocations through SmallPool; stateless, so any two
// compare equal and memory allocated through one is freed through another.
template <class T>
struct SmallPoolAllocator {
  using value_type = T;
  SmallPoolAllocator() = default;
  template <class U>
  SmallPoolAllocator(const SmallPoolAllocator<U>&) {}  // NOLINT(runtime/explicit): rebinding
  T* allocate(size_t n) { return static_cast<T*>(SmallPool::Allocate(n * sizeof(T))); }
  void deallocate(T* p, size_t n) noexcept { SmallPool::Deallocate(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const SmallPoolAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const SmallPoolAllocator<U>&) const { return false; }
};

}  // namespace base
