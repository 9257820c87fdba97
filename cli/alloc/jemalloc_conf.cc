// jemalloc reads its options from this symbol at start-up (before MALLOC_CONF, which still
// overrides it). A scale run is memory-bound (its working set is hundreds of MB of small blocks),
// so:
// - thp:always backs the heap with transparent huge pages (the kernel's madvise mode), cutting
//   page faults of 1,000 RayClusters from ~133,000 to ~2,100 and the TLB misses of every lookup;
// - dirty/muzzy_decay_ms:-1 keeps freed pages instead of returning them to the kernel only to
//   fault them in again a moment later (a run frees and reallocates versions all the time).
// Linked only with jemalloc (CMakeLists.txt here); `rlab bench` reports it as allocator_conf.
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface.
const char* malloc_conf = "thp:always,metadata_thp:always,dirty_decay_ms:-1,muzzy_decay_ms:-1";
}
