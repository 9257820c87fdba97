#pragma once
// SlabHeap: the allocator for small blocks (size classes in steps of operator new's alignment, up
// to 256 bytes) behind the global operator new of the rlab runner and the page
// (cli/alloc/operator_new.cc). A simulation allocates tens of millions of small blocks (every
// JSON value of every object version, every std::string longer than the short-string buffer,
// every shared_ptr control block and std::function); here a request is a free-list pop or a bump,
// and a release a push. What it buys is in cli/alloc/README.md.
//
// Each slab is 64 KiB, aligned to 64 KiB, and holds blocks of one class, so a block's address
// names its class: a byte per 64 KiB page (one 64 KiB table covers wasm32's 4 GiB) says which
// class the page's slab serves, 0 for memory that is not a slab. Release therefore needs no size
// and no header, and tells the caller when a block is not its own (the system allocator's).
// Slabs come from std::aligned_alloc and are never returned: the heap's footprint is its peak.
// Single-threaded (the simulation has no threads); no time.

#include <cstddef>
#include <cstdint>

namespace alloc {

class SlabHeap {
 public:
  // operator new's alignment: 8 bytes on wasm32 (Emscripten's max_align_t), 16 on x86-64,
  // where compilers may use aligned vector moves on what operator new returns.
  static constexpr size_t kGranule = __STDCPP_DEFAULT_NEW_ALIGNMENT__;
  static constexpr size_t kMaxBlock = 256;
  static constexpr size_t kSlabBytes = 64 * 1024;
  static constexpr size_t kBatchBytes = 16 * kSlabBytes;  // taken from the system at a time

  struct Stats {
    uint64_t slab_bytes = 0;  // taken from the system allocator (in batches), never returned
    uint64_t idle_bytes = 0;  // in free lists, the unused tails of slabs and unused slabs
  };

  // A block of at least `bytes` bytes, aligned to kGranule; null above kMaxBlock or when the
  // system allocator has no slab to give (the caller then asks the system allocator itself).
  static void* Allocate(size_t bytes) {
    if (bytes > kMaxBlock) return nullptr;
    const size_t cls = ClassOf(bytes);
    State& s = state_;
    if (FreeBlock* block = s.free[cls]) {
      s.free[cls] = block->next;
      s.free_bytes -= BlockBytes(cls);
      return block;
    }
    if (s.tail[cls] != s.tail_end[cls]) {
      void* block = s.tail[cls];
      s.tail[cls] += BlockBytes(cls);
      return block;
    }
    return Refill(cls);
  }

  // Takes `p` back when a slab holds it (true); false leaves it to the system allocator.
  static bool Release(void* p) noexcept {
    const uintptr_t address = reinterpret_cast<uintptr_t>(p);
    const uint8_t* classes = PageClasses(address);
    if (classes == nullptr) return false;
    const uint8_t mark = classes[PageOf(address)];
    if (mark == 0) return false;
    const size_t cls = mark - 1u;
    State& s = state_;
    FreeBlock* block = static_cast<FreeBlock*>(p);
    block->next = s.free[cls];
    s.free[cls] = block;
    s.free_bytes += BlockBytes(cls);
    return true;
  }

  // A memory probe subtracts idle_bytes: what the heap holds but nothing uses.
  static Stats GetStats();

  static size_t BlockBytes(size_t cls) { return (cls + 1) * kGranule; }
  static size_t ClassOf(size_t bytes) { return bytes == 0 ? 0 : (bytes - 1) / kGranule; }

 private:
  static constexpr size_t kClasses = kMaxBlock / kGranule;
  static constexpr int kPageBits = 16;  // log2(kSlabBytes)
  static constexpr size_t kPagesPerRegion = size_t{1} << 16;  // a region is 4 GiB of addresses
  static constexpr int kMaxRegions = 64;  // wasm32 has one; 64-bit test processes a few
  static_assert(kSlabBytes == size_t{1} << kPageBits, "a slab is one page of the class table");
  static_assert(kGranule >= alignof(std::max_align_t), "blocks aligned as malloc aligns them");
  static_assert(kClasses < 256, "a class + 1 fits the page table's byte");

  // A free block's first word links it to the next free block of its class (LIFO).
  struct FreeBlock {
    FreeBlock* next;
  };
  // One byte per 64 KiB page of a 4 GiB region: the class + 1 of the slab there, 0 if none.
  struct Region {
    uint64_t high;  // address >> 32
    uint8_t* classes;
  };
  // Plain data with constant initialisation and no destructor: blocks released by static
  // objects' destructors at exit still find the lists intact.
  struct State {
    FreeBlock* free[kClasses];
    uint64_t free_bytes;  // the bytes of every block in the free lists
    char* tail[kClasses];
    char* tail_end[kClasses];
    Region regions[kMaxRegions];
    int region_count;
    char* batch;  // the next slab of the current batch
    char* batch_end;
    uint64_t batch_bytes;
    uint64_t slack_bytes;  // the ends of slabs too short for one more block of their class
  };

  static size_t PageOf(uintptr_t address) {
    return static_cast<size_t>((static_cast<uint64_t>(address) >> kPageBits) &
                               (kPagesPerRegion - 1));
  }
  static const uint8_t* PageClasses(uintptr_t address) {
    const uint64_t high = static_cast<uint64_t>(address) >> 32;
    const State& s = state_;
    for (int i = 0; i < s.region_count; ++i) {
      if (s.regions[i].high == high) return s.regions[i].classes;
    }
    return nullptr;
  }
  static void* Refill(size_t cls);

  static State state_;
};

}  // namespace alloc
