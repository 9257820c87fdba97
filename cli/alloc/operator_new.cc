// The slab heap (slab_heap.h) as the global operator new and delete: blocks up to
// SlabHeap::kMaxBlock come from it, larger ones (and any it cannot serve) from malloc. Compiled
// only into the executables that link rlab::alloc outside the sanitizer build (CMakeLists.txt
// here): the test binaries keep the C library's allocator, and AddressSanitizer sees every block.
// The C++ runtimes define these operators as weak symbols (libc++abi) or in a shared library
// (libstdc++), so these replace them at link time; the aligned variants stay the runtime's
// (aligned_alloc and free, never a slab).
#include <cstdlib>
#include <new>

#include "cli/alloc/slab_heap.h"

namespace {

void* AllocateOrNull(std::size_t bytes) noexcept {
  if (void* block = alloc::SlabHeap::Allocate(bytes)) return block;
  return std::malloc(bytes == 0 ? 1 : bytes);
}

void* AllocateOrThrow(std::size_t bytes) {
  void* block = AllocateOrNull(bytes);
#if defined(__cpp_exceptions)
  if (block == nullptr) throw std::bad_alloc();
#else
  if (block == nullptr) std::abort();  // what a failed new does without exceptions
#endif
  return block;
}

void Deallocate(void* block) noexcept {
  if (block != nullptr && !alloc::SlabHeap::Release(block)) std::free(block);
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
