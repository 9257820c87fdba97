#include "cli/alloc/slab_heap.h"

#include <cstdlib>

namespace alloc {

SlabHeap::State SlabHeap::state_ = {};

SlabHeap::Stats SlabHeap::GetStats() {
  const State& s = state_;
  uint64_t tails = 0;
  for (size_t cls = 0; cls < kClasses; ++cls) {
    tails += static_cast<uint64_t>(s.tail_end[cls] - s.tail[cls]);
  }
  const auto unused_slabs = static_cast<uint64_t>(s.batch_end - s.batch);
  return Stats{s.batch_bytes, s.free_bytes + s.slack_bytes + tails + unused_slabs};
}

void* SlabHeap::Refill(size_t cls) {
  State& s = state_;
  if (s.batch == s.batch_end) {
    // Straight from the C allocator (operator new may be this heap's own caller), a batch of
    // slabs at a time: dlmalloc's memalign leaves up to one alignment of free space in front of
    // each aligned block, which small requests (served here) would rarely reuse.
    char* batch = static_cast<char*>(std::aligned_alloc(kSlabBytes, kBatchBytes));
    if (batch == nullptr) return nullptr;
    s.batch = batch;
    s.batch_end = batch + kBatchBytes;
    s.batch_bytes += kBatchBytes;
  }
  char* slab = s.batch;
  const uintptr_t address = reinterpret_cast<uintptr_t>(slab);
  uint8_t* classes = const_cast<uint8_t*>(PageClasses(address));
  if (classes == nullptr) {
    if (s.region_count == kMaxRegions) return nullptr;  // the slab stays in the batch
    classes = static_cast<uint8_t*>(std::calloc(kPagesPerRegion, 1));
    if (classes == nullptr) return nullptr;
    s.regions[s.region_count++] = Region{static_cast<uint64_t>(address) >> 32, classes};
  }
  classes[PageOf(address)] = static_cast<uint8_t>(cls + 1);
  s.batch += kSlabBytes;
  // Whole blocks only: the remainder (under one block) is never handed out, so it counts as idle.
  const size_t block = BlockBytes(cls);
  const size_t usable = kSlabBytes / block * block;
  s.slack_bytes += kSlabBytes - usable;
  s.tail[cls] = slab + block;  // the first block is the one returned
  s.tail_end[cls] = slab + usable;
  return slab;
}

}  // namespace alloc
