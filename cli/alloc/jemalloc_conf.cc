// jemalloc reads its options from this symbol at start-up (before MALLOC_CONF, which still
// overrides it). A scale run is memory-bound (its working set is ~0.5 GB of small JSON nodes), so:
// - thp:always backs the heap with transparent huge pages (madvise), cutting page faults from
//   ~133,000 to ~2,100 and the TLB misses of every map lookup;
// - dirty/muzzy_decay_ms:-1 keeps freed pages instead of returning them to the kernel only to
//   fault them in again a moment later (the run frees and reallocates versions all the time).
// Measured on 1,000 RayClusters: ~8.9 s -> ~6.8 s CPU, peak RSS 511 -> 546 MB
// (docs/performance.md, "Allocator configuration"). Linked only with jemalloc (cli/CMakeLists.txt).
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface.
const char* malloc_conf = "thp:always,metadata_thp:always,dirty_decay_ms:-1,muzzy_decay_ms:-1";
}
