#pragma once
// Reconcile: the contract between a controller and the code it runs. A Request names one object
// (namespace and name, never its contents or the event that queued it); the Reconciler reads the
// world, acts, and returns an Outcome that tells the controller whether and when to run again.
// Mirrors: controller-runtime pkg/reconcile/reconcile.go (Request, Result, Reconciler, Func,
// TerminalError).
// Simplified: Go's context.Context becomes ReconcileContext (controller name, worker, logger,
// virtual now); Go's (Result, error) pair becomes Outcome (see there why not StatusOr); the
// terminal error is a flag on base::Status instead of a wrapping error type.
// Single-threaded; time comes from ReconcileContext::now, filled in by the controller.

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/base/status.h"
#include "core/base/time.h"

namespace reconcile {

// Request identifies the object to reconcile. Intentionally copyable; ordered so sets of
// requests iterate deterministically. mirrors pkg/reconcile/reconcile.go Request
struct Request {
  std::string namespace_;  // "" for cluster-scoped objects
  std::string name;

  // Key is the workqueue key: "namespace/name", or "name" when namespace_ is empty
  // (client-go's MetaNamespaceKeyFunc).
  std::string Key() const;
  // FromKey is the inverse of Key: everything before the first '/' is the namespace.
  static Request FromKey(const std::string& key);

  bool operator<(const Request& other) const;
  bool operator==(const Request& other) const;
  bool operator!=(const Request& other) const { return !(*this == other); }
};

// Result tells the controller whether to run the request again. The zero Result means "done":
// the controller forgets the request's backoff. mirrors pkg/reconcile/reconcile.go Result
struct Result {
  // requeue asks for a rate-limited requeue (exponential backoff, no Forget).
  // Deprecated: use requeue_after (controller-runtime v0.21+). Defaults to false.
  bool requeue = false;
  // requeue_after > 0 requeues after this long (the controller Forgets first, resetting the
  // backoff); it wins over requeue. Defaults to 0.
  base::Duration requeue_after = 0;
  // priority, when set, is the priority of any re-add (also after an error); unset keeps the
  // request's current priority. Only the priority queue honours it. Defaults to unset.
  std::optional<int> priority;

  // IsZero reports whether every field has its default (a set priority, even 0, is non-zero).
  bool IsZero() const;
};

// TerminalError marks wrapped as an error the controller must not retry: it is logged and
// counted, and the request is neither re-added nor forgotten. The message is
// "terminal error: " + wrapped's message, and wrapped's code is kept (Go's Unwrap, so
// base::IsNotFound still sees through it). TerminalError of an OK status (Go's
// TerminalError(nil)) is a kInternal terminal error "nil terminal error".
// mirrors pkg/reconcile/reconcile.go TerminalError
base::Status TerminalError(const base::Status& wrapped);

// IsTerminal is Go's errors.Is(err, reconcile.TerminalError(nil)): a non-OK status whose
// terminal flag is set, however it was wrapped.
bool IsTerminal(const base::Status& status);

// Outcome is what Reconcile returns: a Result and an error, both at once. Go returns the pair
// (Result, error); StatusOr<Result> would hold one or the other, and the controller could no
// longer see (and log) the mistake upstream warns about: "Reconciler returned both a result with
// either RequeueAfter or Requeue set and a non-nil error" — when error is non-OK, result is
// ignored. Intentionally copyable.
struct [[nodiscard]] Outcome {
  Result result;
  base::Status error;
  // panic models a Go panic in Reconcile (its value, as `panic(v)` prints it); C++ reconcilers
  // here do not throw. The controller counts it in reconcile_panics_total and, with RecoverPanic
  // (the default), handles it as the error "panic: <v> [recovered]". Defaults to unset.
  std::optional<std::string> panic = std::nullopt;

  // Ok is a success with result (default: the zero Result, "done").
  static Outcome Ok(Result result = {}) { return Outcome{std::move(result), base::Status::OK()}; }
  // Error is a failure with the zero Result. REQUIRES: !error.ok().
  static Outcome Error(base::Status error);
  // Panic is a reconciler that panicked with value. mirrors a Go panic(value) in Reconcile
  static Outcome Panic(std::string value);
};

// ReconcileContext is what a reconciler needs from its environment without knowing the
// controller (Go passes it in context.Context: the logger with controller and reconcileID
// values, the deadline). The controller fills it in for every call. Intentionally copyable.
struct ReconcileContext {
  using KeyValues = std::vector<std::pair<std::string, std::string>>;

  // controller is the controller's name ("raycluster").
  std::string controller;
  // worker is the 0-based worker slot running this reconcile.
  int worker = 0;
  // log writes one log line: level is "info" or "error". May be empty (then lines are dropped).
  std::function<void(const std::string& level, const std::string& msg, const KeyValues& kv)> log;
  // now is the virtual time the reconcile runs at.
  base::SimTime now = 0;

  // Info and Error call log (when set) with level "info" / "error".
  void Info(const std::string& msg, const KeyValues& kv = {}) const;
  void Error(const std::string& msg, const KeyValues& kv = {}) const;
};

// Reconciler drives one object toward its desired state. Reconcile must be idempotent: it is
// called again for the same Request whenever anything related changes, with no memory of why.
// mirrors pkg/reconcile/reconcile.go Reconciler
class Reconciler {
 public:
  virtual ~Reconciler() = default;

  // Reconcile runs one reconciliation of req. If the Outcome's error is non-OK its result is
  // ignored and the request is retried with backoff (unless IsTerminal). Otherwise
  // requeue_after > 0 requeues after that long, requeue alone requeues with backoff, and the
  // zero Result forgets the request.
  virtual Outcome Reconcile(ReconcileContext& ctx, const Request& req) = 0;
};

// Func adapts a function to Reconciler. mirrors pkg/reconcile/reconcile.go Func
class Func final : public Reconciler {
 public:
  using Fn = std::function<Outcome(ReconcileContext& ctx, const Request& req)>;

  // REQUIRES: fn is set.
  explicit Func(Fn fn);

  Outcome Reconcile(ReconcileContext& ctx, const Request& req) override;

 private:
  Fn fn_;
};

}  // namespace reconcile
