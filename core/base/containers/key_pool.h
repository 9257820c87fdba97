#pragma once
// KeyPool: one copy of each object key ("default/rc-0042-workers-worker-x7k2p") however many
// indexes hold it. Every cache indexes a Pod under each of its label pairs, its namespace and its
// controller; a std::string per set would make those copies about a tenth of the process at
// 11,000 Pods (docs/performance.md, "What each mechanism buys"). KeySet stores pointers into
// this pool instead; a key lives while any set holds it.
// Process-wide, like api::InternedKey's table, so two simulations (the page's rewind checkpoints)
// share their keys too. Single-threaded (the core has no threads); no time.

#include <cstddef>
#include <string>

namespace base::key_pool {

// Acquire returns the pool's copy of key, adding one reference (the copy is made on first use).
// The pointer stays valid until as many Release calls as Acquire calls were made for that key.
const std::string* Acquire(const std::string& key);
// Release drops one reference of a copy Acquire returned; the last reference frees it.
void Release(const std::string* pooled);
// Size is the number of distinct keys held (for tests and memory probes).
size_t Size();

}  // namespace base::key_pool
