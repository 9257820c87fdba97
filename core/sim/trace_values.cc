#include "core/sim/trace_values.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "core/base/containers/string_hash.h"

namespace sim::internal {
namespace {

// The text lives in chunks that never move, so the table's views stay valid as it grows.
class Pool {
 public:
  std::string_view Intern(std::string_view value) {
    // Most values are read from the same long-lived strings record after record (a watcher's
    // name, a client's user, a Pod version's name delivered to every watcher): a direct-mapped
    // cache by address answers those with one compare of the text instead of a hash probe. The
    // compare also rejects an address reused for other text.
    Recent& recent = recent_[RecentSlot(value)];
    if (recent.from == value.data() && recent.pooled.size() == value.size() &&
        std::memcmp(recent.pooled.data(), value.data(), value.size()) == 0) {
      return recent.pooled;
    }
    const std::string_view pooled = Find(value);
    recent = Recent{value.data(), pooled};
    return pooled;
  }
  TraceValuePoolStats stats() const { return stats_; }

 private:
  struct Recent {
    const char* from = nullptr;
    std::string_view pooled;
  };
  static constexpr size_t kRecentSlots = 1024;  // a power of two
  static size_t RecentSlot(std::string_view value) {
    const auto address = reinterpret_cast<uintptr_t>(value.data());
    return ((address >> 3) ^ (address >> 13) ^ value.size()) & (kRecentSlots - 1);
  }

  // Find looks value up in an open-addressing table of (hash, view) slots, adding it if new.
  std::string_view Find(std::string_view value) {
    const size_t hash = base::HashText(value) | 1;  // 0 marks an empty slot
    if (slots_.empty() || (stats_.values + 1) * 8 > slots_.size() * 5) Grow();
    const size_t mask = slots_.size() - 1;
    size_t i = hash & mask;
    for (; slots_[i].hash != 0; i = (i + 1) & mask) {
      if (slots_[i].hash == hash && slots_[i].view == value) return slots_[i].view;
    }
    const std::string_view kept = Store(value);
    slots_[i] = Slot{hash, kept};
    stats_.values += 1;
    stats_.bytes += value.size();
    return kept;
  }

  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 4096 : old.size() * 2, Slot{});
    const size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.hash == 0) continue;
      size_t i = slot.hash & mask;
      while (slots_[i].hash != 0) i = (i + 1) & mask;
      slots_[i] = slot;
    }
  }

  static constexpr size_t kChunkBytes = 64 * 1024;

  std::string_view Store(std::string_view value) {
    if (value.size() > kChunkBytes / 4) {  // a long value gets a block of its own
      chunks_.push_back(std::make_unique<char[]>(value.size()));
      std::copy(value.begin(), value.end(), chunks_.back().get());
      return std::string_view(chunks_.back().get(), value.size());
    }
    if (chunk_left_ < value.size()) {
      chunks_.push_back(std::make_unique<char[]>(kChunkBytes));
      chunk_at_ = chunks_.back().get();
      chunk_left_ = kChunkBytes;
    }
    char* at = chunk_at_;
    std::copy(value.begin(), value.end(), at);
    chunk_at_ += value.size();
    chunk_left_ -= value.size();
    return std::string_view(at, value.size());
  }

  struct Slot {
    size_t hash = 0;
    std::string_view view;
  };
  std::vector<Slot> slots_;  // a power of two in size; load factor at most 5/8
  Recent recent_[kRecentSlots];
  std::vector<std::unique_ptr<char[]>> chunks_;
  char* chunk_at_ = nullptr;
  size_t chunk_left_ = 0;
  TraceValuePoolStats stats_;
};

// Never destroyed: records may be read (hashed, printed) until the process ends.
Pool& ThePool() {
  static Pool* pool = new Pool();
  return *pool;
}

}  // namespace

std::string_view PoolTraceValue(std::string_view value) { return ThePool().Intern(value); }

TraceValuePoolStats GetTraceValuePoolStats() { return ThePool().stats(); }

}  // namespace sim::internal
