#pragma once
// ModuleOperatorLoader: the seam through which a learner's module (JavaScript, core/learner)
// becomes an operator, without core/lab depending on the engine. The rlab CLI and the tests
// register a loader on their Lab; the page's start bundle registers none, and `operator load`
// then answers that this build has no JavaScript engine.
// No Go counterpart (building the operator's image from the learner's code).
// Single-threaded.

#include <functional>
#include <string>

#include "core/base/status.h"
#include "core/lab/operator_host.h"

namespace lab {

class Simulation;

// ModuleOperatorLoader compiles and checks the module (syntax, load-time exceptions, its
// controller declaration) and returns the operator it describes: its ClusterRole rules and a
// factory whose processes each run the module afresh. An error changes nothing; its message
// names the module's line.
using ModuleOperatorLoader =
    std::function<base::StatusOr<OperatorSpec>(Simulation& sim, const ModuleSource& module)>;

// SetDefaultModuleOperatorLoader sets the loader every Lab constructed afterwards starts with:
// the rlab CLI sets it once in main, so the Labs a lesson check or the explorer builds load
// modules too. A function, not state: Labs side by side stay independent.
void SetDefaultModuleOperatorLoader(ModuleOperatorLoader loader);
const ModuleOperatorLoader& DefaultModuleOperatorLoader();

// kNoEngineError is `operator load`'s answer when no loader is registered.
inline constexpr const char* kNoEngineError =
    "error: this build has no JavaScript engine; operator load and reload need the rlab CLI "
    "(native or under Node) or the page's editor build";

}  // namespace lab
