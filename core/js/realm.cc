#include "core/js/realm.h"

#include <cstring>
#include <string>
#include <utility>

#include "core/js/error.h"
#include "hooks.h"

namespace js {
namespace {

// The C stack the engine's own guard allows (QuickJS's byte-based check): below both targets'
// stacks (8 MiB natively, Emscripten's 5 MiB shadow stack), so a deep nesting in the parser,
// JSON or RegExp is a clean "stack overflow" error; above what Limits::call_depth's default
// needs in WebAssembly (about 6.5 KiB of shadow stack per JavaScript call), so that the
// deterministic depth count, not this guard, stops a recursion.
constexpr size_t kNativeStackBytes = 2 * 1024 * 1024;

std::string ToStdString(JSContext* ctx, JSValueConst v) {
  size_t len = 0;
  const char* s = JS_ToCStringLen(ctx, &len, v);
  if (s == nullptr) return "";
  std::string out(s, len);
  JS_FreeCString(ctx, s);
  return out;
}

}  // namespace

// The C callbacks QuickJS calls, with access to the realm's private members.
struct RealmCallbacks {
  static int Interrupt(JSRuntime*, void* opaque) {
    return static_cast<Realm*>(opaque)->meter_.OnPoll() ? 1 : 0;
  }

  static JSValue Random(JSContext* ctx, JSValueConst, int, JSValueConst*) {
    auto* realm = static_cast<Realm*>(JS_GetContextOpaque(ctx));
    return JS_NewFloat64(ctx, realm->NextRandom());
  }

