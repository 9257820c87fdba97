#pragma once
// ObjectBytesInUse: what the objects of a process use, from what the system allocator reports
// in use (mallinfo's uordblks). The small pool's and the slab heap's idle blocks are in use for
// the system allocator, yet free for new objects, so both are left out: the rewind checkpoints'
// byte budget is measured this way (the page with dlmalloc, the tests with glibc).
// Single-threaded; no time.

#include <cstdint>

#include "core/base/slab_heap.h"
#include "core/base/small_pool.h"

namespace base {

// Never below zero: a probe that reads less than the pools hold idle gives 0.
inline uint64_t ObjectBytesInUse(uint64_t allocator_in_use) {
  const uint64_t idle = SmallPool::GetStats().idle_bytes + SlabHeap::GetStats().idle_bytes;
  return allocator_in_use > idle ? allocator_in_use - idle : 0;
}

}  // namespace base
