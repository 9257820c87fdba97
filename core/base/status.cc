#include "core/base/status.h"

namespace base {

const char* Reason(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "";
    case StatusCode::kBadRequest: return "BadRequest";
    case StatusCode::kUnauthorized: return "Unauthorized";
    case StatusCode::kForbidden: return "Forbidden";
    case StatusCode::kNotFound: return "NotFound";
    case StatusCode::kMethodNotAllowed: return "MethodNotAllowed";
    case StatusCode::kAlreadyExists: return "AlreadyExists";
    case StatusCode::kConflict: return "Conflict";
    case StatusCode::kGone: return "Expired";
    case StatusCode::kRequestEntityTooLarge: return "RequestEntityTooLarge";
    case StatusCode::kUnsupportedMediaType: return "UnsupportedMediaType";
    case StatusCode::kInvalid: return "Invalid";
    case StatusCode::kTooManyRequests: return "TooManyRequests";
    case StatusCode::kInternal: return "InternalError";
    case StatusCode::kServiceUnavailable: return "ServiceUnavailable";
    case StatusCode::kTimeout: return "Timeout";
  }
  return "Unknown";
}

int HttpCode(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return 200;
    case StatusCode::kBadRequest: return 400;
    case StatusCode::kUnauthorized: return 401;
    case StatusCode::kForbidden: return 403;
    case StatusCode::kNotFound: return 404;
    case StatusCode::kMethodNotAllowed: return 405;
    case StatusCode::kAlreadyExists: return 409;
    case StatusCode::kConflict: return 409;
    case StatusCode::kGone: return 410;
    case StatusCode::kRequestEntityTooLarge: return 413;
    case StatusCode::kUnsupportedMediaType: return 415;
    case StatusCode::kInvalid: return 422;
    case StatusCode::kTooManyRequests: return 429;
    case StatusCode::kInternal: return 500;
    case StatusCode::kServiceUnavailable: return 503;
    case StatusCode::kTimeout: return 504;
  }
  return 500;
}

StatusCode CodeFromHttp(int http) {
  switch (http) {
    case 400: return StatusCode::kBadRequest;
    case 401: return StatusCode::kUnauthorized;
    case 403: return StatusCode::kForbidden;
    case 404: return StatusCode::kNotFound;
    case 405: return StatusCode::kMethodNotAllowed;
    case 409: return StatusCode::kConflict;
    case 410: return StatusCode::kGone;
    case 413: return StatusCode::kRequestEntityTooLarge;
    case 415: return StatusCode::kUnsupportedMediaType;
    case 422: return StatusCode::kInvalid;
    case 429: return StatusCode::kTooManyRequests;
    case 503: return StatusCode::kServiceUnavailable;
    case 504: return StatusCode::kTimeout;
    default: return StatusCode::kInternal;
  }
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out = Reason(code_);
  out += ": ";
  out += message_;
  return out;
}

}  // namespace base
