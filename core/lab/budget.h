#pragma once
// Budget: how much work one command may do and how much the sandbox may hold, so that no input —
// a typed command, a lesson, a pasted script, a share link — can hang the page or exhaust its
// memory. One budget serves every command that advances time or replays (run, step, wait, a
// waiting delete, a rewind's replay, a share link's replay): it counts scheduler events, never
// bytes or wall time, so a command stops at the same event natively and in WebAssembly.
// At the budget a command stops cleanly: the clock stays at the last event processed, queued
// events stay queued, the simulation stays usable, and the error says what was reached and which
// command continues (docs/lab-language.md, "Budgets").
// No Go counterpart (TigerBeetle and FoundationDB bound their simulators' runs the same way).
// Single-threaded.

#include <cstddef>
#include <cstdint>

namespace lab {

struct Budget {
  // events is how many scheduler events one command may run. Defaults to kDefaultEvents.
  uint64_t events = kDefaultEvents;

  // The default keeps one command near a second and a few hundred MB natively: a busy cluster
  // runs on the order of a million events in two seconds (docs/performance.md).
  static constexpr uint64_t kDefaultEvents = 1'000'000;

  // ForScale is the raised budget `rlab bench` runs its scale scenarios with (it says so): the
  // events to start `pods` Pods in one command.
  static Budget ForScale(int64_t pods) {
    Budget b;
    const uint64_t n = pods > 0 ? static_cast<uint64_t>(pods) : 0;
    b.events = 100'000'000 + 200 * n;
    return b;
  }
};

}  // namespace lab
