#pragma once
// Budget: how much work one command may do and how much the sandbox may hold, so that no input —
// a typed command, a lesson, a pasted script, a share link — can hang the page or exhaust its
// memory. One budget serves every command that advances time or replays (run, step, wait, a
// waiting delete, a rewind's replay, a share link's replay): it counts scheduler events, never
// bytes or wall time, so a command stops at the same event natively and in WebAssembly.
// At the budget a command stops cleanly: the clock stays at the last event processed, queued
// events stay queued, the simulation stays usable, and the error says what was reached and which
// command continues (docs/lab-language.md, "Budgets").
// The live-object caps act like a ResourceQuota the sandbox applies to every namespace and
// component: creates past them are refused with 403 "exceeded quota: sandbox", so no manifest
// (a RayCluster of 2147483647 replicas) can exhaust memory.
// No Go counterpart (TigerBeetle and FoundationDB bound their simulators' runs the same way).
// Single-threaded.

#include <cstddef>
#include <cstdint>

namespace lab {

struct Budget {
  // events is how many scheduler events one command may run. Defaults to kDefaultEvents.
  uint64_t events = kDefaultEvents;
  // pods is how many Pods may be stored at once (0: no cap). Defaults to kDefaultPods.
  size_t pods = kDefaultPods;
  // objects is how many objects of every kind may be stored at once (0: no cap). Defaults to
  // kDefaultObjects.
  size_t objects = kDefaultObjects;

  // The defaults keep one command near a second and a few hundred MB natively: a busy cluster
  // runs on the order of a million events in two seconds, and the 11,000-Pod scale scenario,
  // trace included, peaks near 250 MB (docs/performance.md).
  static constexpr uint64_t kDefaultEvents = 1'000'000;
  static constexpr size_t kDefaultPods = 5'000;
  static constexpr size_t kDefaultObjects = 50'000;

  // ForScale is the raised budget `rlab bench` runs its scale scenarios with (it says so): room
  // for `pods` Pods, their objects and the events to start them all in one command.
  static Budget ForScale(int64_t pods) {
    Budget b;
    const uint64_t n = pods > 0 ? static_cast<uint64_t>(pods) : 0;
    b.events = 100'000'000 + 200 * n;
    b.pods = static_cast<size_t>(2 * n + 1'000);
    b.objects = static_cast<size_t>(20 * n + 50'000);
    return b;
  }
};

}  // namespace lab
