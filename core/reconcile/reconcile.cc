#include "core/reconcile/reconcile.h"

#include <tuple>

namespace reconcile {

std::string Request::Key() const { return namespace_.empty() ? name : namespace_ + "/" + name; }

Request Request::FromKey(const std::string& key) {
  Request req;
  size_t slash = key.find('/');
  if (slash == std::string::npos) {
    req.name = key;
  } else {
    req.namespace_ = key.substr(0, slash);
    req.name = key.substr(slash + 1);
  }
  return req;
}

bool Request::operator<(const Request& other) const {
  return std::tie(namespace_, name) < std::tie(other.namespace_, other.name);
}

bool Request::operator==(const Request& other) const {
  return namespace_ == other.namespace_ && name == other.name;
}

bool Result::IsZero() const { return !requeue && requeue_after == 0 && !priority.has_value(); }

// mirrors pkg/reconcile/reconcile.go terminalError.Error
base::Status TerminalError(const base::Status& wrapped) {
  if (wrapped.ok()) {
    return base::Status(base::StatusCode::kInternal, "nil terminal error").SetTerminal();
  }
  base::Status out(wrapped.code(), "terminal error: " + wrapped.message());
  out.SetTerminal();
  return out;
}

bool IsTerminal(const base::Status& status) { return !status.ok() && status.terminal(); }

Outcome Outcome::Error(base::Status error) {
  RLAB_ASSERT(!error.ok(), "Outcome::Error needs a non-OK status; use Outcome::Ok for success");
  return Outcome{Result{}, std::move(error)};
}

Outcome Outcome::Panic(std::string value) {
  Outcome out;
  out.panic = std::move(value);
  return out;
}

void ReconcileContext::Info(const std::string& msg, const KeyValues& kv) const {
  if (log) log("info", msg, kv);
}

void ReconcileContext::Error(const std::string& msg, const KeyValues& kv) const {
  if (log) log("error", msg, kv);
}

Func::Func(Fn fn) : fn_(std::move(fn)) {
  RLAB_ASSERT(fn_ != nullptr, "reconcile::Func needs a function");
}

Outcome Func::Reconcile(ReconcileContext& ctx, const Request& req) { return fn_(ctx, req); }

}  // namespace reconcile
