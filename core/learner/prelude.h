#pragma once
// The JavaScript a learner's module runs with: appended after the module's last line (so the
// module's own line numbers stay its own), it builds `ctx` (the client, the log, the
// controllerutil helpers) and exports the entry points the host calls.
// Mirrors: controller-runtime's pkg/client (Get, List, Create, Update, Patch, Delete, Status()),
// pkg/controller/controllerutil (SetControllerReference, AddFinalizer, RemoveFinalizer,
// ContainsFinalizer) and pkg/reconcile (Result, TerminalError), in JavaScript.
// Simplified: one object shape for every kind (plain JSON); `patch` takes a merge patch or a
// JSON patch (no strategic merge); a module must declare `controller` and `reconcile` under
// those names (not re-exported under another).

#include <string>
#include <string_view>

namespace learner {

// The exports the host calls (each added by the prelude).
inline constexpr const char* kDescribe = "__rlab_describe";
inline constexpr const char* kReconcile = "__rlab_reconcile";
inline constexpr const char* kPredicate = "__rlab_predicate";
inline constexpr const char* kMap = "__rlab_map";

// WithPrelude returns source followed by the prelude; errors inside the prelude's client
// methods are moved to the module's calling line (positions past the module's last line are
// never shown while a module frame is on the stack).
std::string WithPrelude(std::string_view source, const std::string& filename);

// TerminalName is the `name` the prelude gives a terminal error, so the host can tell it apart
// in the realm's "FILE:LINE:COL: Name: message".
inline constexpr const char* kTerminalName = "TerminalError";

}  // namespace learner
