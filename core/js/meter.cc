#include "core/js/meter.h"

#include <cstdlib>
#include <cstring>

#include "core/base/assert.h"
#include "hooks.h"

namespace js {
namespace {

// Each block carries its weight in a header, so Free and Realloc need no lookup. 16 bytes keep
// the block as aligned as malloc's own.
struct alignas(16) BlockHeader {
  int64_t units;
  uint64_t size;
};
static_assert(sizeof(BlockHeader) == 16, "the header keeps malloc's 16-byte alignment");

BlockHeader* HeaderOf(void* ptr) { return static_cast<BlockHeader*>(ptr) - 1; }

// QuickJS compares malloc_size with its GC threshold; it sees units scaled by 256 so the
// comparison decides the same way on both targets (engine/quickjs_unit.c).
constexpr int64_t kGcScale = 256;
// Units the engine may still allocate after the memory stop, to build and throw its error.
constexpr int64_t kReserveUnits = 4096;

Meter* MeterOf(JSMallocState* s) { return static_cast<Meter*>(s->opaque); }

}  // namespace

Meter::Meter(const Limits& limits) : limits_(limits) {}

const JSMallocFunctions* Meter::Functions() const {
  static const JSMallocFunctions kFunctions = {&Meter::Malloc, &Meter::Free, &Meter::Realloc,
                                               nullptr};
  return &kFunctions;
}

void Meter::Attach(JSRuntime* rt, JSContext* ctx) {
  rt_ = rt;
  ctx_ = ctx;
}

void Meter::BeginCall() {
  steps_ = 0;
  stop_reason_ = StopReason::kNone;
  peak_units_ = live_units_;
}

bool Meter::OnPoll() {
  if (ctx_ != nullptr) rlab_quickjs_poll_every_step(ctx_);
  if (stop_reason_ != StopReason::kNone) return true;  // memory stop: end even if caught
  if (++steps_ > limits_.steps) {
    stop_reason_ = StopReason::kSteps;
    return true;
  }
  if (rlab_quickjs_depth_exceeds(rt_, limits_.call_depth)) {
    stop_reason_ = StopReason::kCallDepth;
    return true;
  }
  return false;
}

bool Meter::Admit(int64_t units) {
  int64_t limit = baseline_ + limits_.memory_units;
  if (stop_reason_ == StopReason::kMemory) limit += kReserveUnits;
  if (armed_ && live_units_ + units > limit) {
    if (stop_reason_ == StopReason::kNone) stop_reason_ = StopReason::kMemory;
    return false;
  }
  return true;
}

void Meter::Publish(JSMallocState* s) {
  if (live_units_ > peak_units_) peak_units_ = live_units_;
  s->malloc_size = static_cast<size_t>(live_units_ * kGcScale);
}

int64_t Meter::GrowthOf(const void* old_ptr, size_t old_size, size_t size) const {
  // Pointer tables (the atom table, a Map's or Set's hash table) are weighed as 8 bytes per
  // entry on every target. Their first allocation weighs 1 on both (a Map's holds 2 entries;
  // the atom table's predates the baseline, which absorbs the difference).
  if (rlab_quickjs_is_pointer_table(rt_, old_ptr)) {
    return Units(size / sizeof(void*) * 8) - Units(old_size / sizeof(void*) * 8);
  }
  return Units(size) - Units(old_size);
}

void* Meter::Malloc(JSMallocState* s, size_t size) {
  Meter* m = MeterOf(s);
  int64_t units = Units(size);
  if (!m->Admit(units)) return nullptr;
  void* raw = std::malloc(sizeof(BlockHeader) + size);
  if (raw == nullptr) return nullptr;
  auto* header = static_cast<BlockHeader*>(raw);
  header->units = units;
  header->size = size;
  m->live_units_ += units;
  s->malloc_count++;
  m->Publish(s);
  return header + 1;
}

void Meter::Free(JSMallocState* s, void* ptr) {
  if (ptr == nullptr) return;
  Meter* m = MeterOf(s);
  BlockHeader* header = HeaderOf(ptr);
  m->live_units_ -= header->units;
  RLAB_ASSERT(m->live_units_ >= 0, "a block freed twice or not from this meter");
  s->malloc_count--;
  m->Publish(s);
  std::free(header);
}

void* Meter::Realloc(JSMallocState* s, void* ptr, size_t size) {
  if (ptr == nullptr) return size == 0 ? nullptr : Malloc(s, size);
  if (size == 0) {
    Free(s, ptr);
    return nullptr;
  }
  Meter* m = MeterOf(s);
  BlockHeader* header = HeaderOf(ptr);
  int64_t growth = m->GrowthOf(ptr, header->size, size);
  if (growth > 0 && !m->Admit(growth)) return nullptr;
  void* raw = std::realloc(header, sizeof(BlockHeader) + size);
  if (raw == nullptr) return nullptr;
  header = static_cast<BlockHeader*>(raw);
  header->units += growth;
  header->size = size;
  m->live_units_ += growth;
  m->Publish(s);
  return header + 1;
}

}  // namespace js
