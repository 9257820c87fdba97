#pragma once
// Status and StatusOr: expected failures as values, with codes modelled on Kubernetes reasons.
// Mirrors: apimachinery pkg/api/errors/errors.go (reasons and HTTP codes); abseil StatusOr shape.
// Simplified: one message string; no wrapped causes except the terminal flag that
// controller-runtime's reconcile.TerminalError adds.
// Single-threaded; no time.

#include <optional>
#include <string>
#include <utility>

#include "core/base/assert.h"

namespace base {

// StatusCode follows metav1.StatusReason; HttpCode() gives the code kube-apiserver sends.
enum class StatusCode {
  kOk,
  kBadRequest,             // 400 BadRequest
  kUnauthorized,           // 401 Unauthorized
  kForbidden,              // 403 Forbidden
  kNotFound,               // 404 NotFound
  kMethodNotAllowed,       // 405 MethodNotAllowed
  kAlreadyExists,          // 409 AlreadyExists
  kConflict,               // 409 Conflict
  kGone,                   // 410 Expired (watch from a compacted resourceVersion)
  kRequestEntityTooLarge,  // 413 RequestEntityTooLarge
  kUnsupportedMediaType,   // 415 UnsupportedMediaType
  kInvalid,                // 422 Invalid
  kTooManyRequests,        // 429 TooManyRequests
  kInternal,               // 500 InternalError
  kServiceUnavailable,     // 503 ServiceUnavailable
  kTimeout,                // 504 Timeout
};

// Reason returns the Kubernetes StatusReason string ("NotFound", "Conflict", ...).
const char* Reason(StatusCode code);
// HttpCode returns the HTTP status kube-apiserver uses for code (200 for kOk).
int HttpCode(StatusCode code);
// CodeFromHttp maps an HTTP status back to the closest StatusCode (used by `fault api --code`).
StatusCode CodeFromHttp(int http);

// Status is OK or an error code with a human message (the `message` of a metav1.Status).
// Intentionally copyable.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status OK() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  int http_code() const { return HttpCode(code_); }
  const char* reason() const { return Reason(code_); }

  // Terminal marks an error the controller must not retry (controller-runtime TerminalError).
  bool terminal() const { return terminal_; }
  Status& SetTerminal(bool terminal = true) {
    terminal_ = terminal;
    return *this;
  }

  // ToString gives "Reason: message", or "OK".
  std::string ToString() const;

  bool operator==(const Status& other) const {
    return code_ == other.code_ && message_ == other.message_ && terminal_ == other.terminal_;
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  bool terminal_ = false;
};

inline bool IsNotFound(const Status& s) { return s.code() == StatusCode::kNotFound; }
inline bool IsConflict(const Status& s) { return s.code() == StatusCode::kConflict; }
inline bool IsAlreadyExists(const Status& s) { return s.code() == StatusCode::kAlreadyExists; }
inline bool IsInvalid(const Status& s) { return s.code() == StatusCode::kInvalid; }
inline bool IsForbidden(const Status& s) { return s.code() == StatusCode::kForbidden; }
// IgnoreNotFound turns NotFound into OK and passes every other status through.
inline Status IgnoreNotFound(const Status& s) { return IsNotFound(s) ? Status::OK() : s; }

// StatusOr holds a value or a non-OK status. REQUIRES: value() only when ok().
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT: implicit like absl
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT
    RLAB_ASSERT(!status_.ok(), "StatusOr needs a value or a non-OK status");
  }

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  const T& value() const& {
    RLAB_ASSERT(ok(), "StatusOr::value() on an error; check ok() first");
    return *value_;
  }
  T& value() & {
    RLAB_ASSERT(ok(), "StatusOr::value() on an error; check ok() first");
    return *value_;
  }
  T&& value() && {
    RLAB_ASSERT(ok(), "StatusOr::value() on an error; check ok() first");
    return std::move(*value_);
  }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace base
