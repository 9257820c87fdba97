#pragma once
// ModuleRealm: a learner module evaluated in a js::Realm with the prelude (prelude.h) and the
// host functions its client calls, bound to a client that can change (a process's manager
// client, or none while the loader checks the module).
// Mirrors: nothing upstream; it is the seam between controller-runtime's Go API and the
// learner's JavaScript.
// Determinism: the realm's seed is given; every call runs under the realm's step and memory
// budgets (core/js/README.md).

#include <memory>
#include <string>

#include "core/base/status.h"
#include "core/client/client.h"
#include "core/js/realm.h"
#include "core/lab/operator_host.h"
#include "core/learner/declaration.h"
#include "core/reconcile/reconcile.h"

namespace learner {

// HostBinding is what the module's `ctx.client` and `ctx.log` reach: null members refuse.
struct HostBinding {
  client::Client* client = nullptr;
  // log writes a line to the operator's log (level "info" or "error").
  std::function<void(const std::string& level, const std::string& msg,
                     const reconcile::ReconcileContext::KeyValues& kv)>
      log;
};

// ModuleLimits are the budgets of every call into a module: a reconcile, a predicate or a map
// function. Smaller than the realm's defaults, so a runaway module stops within a second.
js::Limits ModuleLimits();
// SetModuleLimits replaces them for every module loaded afterwards. The fuzz target lowers them
// so that a hostile input ends within libFuzzer's timeout under the sanitizers (about 17x slower
// per step); the simulation, lessons and tests keep the defaults.
void SetModuleLimits(const js::Limits& limits);

// InModule keeps an error's position when it is inside the module's `lines`; a position past
// them (inside the prelude), or none, becomes "FILE: message".
base::Status InModule(const base::Status& error, const std::string& filename, int64_t lines);

class ModuleRealm {
 public:
  // Load creates the realm, evaluates module.source with the prelude and reads its declaration.
  // Errors name the module's line ("mirror.js:3:7: SyntaxError: ..."). binding must outlive the
  // realm; its members may change between calls.
  static base::StatusOr<std::unique_ptr<ModuleRealm>> Load(const lab::ModuleSource& module,
                                                           uint64_t seed, HostBinding* binding);

  const Declaration& declaration() const { return declaration_; }
  js::Realm& realm() { return *realm_; }

  // Call calls one of the prelude's exports (prelude.h). An error with no position, or one
  // inside the prelude past the module's last line (a budget stop inside the reconcile's
  // promise surfaces so), names only the file: "mirror.js: step budget exhausted (...)".
  base::StatusOr<std::string> Call(const std::string& name, const std::string& args_json);

 private:
  ModuleRealm() = default;
  std::unique_ptr<js::Realm> realm_;
  Declaration declaration_;
  std::string filename_;
  int64_t lines_ = 0;  // the module's own lines
};

}  // namespace learner
