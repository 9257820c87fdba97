#pragma once
// Turning the engine's pending exception into a base::Status that names the module's line.
// Mirrors: quickjs-libc's js_std_dump_error (name, message, then the `stack` frames), reduced to
// the first frame's file:line:column.
// Determinism: the message holds only the module's text positions and the realm's counters.

#include <string>

#include "core/base/status.h"
#include "core/js/meter.h"
#include "quickjs.h"

namespace js {

// ErrorKind is what stopped an Eval or Call; the Status code follows it (see ErrorCode).
enum class ErrorKind {
  kSyntax,         // the module does not parse: kInvalid
  kThrown,         // the module threw (an Error or any value): kInternal
  kStepBudget,     // Limits::steps ran out: kTimeout
  kMemoryBudget,   // Limits::memory_units ran out: kRequestEntityTooLarge
  kStackOverflow,  // Limits::call_depth, or the engine's own stack guard: kInternal
};

base::StatusCode ErrorCode(ErrorKind kind);
// KindName is the kind in words ("step budget exhausted").
const char* KindName(ErrorKind kind);

// TakeException consumes ctx's pending exception and returns the Status for it: "FILE:LINE:COL:
// Name: message" when the engine knows where, else "Name: message". stop says whether the
// meter stopped the engine (which then threw an uncatchable "interrupted").
base::Status TakeException(JSContext* ctx, StopReason stop, const Limits& limits);

}  // namespace js
