#include "cli/alloc/allocator.h"

#include <cstddef>

#include "cli/alloc/slab_heap.h"

#if defined(__EMSCRIPTEN__) || !defined(RLAB_ALLOC_JEMALLOC)
#include <malloc.h>
#endif

#ifdef RLAB_ALLOC_JEMALLOC
extern "C" {
extern const char* malloc_conf;  // jemalloc_conf.cc
int mallctl(const char* name, void* old_value, size_t* old_size, void* new_value,
            size_t new_size);
}
#endif

namespace alloc {
namespace {

const char* SystemName() {
#if defined(__EMSCRIPTEN__)
  return "dlmalloc";  // Emscripten's default malloc
#elif defined(RLAB_ALLOC_JEMALLOC)
  return "jemalloc";
#else
  return "libc";
#endif
}

uint64_t SystemBytesInUse() {
#if defined(__EMSCRIPTEN__)
  return static_cast<uint64_t>(mallinfo().uordblks);
#elif defined(RLAB_ALLOC_JEMALLOC)
  // jemalloc's statistics are a snapshot refreshed by advancing its epoch.
  uint64_t epoch = 1;
  size_t size = sizeof epoch;
  mallctl("epoch", &epoch, &size, &epoch, size);
  size_t allocated = 0;
  size = sizeof allocated;
  if (mallctl("stats.allocated", &allocated, &size, nullptr, 0) != 0) return 0;
  return allocated;
#else
  return static_cast<uint64_t>(mallinfo2().uordblks);
#endif
}

}  // namespace

std::string Name() {
  const std::string system = SystemName();
  return SlabHeapBytes() > 0 ? system + "+slabs" : system;
}

std::string Config() {
#ifdef RLAB_ALLOC_JEMALLOC
  return malloc_conf;
#else
  return "";
#endif
}

uint64_t SlabHeapBytes() { return SlabHeap::GetStats().slab_bytes; }

uint64_t ObjectBytesInUse() {
  const uint64_t in_use = SystemBytesInUse();
  const uint64_t idle = SlabHeap::GetStats().idle_bytes;
  return in_use > idle ? in_use - idle : 0;  // never below zero
}

}  // namespace alloc
