// The WebAssembly build's global operator new and delete: blocks up to SlabHeap::kMaxBlock come
// from the slab heap, larger ones (and any the slab heap cannot serve) from malloc. Natively this
// file is empty: the runner links jemalloc, and the tests keep the C library's allocator.
// libc++abi defines these operators as weak symbols, so these replace them at link time; the
// aligned variants stay libc++abi's (aligned_alloc and free, never a slab).
#include "core/base/slab_heap.h"

#ifdef __EMSCRIPTEN__

#include <cstdlib>
#include <new>

namespace {

void* AllocateOrNull(std::size_t bytes) noexcept {
  if (void* block = base::SlabHeap::Allocate(bytes)) return block;
  return std::malloc(bytes == 0 ? 1 : bytes);
}

void* AllocateOrThrow(std::size_t bytes) {
  void* block = AllocateOrNull(bytes);
  if (block == nullptr) throw std::bad_alloc();
  return block;
}

void Deallocate(void* block) noexcept {
  if (block != nullptr && !base::SlabHeap::Release(block)) std::free(block);
}

}  // namespace

void* operator new(std::size_t bytes) { return AllocateOrThrow(bytes); }
void* operator new[](std::size_t bytes) { return AllocateOrThrow(bytes); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
  return AllocateOrNull(bytes);
}
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
  return AllocateOrNull(bytes);
}
void operator delete(void* block) noexcept { Deallocate(block); }
void operator delete[](void* block) noexcept { Deallocate(block); }
void operator delete(void* block, std::size_t) noexcept { Deallocate(block); }
void operator delete[](void* block, std::size_t) noexcept { Deallocate(block); }
void operator delete(void* block, const std::nothrow_t&) noexcept { Deallocate(block); }
void operator delete[](void* block, const std::nothrow_t&) noexcept { Deallocate(block); }

#endif  // __EMSCRIPTEN__
