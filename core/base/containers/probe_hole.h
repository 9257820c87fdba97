#pragma once
// CloseProbeHole: erasing from an open-addressing table with linear probing, without tombstones
// (StringIndex, KeySet). The slot at `hole` was just vacated; every later entry of its run whose
// home slot (hash & mask) is not between the hole and itself moves up into the hole, so each
// entry stays reachable from its home without crossing a free slot, and a probe can still stop
// at the first free slot. Slot has a `hash` member and a default (free) value; is_free(slot)
// tells a free slot. slots.size() is a power of two, and the table has at least one free slot.
// Pure; no time.

#include <cstddef>
#include <vector>

namespace base {

template <class Slot, class IsFree>
void CloseProbeHole(std::vector<Slot>& slots, size_t hole, IsFree is_free) {
  const size_t mask = slots.size() - 1;
  for (size_t next = (hole + 1) & mask; !is_free(slots[next]); next = (next + 1) & mask) {
    const size_t home = slots[next].hash & mask;
    const bool home_after_hole =
        hole <= next ? (home > hole && home <= next) : (home > hole || home <= next);
    if (home_after_hole) continue;
    slots[hole] = slots[next];
    hole = next;
  }
  slots[hole] = Slot();
}

}  // namespace base
