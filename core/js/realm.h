#pragma once
// Realm: one learner's JavaScript world — a QuickJS runtime and context with deterministic
// built-ins, an ES module, and budgets — behind a small C++ API of JSON text in and out.
// Mirrors: QuickJS's embedding API as qjs.c and quickjs-libc.c use it (JS_NewRuntime2,
// JS_NewContextRaw + JS_AddIntrinsic*, JS_Eval with JS_EVAL_TYPE_MODULE, JS_EvalFunction,
// JS_GetModuleNamespace, JS_ExecutePendingJob).
// Simplified: no module imports (no loader, no host files), no Date, no WeakRef or
// FinalizationRegistry, no Atomics; values cross the boundary as JSON text only.
// Determinism: Math.random draws from a generator seeded by the host; Math's inexact functions
// come from one libm on every target; budgets are counters (meter.h). Same module, seed and
// calls: same results and same errors at the same step, natively and in WebAssembly.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/js/meter.h"
#include "core/sim/prng.h"
#include "quickjs.h"

namespace js {

struct RealmOptions {
  // Seeds Math.random. Defaults to 1.
  uint64_t seed = 1;
  Limits limits;
};

// A host function takes its JavaScript arguments as a JSON array text and returns a JSON text
// (empty for undefined). A non-OK status is thrown into JavaScript as an Error whose `reason` is
// the status's Kubernetes reason and `code` its HTTP code, so a module can tell NotFound apart.
using HostFunction = std::function<base::StatusOr<std::string>(const std::string& args_json)>;

class Realm {
 public:
  // Create builds the runtime and context. The realm is single-threaded, like the simulation.
  static base::StatusOr<std::unique_ptr<Realm>> Create(const RealmOptions& options);
  ~Realm();
  Realm(const Realm&) = delete;
  Realm& operator=(const Realm&) = delete;

  // DefineHost makes fn callable as host.NAME(...) from the module. REQUIRES: before Eval.
  base::Status DefineHost(const std::string& name, HostFunction fn);

  // Eval compiles and runs source as an ES module named filename (used in error positions).
  // Errors: kInvalid for a syntax error, kInternal for an exception or a stack overflow,
  // kTimeout for the step budget, kRequestEntityTooLarge for the memory budget; each message
  // starts "FILE:LINE:COL: ". REQUIRES: called once.
  base::Status Eval(std::string_view source, const std::string& filename);

  // Call calls the module's export `name` with the arguments in args_json (a JSON array text)
  // and returns its result as JSON text ("null" for undefined). An async export's promise is
  // settled before Call returns (pending jobs run under the same budget). REQUIRES: Eval
  // succeeded.
  base::StatusOr<std::string> Call(const std::string& name, const std::string& args_json);

  // The counters of the last Eval or Call.
  int64_t last_steps() const { return meter_.steps(); }
  int64_t last_peak_units() const { return meter_.peak_units_above_baseline(); }
  int64_t live_units() const { return meter_.units_above_baseline(); }

 private:
  explicit Realm(const RealmOptions& options);
  base::Status Init();
  void BeginCall();
  // RunJobs runs pending promise jobs; false when one threw (the exception stays pending).
  bool RunJobs();
  base::Status Failure();
  double NextRandom();

  friend struct RealmCallbacks;

  RealmOptions options_;
  Meter meter_;  // must outlive rt_
  sim::Prng random_;
  JSRuntime* rt_ = nullptr;
  JSContext* ctx_ = nullptr;
  // Invariant: module_ns_ holds a reference to the module's namespace object once Eval
  // succeeded (evaluated_), and is JS_UNDEFINED before; freed before the context.
  JSValue module_ns_;
  JSValue host_object_;  // the global `host`, whose properties DefineHost adds
  std::vector<HostFunction> host_functions_;
  std::vector<std::string> host_names_;  // parallel to host_functions_
  bool evaluated_ = false;
  bool eval_called_ = false;
};

}  // namespace js
