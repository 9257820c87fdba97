#pragma once
// The memory seam of the executables: what serves their blocks, and how much of it their objects
// use. core/ allocates with plain new and std::allocator and reads no allocator state; the rlab
// runner and the page link rlab::alloc (CMakeLists.txt here), which puts the slab heap behind
// operator new (slab_heap.h) over jemalloc natively and Emscripten's dlmalloc in WebAssembly.
// Under the sanitizers only the probes below are linked, over the C library's allocator.
// Single-threaded; no time.

#include <cstdint>
#include <string>

namespace alloc {

// Name is the allocator behind operator new: the system's ("jemalloc", "dlmalloc", "libc") with
// "+slabs" once the slab heap has served a block (so it names what ran, not what was meant to).
std::string Name();

// Config is the allocator's configuration string (jemalloc's malloc_conf), or "".
std::string Config();

// SlabHeapBytes is what the slab heap took from the system allocator (its peak; 0 when unused).
uint64_t SlabHeapBytes();

// ObjectBytesInUse is what the process's objects use: the system allocator's bytes in use
// (dlmalloc's or glibc's mallinfo, jemalloc's stats.allocated) less the slab heap's idle
// blocks, which are in use for the system allocator yet free for new objects. The page's rewind
// checkpoints are measured with it (lab::RewindOptions::heap_in_use).
uint64_t ObjectBytesInUse();

}  // namespace alloc