  static JSValue Host(JSContext* ctx, JSValueConst, int argc, JSValueConst* argv, int magic) {
    auto* realm = static_cast<Realm*>(JS_GetContextOpaque(ctx));
    JSValue args = JS_NewArray(ctx);
    if (JS_IsException(args)) return args;
    for (int i = 0; i < argc; ++i) {
      if (JS_SetPropertyUint32(ctx, args, i, JS_DupValue(ctx, argv[i])) < 0) {
        JS_FreeValue(ctx, args);
        return JS_EXCEPTION;
      }
    }
    JSValue text = JS_JSONStringify(ctx, args, JS_UNDEFINED, JS_UNDEFINED);
    JS_FreeValue(ctx, args);
    if (JS_IsException(text)) return text;
    std::string args_json = ToStdString(ctx, text);
    JS_FreeValue(ctx, text);

    base::StatusOr<std::string> result = realm->host_functions_[magic](args_json);
    if (!result.ok()) {
      JSValue error = JS_NewError(ctx);
      JS_SetPropertyStr(ctx, error, "message",
                        JS_NewString(ctx, result.status().message().c_str()));
      JS_SetPropertyStr(ctx, error, "reason", JS_NewString(ctx, result.status().reason()));
      JS_SetPropertyStr(ctx, error, "code", JS_NewInt32(ctx, result.status().http_code()));
      return JS_Throw(ctx, error);
    }
    if (result->empty()) return JS_UNDEFINED;
    if (rlab_quickjs_json_depth_exceeds(result->data(), result->size(), RLAB_JS_MAX_JSON_NESTING)) {
      return JS_ThrowSyntaxError(ctx, "host.%s: JSON nesting deeper than %d",
                                 realm->host_names_[magic].c_str(), RLAB_JS_MAX_JSON_NESTING);
    }
    return JS_ParseJSON(ctx, result->data(), result->size(), "<host>");
  }
};

Realm::Realm(const RealmOptions& options)
    : options_(options),
      meter_(options.limits),
      random_(options.seed),
      module_ns_(JS_UNDEFINED),
      host_object_(JS_UNDEFINED) {}

Realm::~Realm() {
  if (ctx_ != nullptr) {
    JS_FreeValue(ctx_, module_ns_);
    JS_FreeValue(ctx_, host_object_);
    JS_FreeContext(ctx_);
  }
  if (rt_ != nullptr) JS_FreeRuntime(rt_);
}

base::StatusOr<std::unique_ptr<Realm>> Realm::Create(const RealmOptions& options) {
  std::unique_ptr<Realm> realm(new Realm(options));
  base::Status status = realm->Init();
  if (!status.ok()) return status;
  return realm;
}

base::Status Realm::Init() {
  rt_ = JS_NewRuntime2(meter_.Functions(), &meter_);
  if (rt_ == nullptr) return base::Status(base::StatusCode::kInternal, "cannot create runtime");
  // No module loader: an import of anything fails to resolve (no host files).
  JS_SetInterruptHandler(rt_, &RealmCallbacks::Interrupt, this);
  JS_SetMaxStackSize(rt_, kNativeStackBytes);

  // JS_NewContext (quickjs.c) minus Date (a wall clock), WeakRef and FinalizationRegistry (they
  // expose when the GC runs) and String.prototype.normalize (not needed; saves its tables).
  ctx_ = JS_NewContextRaw(rt_);
  if (ctx_ == nullptr) return base::Status(base::StatusCode::kInternal, "cannot create context");
  JS_SetContextOpaque(ctx_, this);
  meter_.Attach(rt_, ctx_);
  JS_AddIntrinsicBaseObjects(ctx_);
  JS_AddIntrinsicEval(ctx_);
  JS_AddIntrinsicRegExp(ctx_);
  JS_AddIntrinsicJSON(ctx_);
  JS_AddIntrinsicProxy(ctx_);
  JS_AddIntrinsicMapSet(ctx_);
  JS_AddIntrinsicTypedArrays(ctx_);
  JS_AddIntrinsicPromise(ctx_);
  // Nesting limits for JSON.parse and compilation, Map/Set table weights (engine/hooks.h).
  rlab_quickjs_install_realm_hooks(ctx_);

  JSValue global = JS_GetGlobalObject(ctx_);
  // Atomics exists natively only (quickjs.c's CONFIG_ATOMICS); SharedArrayBuffer is pointless
  // without threads. Removing both makes the two targets' globals the same.
  for (const char* name : {"Atomics", "SharedArrayBuffer"}) {
    JSAtom atom = JS_NewAtom(ctx_, name);
    JS_DeleteProperty(ctx_, global, atom, 0);
    JS_FreeAtom(ctx_, atom);
  }
  JSValue math = JS_GetPropertyStr(ctx_, global, "Math");
  JS_SetPropertyStr(ctx_, math, "random",
                    JS_NewCFunction(ctx_, &RealmCallbacks::Random, "random", 0));
  JS_FreeValue(ctx_, math);
  host_object_ = JS_NewObject(ctx_);
  JS_SetPropertyStr(ctx_, global, "host", JS_DupValue(ctx_, host_object_));
  JS_FreeValue(ctx_, global);

  JS_RunGC(rt_);
  meter_.SetBaseline();
  return base::Status::OK();
}

base::Status Realm::DefineHost(const std::string& name, HostFunction fn) {
  RLAB_ASSERT(!eval_called_, "DefineHost must come before Eval");
  int magic = static_cast<int>(host_functions_.size());
  host_functions_.push_back(std::move(fn));
  host_names_.push_back(name);
  JSValue f = JS_NewCFunctionMagic(ctx_, &RealmCallbacks::Host, name.c_str(), 0,
                                   JS_CFUNC_generic_magic, magic);
  if (JS_SetPropertyStr(ctx_, host_object_, name.c_str(), f) < 0) return Failure();
  return base::Status::OK();
}

double Realm::NextRandom() {
  // 53 random bits scaled into [0, 1): exact in a double, the same on every target.
  return static_cast<double>(random_.Next() >> 11) * (1.0 / 9007199254740992.0);
}

void Realm::BeginCall() {
  meter_.BeginCall();
  // The C stack guard measures from where this call starts, not from where the runtime was made.
  JS_UpdateStackTop(rt_);
}

bool Realm::RunJobs() {
  JSContext* job_ctx = nullptr;
  for (;;) {
    int r = JS_ExecutePendingJob(rt_, &job_ctx);
    if (r == 0) return true;
    if (r < 0) return false;
  }
}

base::Status Realm::Failure() { return TakeException(ctx_, meter_.stop_reason(), meter_.limits()); }

base::Status Realm::Eval(std::string_view source, const std::string& filename) {
  RLAB_ASSERT(!eval_called_, "Eval is called once per realm");
  eval_called_ = true;
  BeginCall();
  // JS_Eval requires a NUL-terminated input (quickjs.h).
  std::string text(source);
  JSValue fn = JS_Eval(ctx_, text.c_str(), text.size(), filename.c_str(),
                       JS_EVAL_TYPE_MODULE | JS_EVAL_FLAG_COMPILE_ONLY);
  if (JS_IsException(fn)) return Failure();
  auto* module = static_cast<JSModuleDef*>(JS_VALUE_GET_PTR(fn));
  // Evaluating a module returns a promise (top-level await); qjs.c's eval_buf settles it.
  JSValue promise = JS_EvalFunction(ctx_, fn);
  if (JS_IsException(promise)) return Failure();
  if (!RunJobs()) {
    JS_FreeValue(ctx_, promise);
    return Failure();
  }
  const int state = static_cast<int>(JS_PromiseState(ctx_, promise));  // -1: not a promise
  if (state == JS_PROMISE_REJECTED) {
    JS_Throw(ctx_, JS_PromiseResult(ctx_, promise));
    JS_FreeValue(ctx_, promise);
    return Failure();
  }
  JS_FreeValue(ctx_, promise);
  module_ns_ = JS_GetModuleNamespace(ctx_, module);
  if (JS_IsException(module_ns_)) {
    module_ns_ = JS_UNDEFINED;
    return Failure();
  }
  evaluated_ = true;
  return base::Status::OK();
}

base::StatusOr<std::string> Realm::Call(const std::string& name, const std::string& args_json) {
  RLAB_ASSERT(evaluated_, "Call needs a module that evaluated");
  BeginCall();
  JSValue fn = JS_GetPropertyStr(ctx_, module_ns_, name.c_str());
  if (!JS_IsFunction(ctx_, fn)) {
    JS_FreeValue(ctx_, fn);
    return base::Status(base::StatusCode::kNotFound,
                        "the module exports no function named " + name);
  }
  if (rlab_quickjs_json_depth_exceeds(args_json.data(), args_json.size(),
                                      RLAB_JS_MAX_JSON_NESTING)) {
    JS_FreeValue(ctx_, fn);
    return base::Status(base::StatusCode::kInvalid, name + ": arguments nested deeper than " +
                                                        std::to_string(RLAB_JS_MAX_JSON_NESTING));
  }
  JSValue args = JS_ParseJSON(ctx_, args_json.data(), args_json.size(), "<arguments>");
  if (JS_IsException(args)) {
    JS_FreeValue(ctx_, fn);
    return Failure();
  }
  std::vector<JSValue> argv;
  if (JS_IsArray(ctx_, args) > 0) {
    int64_t length = 0;
    JSValue len = JS_GetPropertyStr(ctx_, args, "length");
    JS_ToInt64(ctx_, &length, len);
    JS_FreeValue(ctx_, len);
    for (int64_t i = 0; i < length; ++i) {
      argv.push_back(JS_GetPropertyUint32(ctx_, args, static_cast<uint32_t>(i)));
    }
  } else {
    argv.push_back(JS_DupValue(ctx_, args));
  }
  JS_FreeValue(ctx_, args);
  JSValue result = JS_Call(ctx_, fn, JS_UNDEFINED, static_cast<int>(argv.size()), argv.data());
  for (JSValue& v : argv) JS_FreeValue(ctx_, v);
  JS_FreeValue(ctx_, fn);
  if (JS_IsException(result)) return Failure();
  if (!RunJobs()) {
    JS_FreeValue(ctx_, result);
    return Failure();
  }
  // An async export: its promise has settled once the jobs ran (no I/O can keep it pending).
  // An int: QuickJS answers -1 for a value that is not a promise, outside the enum's range.
  const int state = static_cast<int>(JS_PromiseState(ctx_, result));
  if (state == JS_PROMISE_REJECTED) {
    JS_Throw(ctx_, JS_PromiseResult(ctx_, result));
    JS_FreeValue(ctx_, result);
    return Failure();
  }
  if (state == JS_PROMISE_PENDING && meter_.stop_reason() != StopReason::kNone &&
      JS_HasException(ctx_)) {
    // A budget stop inside an async function: quickjs.c js_async_function_resume calls the
    // promise's reject function, which the stopped meter interrupts again, so the promise stays
    // pending and the second stop is the pending exception. It is the budget error.
    JS_FreeValue(ctx_, result);
    return Failure();
  }
  if (state == JS_PROMISE_PENDING) {
    JS_FreeValue(ctx_, result);
    return base::Status(base::StatusCode::kInternal,
                        name + ": the returned promise never settles (nothing outside can)");
  }
  if (state == JS_PROMISE_FULFILLED) {
    JSValue settled = JS_PromiseResult(ctx_, result);
    JS_FreeValue(ctx_, result);
    result = settled;
  }
  JSValue text = JS_JSONStringify(ctx_, result, JS_UNDEFINED, JS_UNDEFINED);
  JS_FreeValue(ctx_, result);
  if (JS_IsException(text)) return Failure();
  std::string out = JS_IsUndefined(text) ? "null" : ToStdString(ctx_, text);
  JS_FreeValue(ctx_, text);
  return out;
}

}  // namespace js
