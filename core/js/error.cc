#include "core/js/error.h"

#include <cstring>
#include <string>

namespace js {
namespace {

std::string StringProperty(JSContext* ctx, JSValueConst obj, const char* name) {
  JSValue v = JS_GetPropertyStr(ctx, obj, name);
  std::string out;
  if (!JS_IsUndefined(v) && !JS_IsException(v)) {
    size_t len = 0;
    const char* s = JS_ToCStringLen(ctx, &len, v);
    if (s != nullptr) {
      out.assign(s, len);
      JS_FreeCString(ctx, s);
    }
  }
  JS_FreeValue(ctx, v);
  return out;
}

// FirstFrame finds the innermost frame with a position in a QuickJS `stack` text, whose lines
// read "    at NAME (FILE:LINE:COL)" (quickjs.c build_backtrace).
std::string FirstFrame(const std::string& stack) {
  size_t line_start = 0;
  while (line_start < stack.size()) {
    size_t line_end = stack.find('\n', line_start);
    if (line_end == std::string::npos) line_end = stack.size();
    std::string line = stack.substr(line_start, line_end - line_start);
    size_t open = line.rfind('(');
    size_t close = line.rfind(')');
    if (open != std::string::npos && close != std::string::npos && close > open + 1) {
      std::string where = line.substr(open + 1, close - open - 1);
      if (where != "native" && where.find(':') != std::string::npos) return where;
    }
    line_start = line_end + 1;
  }
  return "";
}

}  // namespace

base::StatusCode ErrorCode(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kSyntax:
      return base::StatusCode::kInvalid;
    case ErrorKind::kStepBudget:
      return base::StatusCode::kTimeout;
    case ErrorKind::kMemoryBudget:
      return base::StatusCode::kRequestEntityTooLarge;
    case ErrorKind::kThrown:
    case ErrorKind::kStackOverflow:
      return base::StatusCode::kInternal;
  }
  return base::StatusCode::kInternal;
}

const char* KindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kSyntax:
      return "syntax error";
    case ErrorKind::kThrown:
      return "uncaught exception";
    case ErrorKind::kStepBudget:
      return "step budget exhausted";
    case ErrorKind::kMemoryBudget:
      return "memory budget exhausted";
    case ErrorKind::kStackOverflow:
      return "stack overflow";
  }
  return "error";
}

base::Status TakeException(JSContext* ctx, StopReason stop, const Limits& limits) {
  JSValue exc = JS_GetException(ctx);
  std::string name, message, where;
  if (JS_IsObject(exc)) {
    name = StringProperty(ctx, exc, "name");
    message = StringProperty(ctx, exc, "message");
    // Syntax errors carry their own position; runtime errors have it in the stack's first frame.
    std::string file = StringProperty(ctx, exc, "fileName");
    std::string line = StringProperty(ctx, exc, "lineNumber");
    std::string column = StringProperty(ctx, exc, "columnNumber");
    if (!file.empty() && !line.empty()) {
      where = file + ":" + line + (column.empty() ? "" : ":" + column);
    } else {
      where = FirstFrame(StringProperty(ctx, exc, "stack"));
    }
  }
  if (name.empty() && message.empty()) {
    size_t len = 0;
    const char* s = JS_ToCStringLen(ctx, &len, exc);
    if (s != nullptr) {
      message.assign(s, len);
      JS_FreeCString(ctx, s);
    }
    name = "Uncaught";
  }
  JS_FreeValue(ctx, exc);

  ErrorKind kind = ErrorKind::kThrown;
  std::string text = name + ": " + message;
  switch (stop) {
    case StopReason::kSteps:
      kind = ErrorKind::kStepBudget;
      text = "step budget exhausted (" + std::to_string(limits.steps) + " steps)";
      break;
    case StopReason::kMemory:
      kind = ErrorKind::kMemoryBudget;
      text = "memory budget exhausted (" + std::to_string(limits.memory_units) + " units)";
      break;
    case StopReason::kCallDepth:
      kind = ErrorKind::kStackOverflow;
      text = "stack overflow (more than " + std::to_string(limits.call_depth) + " nested calls)";
      break;
    case StopReason::kNone:
      if (name == "SyntaxError") kind = ErrorKind::kSyntax;
      // The engine's own guard against deep native recursion (parser, JSON, RegExp).
      if (name == "InternalError" && message == "stack overflow") kind = ErrorKind::kStackOverflow;
      break;
  }
  return base::Status(ErrorCode(kind), where.empty() ? text : where + ": " + text);
}

}  // namespace js
