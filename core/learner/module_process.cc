#include "core/learner/module_process.h"

#include <utility>

#include "core/base/time.h"
#include "core/builder/builder.h"
#include "core/handler/enqueue.h"
#include "core/handler/enqueue_mapped.h"
#include "core/learner/prelude.h"
#include "core/predicate/predicate.h"

namespace learner {
namespace {

uint64_t Mix(uint64_t seed, const std::string& text) {
  uint64_t h = 1469598103934665603ULL ^ seed;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::string Quote(const std::string& s) { return api::Json(s).dump(); }

std::string ObjectText(const api::ObjectPtr& obj) { return obj == nullptr ? "null" : obj->dump(); }

// IsTerminalMessage tells a TerminalError apart in the realm's "FILE:LINE:COL: Name: message".
bool IsTerminalMessage(const std::string& message) {
  const std::string tag = std::string(kTerminalName) + ": ";
  return message.rfind(tag, 0) == 0 || message.find(": " + tag) != std::string::npos;
}

// ModuleReconciler is the module's `reconcile` as a reconcile::Reconciler: an exception, a
// budget stop or a stack overflow is an error (retried with backoff), a TerminalError is
// reconcile.TerminalError, and the returned object is a reconcile.Result.
// mirrors pkg/reconcile/reconcile.go Reconciler, Result, TerminalError
class ModuleReconciler final : public reconcile::Reconciler {
 public:
  explicit ModuleReconciler(ModuleProcess& process) : process_(process) {}

  reconcile::Outcome Reconcile(reconcile::ReconcileContext& ctx,
                               const reconcile::Request& req) override {
    const std::string args =
        "[{\"namespace\":" + Quote(req.namespace_) + ",\"name\":" + Quote(req.name) + "}]";
    auto out = process_.Call(kReconcile, args, &ctx);
    if (!out.ok()) {
      base::Status error = out.status();
      if (IsTerminalMessage(error.message()))
        return reconcile::Outcome::Error(
            reconcile::TerminalError(base::Status(base::StatusCode::kInternal, error.message())));
      return reconcile::Outcome::Error(error);
    }
    api::Json result = api::Json::parse(*out, nullptr, false);
    reconcile::Result r;
    if (result.is_object()) {
      r.requeue = result.value("requeue", false);
      auto after = result.find("requeueAfter");
      if (after != result.end() && !after->is_null()) {
        if (after->is_number()) {
          // A number is seconds, as a Go literal 5*time.Second would read.
          const double seconds = after->get<double>();
          if (!(seconds >= 0) || seconds > 1e6) return Bad("requeueAfter " + after->dump());
          r.requeue_after = static_cast<base::Duration>(seconds * base::kSecond);
        } else if (after->is_string()) {
          auto d = base::ParseDuration(after->get<std::string>());
          if (!d.ok() || *d < 0) return Bad("requeueAfter " + after->dump());
          r.requeue_after = *d;
        } else {
          return Bad("requeueAfter " + after->dump());
        }
      }
    }
    return reconcile::Outcome::Ok(r);
  }

 private:
  reconcile::Outcome Bad(const std::string& what) {
    return reconcile::Outcome::Error(base::Status(
        base::StatusCode::kInvalid, process_.filename() + ": reconcile returned " + what +
                                        " (give a duration such as '5s' or a number of seconds)"));
  }
  ModuleProcess& process_;
};

// ModulePredicate is a predicate function of the module (`predicates: [(e) => ...]`), called
// with { type, object, oldObject }. A throw or a budget stop drops the event and is logged.
// mirrors pkg/predicate/predicate.go Funcs
class ModulePredicate final : public predicate::Predicate {
 public:
  ModulePredicate(ModuleProcess& process, std::string group, size_t index, size_t position)
      : process_(process), group_(std::move(group)), index_(index), position_(position) {}

  std::string Name() const override { return "Func(" + process_.filename() + ")"; }

 protected:
  bool DoCreate(const event::CreateEvent& e, predicate::ErrorList*) const override {
    return Ask("create", e.object, nullptr);
  }
  bool DoUpdate(const event::UpdateEvent& e, predicate::ErrorList*) const override {
    return Ask("update", e.object_new, e.object_old);
  }
  bool DoDelete(const event::DeleteEvent& e, predicate::ErrorList*) const override {
    return Ask("delete", e.object, nullptr);
  }
  bool DoGeneric(const event::GenericEvent& e, predicate::ErrorList*) const override {
    return Ask("generic", e.object, nullptr);
  }

 private:
  bool Ask(const char* type, const api::ObjectPtr& obj, const api::ObjectPtr& old) const {
    std::string event = "{\"type\":\"" + std::string(type) + "\",\"object\":" + ObjectText(obj);
    if (old != nullptr) event += ",\"oldObject\":" + ObjectText(old);
    event += "}";
    const std::string args = "[" + Quote(group_) + "," + std::to_string(index_) + "," +
                             std::to_string(position_) + "," + event + "]";
    auto out = process_.Call(kPredicate, args, nullptr);
    if (!out.ok()) {
      process_.manager().Log("ERROR", "predicate failed", {{"error", out.status().message()}});
      return false;
    }
    return *out == "true";
  }

  ModuleProcess& process_;
  std::string group_;
  size_t index_;
  size_t position_;
};

predicate::PredicatePtr Builtin(const std::string& name) {
  if (name == "GenerationChanged") return std::make_shared<predicate::GenerationChangedPredicate>();
  if (name == "ResourceVersionChanged") {
    return std::make_shared<predicate::ResourceVersionChangedPredicate>();
  }
  if (name == "LabelChanged") return std::make_shared<predicate::LabelChangedPredicate>();
  return std::make_shared<predicate::AnnotationChangedPredicate>();
}

// SetupFailed is main.go's os.Exit(1) after "unable to create controller": a runnable whose
// start fails, so the manager exits and the kubelet restarts the container (CrashLoopBackOff).
class SetupFailed final : public manager::Runnable {
 public:
  explicit SetupFailed(base::Status error) : error_(std::move(error)) {}
  base::Status Start() override { return error_; }
  void Stop() override {}
  bool NeedLeaderElection() const override { return false; }

 private:
  base::Status error_;
};

}  // namespace

ModuleProcess::ModuleProcess(const lab::ProcessContext& ctx, sim::Scheduler& scheduler,
                             std::shared_ptr<const lab::ModuleSource> module, uint64_t seed)
    : module_(std::move(module)), seed_(Mix(seed, "realm/" + ctx.replica)) {
  manager::Options options;
  options.name = module_->name;
  options.replica = ctx.replica;
  options.leader_election = ctx.settings->leader_election;
  options.leader_election_options.lease_name = module_->name + "-leader";
  options.leader_election_options.lease_namespace = "default";
  options.leader_election_options.identity = ctx.identity;
  options.controller.recover_panic = ctx.settings->recover_panic;
  if (!ctx.settings->watch_namespace.empty()) {
    options.cache.default_namespaces = {ctx.settings->watch_namespace};
  }
  manager_ = std::make_unique<manager::Manager>(*ctx.api_client, scheduler,
                                                sim::Prng(Mix(seed, ctx.replica)), options,
                                                ctx.take_injected_latency);
  binding_.client = &manager_->GetClient();
  manager::Manager* mgr = manager_.get();
  binding_.log = [mgr](const std::string& level, const std::string& msg,
                       const reconcile::ReconcileContext::KeyValues& kv) {
    mgr->Log(level == "error" ? "ERROR" : "INFO", msg, kv);
  };
  base::Status s = Setup(ctx);
  if (!s.ok()) {
    manager_->Log("ERROR", "unable to create controller",
                  {{"controller", module_->name}, {"error", s.message()}});
    manager_->Add(std::make_unique<SetupFailed>(s));
  }
}

ModuleProcess::~ModuleProcess() {
  // The controllers call into the realm: they go first.
  manager_.reset();
}

base::StatusOr<std::string> ModuleProcess::Call(const std::string& name,
                                                const std::string& args_json,
                                                reconcile::ReconcileContext* ctx) {
  auto saved = binding_.log;
  if (ctx != nullptr && ctx->log) {
    binding_.log = [ctx](const std::string& level, const std::string& msg,
                         const reconcile::ReconcileContext::KeyValues& kv) {
      if (level == "error") {
        ctx->Error(msg, kv);
      } else {
        ctx->Info(msg, kv);
      }
    };
  }
  auto out = realm_->Call(name, args_json);
  binding_.log = std::move(saved);
  return out;
}

base::Status ModuleProcess::Setup(const lab::ProcessContext& ctx) {
  auto realm = ModuleRealm::Load(*module_, seed_, &binding_);
  if (!realm.ok()) return realm.status();
  realm_ = std::move(*realm);
  const Declaration& d = realm_->declaration();
  // mirrors the RESTMapper's NoKindMatchError when a declared apiVersion is not served
  auto check = [this](const WatchDecl& w) -> base::Status {
    const api::KindInfo* kind = manager_->GetCache().Discover(w.kind);
    if (kind == nullptr || (!w.api_version.empty() && kind->ApiVersion() != w.api_version)) {
      return base::Status(
          base::StatusCode::kNotFound,
          "no matches for kind \"" + w.kind + "\" in version \"" + w.api_version + "\"");
    }
    return base::Status::OK();
  };
  auto preds = [this](const WatchDecl& w, const std::string& group, size_t index) {
    std::vector<predicate::PredicatePtr> out;
    for (size_t i = 0; i < w.predicates.size(); ++i) {
      out.push_back(w.predicates[i].is_function
                        ? std::make_shared<ModulePredicate>(*this, group, index, i)
                        : Builtin(w.predicates[i].name));
    }
    return builder::WithPredicates(std::move(out));
  };
  reconciler_ = std::make_unique<ModuleReconciler>(*this);
  builder::Builder b = builder::ControllerManagedBy(*manager_);
  if (!d.name.empty()) b.Named(d.name);
  if (d.has_for) {
    if (base::Status s = check(d.for_); !s.ok()) return s;
    b.For(d.for_.kind, preds(d.for_, "for", 0));
  }
  for (size_t i = 0; i < d.owns.size(); ++i) {
    if (base::Status s = check(d.owns[i]); !s.ok()) return s;
    b.Owns(d.owns[i].kind, preds(d.owns[i], "owns", i));
  }
  for (size_t i = 0; i < d.watches.size(); ++i) {
    const WatchDecl& w = d.watches[i];
    if (base::Status s = check(w); !s.ok()) return s;
    handler::EventHandlerPtr h;
    if (w.has_map) {
      h = handler::EnqueueRequestsFromMapFunc([this, i](const api::ObjectPtr& obj) {
        std::vector<reconcile::Request> requests;
        auto out = Call(kMap, "[" + std::to_string(i) + "," + ObjectText(obj) + "]", nullptr);
        if (!out.ok()) {
          manager_->Log("ERROR", "map function failed", {{"error", out.status().message()}});
          return requests;
        }
        api::Json list = api::Json::parse(*out, nullptr, false);
        if (!list.is_array()) return requests;
        for (const api::Json& r : list) {
          reconcile::Request req;
          req.namespace_ = r.value("namespace", "");
          req.name = r.value("name", "");
          if (!req.name.empty()) requests.push_back(std::move(req));
        }
        return requests;
      });
    } else {
      h = std::make_shared<handler::EnqueueRequestForObject>();
    }
    b.Watches(w.kind, h, preds(w, "watches", i));
  }
  controller::Options options;
  options.max_concurrent_reconciles = d.max_concurrent_reconciles > 0
                                          ? d.max_concurrent_reconciles
                                          : ctx.settings->reconcile_concurrency;
  options.use_priority_queue = (d.queue.empty() ? ctx.settings->queue : d.queue) != "classic";
  b.WithOptions(options);
  auto ctrl = b.Complete(*reconciler_);
  if (!ctrl.ok()) return ctrl.status();
  controllers_.push_back(*ctrl);
  return base::Status::OK();
}

}  // namespace learner
