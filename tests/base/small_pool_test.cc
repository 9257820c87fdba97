#include "core/base/small_pool.h"

#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace base {
namespace {

// Bytes the pool has handed out and not had back (the process's other users share the pool, so
// tests compare this before and after their own calls).
uint64_t PoolInUse() {
  const SmallPool::Stats s = SmallPool::GetStats();
  return s.chunk_bytes - s.idle_bytes;
}

uint64_t Rounded(size_t bytes) {
  constexpr size_t g = SmallPool::kGranule;
  return bytes == 0 ? g : (bytes + g - 1) / g * g;
}

constexpr bool kSmallPoolOn = SmallPool::kEnabled;  // off under AddressSanitizer

TEST(SmallPool, LiveBlocksNeverOverlapAndKeepTheirBytes) {
  // Random sizes across every class, the pass-through above kMaxBlock, and several chunks.
  std::mt19937 rng(7);
  std::uniform_int_distribution<size_t> size_of(1, SmallPool::kMaxBlock + 64);
  std::vector<std::pair<unsigned char*, size_t>> live;
  for (int i = 0; i < 20000; ++i) {
    if (!live.empty() && rng() % 3 == 0) {
      const size_t at = rng() % live.size();
      auto [p, n] = live[at];
      for (size_t k = 0; k < n; ++k) {
        ASSERT_EQ(p[k], static_cast<unsigned char>(n + k)) << "block of " << n;
      }
      SmallPool::Deallocate(p, n);
      live[at] = live.back();
      live.pop_back();
      continue;
    }
    const size_t n = size_of(rng);
    auto* p = static_cast<unsigned char*>(SmallPool::Allocate(n));
    ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % alignof(int64_t), 0u);
    for (size_t k = 0; k < n; ++k) p[k] = static_cast<unsigned char>(n + k);
    live.emplace_back(p, n);
  }
  std::set<std::pair<uintptr_t, uintptr_t>> spans;
  for (auto [p, n] : live) {
    spans.emplace(reinterpret_cast<uintptr_t>(p), reinterpret_cast<uintptr_t>(p) + n);
  }
  uintptr_t end = 0;
  for (auto [b, e] : spans) {
    EXPECT_GE(b, end) << "two live blocks overlap";
    end = e;
  }
  for (auto [p, n] : live) {
    for (size_t k = 0; k < n; ++k) ASSERT_EQ(p[k], static_cast<unsigned char>(n + k));
    SmallPool::Deallocate(p, n);
  }
}

TEST(SmallPool, AFreedBlockIsTheNextOneOfItsClass) {
  if (!kSmallPoolOn) GTEST_SKIP() << "pool off under AddressSanitizer";
  void* a = SmallPool::Allocate(40);
  SmallPool::Deallocate(a, 40);
  void* b = SmallPool::Allocate(33);  // same 48-byte class
  EXPECT_EQ(a, b);
  void* c = SmallPool::Allocate(49);  // the next class: not the freed 48-byte block
  EXPECT_NE(b, c);
  SmallPool::Deallocate(b, 33);
  SmallPool::Deallocate(c, 49);
}

TEST(SmallPool, CountsEveryByteHandedOutAndReturned) {
  if (!kSmallPoolOn) GTEST_SKIP() << "pool off under AddressSanitizer";
  // Enough 496-byte blocks to need many chunks, so the tails of old chunks are recycled too.
  const uint64_t before = PoolInUse();
  const uint64_t chunks_before = SmallPool::GetStats().chunk_bytes;
  std::vector<std::pair<void*, size_t>> blocks;
  uint64_t expected = 0;
  for (int i = 0; i < 5000; ++i) {
    const size_t n = i % 7 == 0 ? 17 : 496;
    blocks.emplace_back(SmallPool::Allocate(n), n);
    expected += Rounded(n);
  }
  EXPECT_EQ(PoolInUse() - before, expected);
  EXPECT_GT(SmallPool::GetStats().chunk_bytes, chunks_before);
  EXPECT_EQ(SmallPool::GetStats().chunk_bytes % SmallPool::kChunkBytes, 0u);
  // Larger requests are not the pool's: they change none of its figures.
  void* big = SmallPool::Allocate(SmallPool::kMaxBlock + 1);
  EXPECT_EQ(PoolInUse() - before, expected);
  SmallPool::Deallocate(big, SmallPool::kMaxBlock + 1);
  for (auto [p, n] : blocks) SmallPool::Deallocate(p, n);
  EXPECT_EQ(PoolInUse(), before);
  // Everything freed is reused: the same blocks again take no new chunk.
  const uint64_t chunks = SmallPool::GetStats().chunk_bytes;
  for (auto& [p, n] : blocks) p = SmallPool::Allocate(n);
  EXPECT_EQ(SmallPool::GetStats().chunk_bytes, chunks);
  for (auto [p, n] : blocks) SmallPool::Deallocate(p, n);
}

TEST(SmallPoolAllocator, BacksStandardContainers) {
  const uint64_t before = PoolInUse();
  {
    std::vector<int64_t, SmallPoolAllocator<int64_t>> v;
    for (int64_t i = 0; i < 50; ++i) v.push_back(i * i);  // 400 bytes at the end: a pool block
    EXPECT_EQ(v[49], 49 * 49);
    if (kSmallPoolOn) {
      EXPECT_EQ(PoolInUse() - before, Rounded(v.capacity() * sizeof(int64_t)));
    }
  }
  EXPECT_EQ(PoolInUse(), before);
  EXPECT_TRUE(SmallPoolAllocator<int>() == SmallPoolAllocator<char>());
}

}  // namespace
}  // namespace base
