#pragma once
// RLAB_ASSERT: always-on assertions for programmer errors (never for user input).
// No Go counterpart; follows TigerBeetle's "assertions stay on" and ImGui's message-carrying asserts.
// On failure it prints file:line, the message, and the simulation time and seed of the
// simulation that is running (so the failure can be replayed), then aborts.
// Single-threaded. The context pointer is the one piece of process-wide state in core/: it is
// diagnostics only and never read by simulation logic.

#include <cstdint>

namespace base {

// AssertContext is what a failing assertion reports so the run can be replayed.
struct AssertContext {
  const int64_t* now_us = nullptr;  // the running simulation's virtual clock
  uint64_t seed = 0;
};

// SetAssertContext installs ctx (may be null) and returns the previous one.
const AssertContext* SetAssertContext(const AssertContext* ctx);

[[noreturn]] void AssertFail(const char* file, int line, const char* cond, const char* message);

}  // namespace base

#define RLAB_ASSERT(cond, message)                                   \
  do {                                                               \
    if (!(cond)) ::base::AssertFail(__FILE__, __LINE__, #cond, message); \
  } while (0)
