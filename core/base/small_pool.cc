#include "core/base/small_pool.h"

namespace base {

SmallPool::State SmallPool::state_ = {};

void* SmallPool::Carve(size_t cls) {
  State& s = state_;
  const size_t bytes = BlockBytes(cls);
  if (static_cast<size_t>(s.tail_end - s.tail) < bytes) {
    // The old tail (a multiple of 16 bytes, under the block asked for) goes to the free list of
    // its size rather than being lost.
    while (s.tail != s.tail_end) {
      const size_t left = static_cast<size_t>(s.tail_end - s.tail);
      const size_t give = ClassOf(left > kMaxBlock ? kMaxBlock : left);
      s.lists.Push(s.tail, give, BlockBytes(give));
      s.tail += BlockBytes(give);
    }
    s.tail = static_cast<char*>(::operator new(kChunkBytes));
    s.tail_end = s.tail + kChunkBytes;
    s.chunk_bytes += kChunkBytes;
  }
  void* block = s.tail;
  s.tail += bytes;
  return block;
}

}  // namespace base
