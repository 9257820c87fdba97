#include "core/builder/builder.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/api/kind.h"
#include "core/handler/enqueue.h"
#include "core/handler/enqueue_owner.h"
#include "core/source/source.h"

namespace builder {
namespace {

// ControllerRunnable lets the manager start a controller without knowing controllers exist
// (manager never includes controller; the builder joins them).
class ControllerRunnable final : public manager::Runnable {
 public:
  explicit ControllerRunnable(std::unique_ptr<controller::Controller> c) : c_(std::move(c)) {}
  base::Status Start() override { return c_->Start(); }
  void Stop() override { c_->Stop(); }
  bool NeedLeaderElection() const override { return c_->options().need_leader_election; }
  controller::Controller* get() { return c_.get(); }

 private:
  std::unique_ptr<controller::Controller> c_;
};

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

WatchOptions WithPredicates(std::vector<predicate::PredicatePtr> preds) {
  WatchOptions opts;
  opts.predicates = std::move(preds);
  return opts;
}

Builder& Builder::For(const std::string& kind, WatchOptions opts) {
  if (for_.has_value()) {
    errors_.push_back("For(...) should only be called once, could not assign multiple objects "
                      "for reconciliation");
    return *this;
  }
  for_ = Watch{kind, std::make_shared<handler::EnqueueRequestForObject>(), std::move(opts),
               "For(" + kind + ")"};
  return *this;
}

Builder& Builder::Owns(const std::string& kind, WatchOptions opts) {
  owns_.push_back(Watch{kind, nullptr, std::move(opts), "Owns(" + kind + ")"});
  return *this;
}

Builder& Builder::Watches(const std::string& kind, handler::EventHandlerPtr handler,
                          WatchOptions opts) {
  watches_.push_back(Watch{kind, std::move(handler), std::move(opts), "Watches(" + kind + ")"});
  return *this;
}

Builder& Builder::WithEventFilter(predicate::PredicatePtr predicate) {
  global_predicates_.push_back(std::move(predicate));
  return *this;
}

Builder& Builder::WithOptions(controller::Options options) {
  options_ = std::move(options);
  return *this;
}

Builder& Builder::Named(std::string name) {
  name_ = std::move(name);
  return *this;
}

base::StatusOr<controller::Controller*> Builder::Complete(reconcile::Reconciler& reconciler) {
  auto invalid = [](const std::string& message) {
    return base::Status(base::StatusCode::kInvalid, message);
  };
  // mirrors builder/controller.go Build: For's own error, then doController (the For kind, the
  // name, controller.NewTyped: the unique-name check and mgr.Add), then doWatch — so a
  // controller whose watches fail is already registered, its name taken.
  if (!errors_.empty()) return invalid(errors_.front());
  const api::KindInfo* for_kind = nullptr;
  if (for_.has_value()) {
    for_kind = mgr_.GetCache().Discover(for_->kind);
    if (for_kind == nullptr) return invalid("no kind is registered for " + for_->kind);
  }
  std::string name = name_;
  if (name.empty()) {
    if (for_kind == nullptr) return invalid("one of For() or Named() must be called");
    name = Lower(for_kind->kind);
  }
  controller::Options options = options_.value_or(controller::Options{});
  options.replica = mgr_.options().replica;
  // mirrors controller.go DefaultFromConfig: the manager's defaults fill what is unset.
  if (!options.recover_panic.has_value()) {
    options.recover_panic = mgr_.options().controller.recover_panic;
  }
  if (!options.skip_name_validation.has_value()) {
    options.skip_name_validation = mgr_.options().controller.skip_name_validation;
  }
  // mirrors controller.go NewTypedUnmanaged: names are unique within the process.
  if (!options.skip_name_validation.value_or(false)) {
    if (base::Status s = mgr_.ClaimControllerName(name); !s.ok()) return s;
  }
  auto ctrl = std::make_unique<controller::Controller>(name, reconciler, mgr_.scheduler(),
                                                       mgr_.scheduler().trace(), options);
  // The builder is a temporary; callbacks capture the manager, never the builder.
  manager::Manager* mgr = &mgr_;
  ctrl->SetLogger([mgr](const std::string& level, const std::string& msg,
                        const reconcile::ReconcileContext::KeyValues& kv) {
    std::string upper = level;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    mgr->Log(upper, msg, kv);
  });
  ctrl->SetCostMeter([mgr] { return mgr->TakeCost(); });
  // A controller's Start error goes to the manager's error channel; an unrecovered panic takes
  // the whole process down.
  ctrl->SetStartErrorHandler([mgr](const base::Status& error) { mgr->Fail(error); });
  ctrl->SetCrashHandler([mgr](const std::string& value) { mgr->Crash(value); });
  controller::Controller* result = ctrl.get();
  // The watches are set before the manager sees the controller (a started manager starts it at
  // once); the controller is registered even when they fail, as upstream's is.
  base::Status watched = DoWatch(*result, for_kind);
  mgr_.Add(std::make_unique<ControllerRunnable>(std::move(ctrl)));
  if (!watched.ok()) return watched;
  return result;
}

// mirrors builder/controller.go doWatch: For, then Owns (which needs For), then Watches; with
// none at all, an error.
base::Status Builder::DoWatch(controller::Controller& ctrl, const api::KindInfo* for_kind) {
  auto invalid = [](const std::string& message) {
    return base::Status(base::StatusCode::kInvalid, message);
  };
  std::vector<Watch> all;
  if (for_.has_value()) all.push_back(*for_);
  if (!owns_.empty() && !for_.has_value()) {
    return invalid("Owns() can only be used together with For()");
  }
  for (Watch w : owns_) {
    // Owns = EnqueueRequestForOwner(For type, OnlyControllerOwner()) unless MatchEveryOwner.
    w.handler = handler::EnqueueRequestForOwner(for_kind->group, for_kind->kind,
                                                for_kind->namespaced, !w.opts.match_every_owner);
    all.push_back(std::move(w));
  }
  if (!for_.has_value() && watches_.empty()) {
    return invalid("there are no watches configured, controller will never get triggered. Use "
                   "For(), Owns(), Watches() or WatchesRawSource() to set them up");
  }
  for (const Watch& w : watches_) all.push_back(w);
  for (const Watch& w : all) {
    // mirrors builder/controller.go doWatch: the RESTMapper's "no matches for kind".
    const api::KindInfo* kind = mgr_.GetCache().Discover(w.kind);
    if (kind == nullptr) return invalid("no kind is registered for " + w.kind);
    // Predicate order per watch: every WithEventFilter first, then the watch's WithPredicates.
    std::vector<predicate::PredicatePtr> preds = global_predicates_;
    preds.insert(preds.end(), w.opts.predicates.begin(), w.opts.predicates.end());
    base::Status s =
        ctrl.Watch(source::Kind(mgr_.GetCache(), kind->kind, w.handler, preds, w.description));
    if (!s.ok()) return s;
  }
  return base::Status::OK();
}

}  // namespace builder
