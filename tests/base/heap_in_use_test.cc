#include "core/base/heap_in_use.h"

#include <cstdint>

#include <gtest/gtest.h>

namespace base {
namespace {

constexpr bool kPoolOn = SmallPool::kEnabled;  // off under AddressSanitizer

TEST(ObjectBytesInUse, LeavesOutTheIdleBlocksOfBothPools) {
  if (!kPoolOn) GTEST_SKIP() << "pool off under AddressSanitizer";
  // A freed block stays with its pool (in use for the system allocator) but is free for objects.
  void* small = SmallPool::Allocate(64);
  void* slab = SlabHeap::Allocate(48);
  ASSERT_NE(slab, nullptr);
  const uint64_t idle = SmallPool::GetStats().idle_bytes + SlabHeap::GetStats().idle_bytes;
  const uint64_t heap = idle + 1'000'000;
  EXPECT_EQ(ObjectBytesInUse(heap), 1'000'000u);
  SmallPool::Deallocate(small, 64);
  EXPECT_EQ(ObjectBytesInUse(heap), 1'000'000u - 64);
  ASSERT_TRUE(SlabHeap::Release(slab));
  const uint64_t slab_block = SlabHeap::BlockBytes(SlabHeap::ClassOf(48));
  EXPECT_EQ(ObjectBytesInUse(heap), 1'000'000u - 64 - slab_block);
  // A probe that reads less than the pools hold idle gives zero, never a wrapped-around figure.
  EXPECT_EQ(ObjectBytesInUse(0), 0u);
}

}  // namespace
}  // namespace base
