#pragma once
// Meter: the realm's budgets as counters that count the same natively and in WebAssembly.
// Mirrors: QuickJS's JSMallocFunctions and JS_SetInterruptHandler (quickjs.h), used the way
// quickjs-libc's interrupt handler is, but counting instead of reading a clock.
// Simplified: a memory budget in allocation units, not bytes (see Units below), because byte
// sizes differ between 64-bit and 32-bit targets.
// Determinism: every decision reads integer counters that the engine advances identically on
// both targets; no clock, no pointer values except identity (the pointer tables).

#include <cstddef>
#include <cstdint>

#include "quickjs.h"

namespace js {

// Limits bounds one realm. Each budget is checked at every step, so a runaway loop, allocation or
// recursion ends at the same step on every target.
struct Limits {
  // Steps one Eval or Call may run: a step is one QuickJS interrupt poll, at every function call
  // and every backward jump. Defaults to 10,000,000.
  int64_t steps = 10'000'000;
  // Allocation units live above the realm's own (its built-ins), at any moment (Meter::Units).
  // Defaults to 1,000,000: a million small objects, or about 250 MB in large blocks.
  int64_t memory_units = 1'000'000;
  // Nested function calls (JavaScript and host). Defaults to 200.
  int call_depth = 200;
};

// Why the last Eval or Call was stopped by the realm rather than by the module.
enum class StopReason { kNone, kSteps, kMemory, kCallDepth };

// Meter owns the allocator QuickJS runs on and the step counter. It must outlive the
// JSRuntime created with its Functions().
class Meter {
 public:
  explicit Meter(const Limits& limits);
  Meter(const Meter&) = delete;
  Meter& operator=(const Meter&) = delete;

  // Units weighs one allocation of size bytes: 1 for the allocation, plus kPageUnits for every
  // whole 4 KiB of it, so a unit is one small block or 256 bytes of a large one. Strings,
  // ArrayBuffers and arrays of values have the same size on both targets (JSValue is 16 bytes on
  // both: cmake/QuickJS.cmake), so their weight is the same; small structs weigh 1 whatever their
  // size, which differs between the targets. The atom table and Map/Set hash tables, arrays of
  // pointers, are weighed by their entries (8 bytes each) instead. NOTE: the shape hash table is
  // half as large in WebAssembly and weighed by its bytes.
  static constexpr int64_t kPageUnits = 16;
  static int64_t Units(size_t size) { return 1 + kPageUnits * static_cast<int64_t>(size >> 12); }

  const JSMallocFunctions* Functions() const;
  // Attach gives the meter the runtime it serves (for the pointer tables' identity) and the
  // context whose interrupt counter it drives.
  void Attach(JSRuntime* rt, JSContext* ctx);
  // SetBaseline makes the units live now the realm's own: the memory budget counts above them.
  void SetBaseline() {
    baseline_ = live_units_;
    armed_ = true;
  }

  // BeginCall resets the step count and the stop reason for one Eval or Call.
  void BeginCall();
  // OnPoll is the interrupt handler's body: true stops the engine (uncatchably).
  bool OnPoll();

  StopReason stop_reason() const { return stop_reason_; }
  int64_t steps() const { return steps_; }
  int64_t units_above_baseline() const { return live_units_ - baseline_; }
  int64_t peak_units_above_baseline() const { return peak_units_ - baseline_; }
  const Limits& limits() const { return limits_; }

 private:
  static void* Malloc(JSMallocState* s, size_t size);
  static void Free(JSMallocState* s, void* ptr);
  static void* Realloc(JSMallocState* s, void* ptr, size_t size);

  // Admit charges units for a new or grown block; false (and the memory stop) when the budget
  // would be exceeded. Once stopped, a reserve lets the engine build and throw its error.
  bool Admit(int64_t units);
  void Publish(JSMallocState* s);
  // GrowthOf is the change in units when the block at old_ptr goes from old_size to size bytes.
  int64_t GrowthOf(const void* old_ptr, size_t old_size, size_t size) const;

  Limits limits_;
  JSRuntime* rt_ = nullptr;
  JSContext* ctx_ = nullptr;
  // Invariant: live_units_ is the sum of Units() over the blocks QuickJS holds.
  int64_t live_units_ = 0;
  int64_t peak_units_ = 0;
  int64_t baseline_ = 0;
  bool armed_ = false;  // the memory budget applies once the baseline is set
  int64_t steps_ = 0;
  StopReason stop_reason_ = StopReason::kNone;
};

}  // namespace js
