#include "cli/alloc/slab_heap.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

// The slab heap is the runner's and the page's operator new (cli/alloc/operator_new.cc); the
// test binaries do not link that, so these tests see its whole state. They drive it directly.
namespace alloc {
namespace {

uint64_t InUse() {
  const SlabHeap::Stats s = SlabHeap::GetStats();
  return s.slab_bytes - s.idle_bytes;
}

TEST(SlabHeap, LiveBlocksNeverOverlapKeepTheirBytesAndComeBack) {
  // Random sizes across every class and many slabs; each live block is filled with its own byte
  // and checked before it goes back.
  const uint64_t in_use_before = InUse();
  std::mt19937 rng(11);
  std::uniform_int_distribution<size_t> size_of(0, SlabHeap::kMaxBlock);
  std::vector<std::pair<unsigned char*, size_t>> live;
  for (int i = 0; i < 40000; ++i) {
    if (!live.empty() && rng() % 3 == 0) {
      const size_t at = rng() % live.size();
      auto [p, n] = live[at];
      for (size_t k = 0; k < n; ++k) ASSERT_EQ(p[k], static_cast<unsigned char>(n)) << n;
      ASSERT_TRUE(SlabHeap::Release(p));
      live[at] = live.back();
      live.pop_back();
      continue;
    }
    const size_t n = size_of(rng);
    auto* p = static_cast<unsigned char*>(SlabHeap::Allocate(n));
    ASSERT_NE(p, nullptr);
    ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % SlabHeap::kGranule, 0u);
    std::memset(p, static_cast<int>(static_cast<unsigned char>(n)), n);
    live.emplace_back(p, n);
  }
  for (auto [p, n] : live) {
    for (size_t k = 0; k < n; ++k) ASSERT_EQ(p[k], static_cast<unsigned char>(n)) << n;
    ASSERT_TRUE(SlabHeap::Release(p));
  }
  EXPECT_EQ(InUse(), in_use_before);
}

TEST(SlabHeap, AReleasedBlockIsTheNextOneOfItsClassOnly) {
  constexpr size_t g = SlabHeap::kGranule;
  void* a = SlabHeap::Allocate(3 * g);
  void* keep = SlabHeap::Allocate(3 * g);
  ASSERT_TRUE(SlabHeap::Release(a));
  void* other_class = SlabHeap::Allocate(4 * g);
  EXPECT_NE(other_class, a);
  void* again = SlabHeap::Allocate(2 * g + 1);  // 2g+1 .. 3g bytes share one class
  EXPECT_EQ(again, a);
  for (void* p : {keep, other_class, again}) EXPECT_TRUE(SlabHeap::Release(p));
}

TEST(SlabHeap, LeavesLargeBlocksAndForeignMemoryToTheSystem) {
  EXPECT_EQ(SlabHeap::Allocate(SlabHeap::kMaxBlock + 1), nullptr);
  EXPECT_NE(SlabHeap::Allocate(SlabHeap::kMaxBlock), nullptr);  // the largest class (kept)
  // A block of the C allocator, wherever it lies, is not the heap's: Release says so and keeps
  // its hands off (the caller frees it).
  for (size_t n : {size_t{1}, size_t{64}, size_t{4096}, size_t{1} << 20}) {
    void* foreign = std::malloc(n);
    ASSERT_NE(foreign, nullptr);
    EXPECT_FALSE(SlabHeap::Release(foreign)) << n;
    std::free(foreign);
  }
  int on_stack = 0;
  EXPECT_FALSE(SlabHeap::Release(&on_stack));
}

TEST(SlabHeap, StatsCountIdleBlocksSoTheProbeSeesOnlyLiveOnes) {
  // Fill past one slab of the class of 40 bytes, so slabs, tails and free lists all take part.
  const size_t block = SlabHeap::BlockBytes(SlabHeap::ClassOf(40));
  const size_t per_slab = SlabHeap::kSlabBytes / block;
  const SlabHeap::Stats before = SlabHeap::GetStats();
  std::vector<void*> blocks;
  for (size_t i = 0; i < per_slab + 10; ++i) blocks.push_back(SlabHeap::Allocate(40));
  const SlabHeap::Stats full = SlabHeap::GetStats();
  EXPECT_EQ((full.slab_bytes - full.idle_bytes) - (before.slab_bytes - before.idle_bytes),
            blocks.size() * block);
  EXPECT_EQ(full.slab_bytes % SlabHeap::kBatchBytes, 0u);  // taken in whole batches
  for (void* p : blocks) ASSERT_TRUE(SlabHeap::Release(p));
  const SlabHeap::Stats after = SlabHeap::GetStats();
  EXPECT_EQ(after.slab_bytes, full.slab_bytes);  // never returned to the system
  EXPECT_EQ(after.slab_bytes - after.idle_bytes, before.slab_bytes - before.idle_bytes);
}

}  // namespace
}  // namespace alloc
