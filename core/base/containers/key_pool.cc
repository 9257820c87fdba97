#include "core/base/containers/key_pool.h"

#include <cstdint>

#include "core/base/assert.h"
#include "core/base/containers/keyed_map.h"

namespace base::key_pool {
namespace {

// The map's nodes never move, so a pointer to a node's key is stable until that node is erased;
// the pool is never walked, so an erased node is freed at once.
using Pool = KeyedMap<uint32_t>;  // key -> references

// Never destroyed: sets in other static objects may release their keys after main returns.
Pool& ThePool() {
  static Pool* pool = new Pool();
  return *pool;
}

}  // namespace

const std::string* Acquire(const std::string& key) {
  auto [it, added] = ThePool().try_emplace(key, 0);
  ++it->second;
  return &it->first;
}

void Release(const std::string* pooled) {
  Pool& pool = ThePool();
  auto it = pool.find(*pooled);
  RLAB_ASSERT(it != pool.end() && &it->first == pooled, "released a key the pool does not hold");
  if (--it->second == 0) pool.erase(it);
}

size_t Size() { return ThePool().size(); }

}  // namespace base::key_pool
