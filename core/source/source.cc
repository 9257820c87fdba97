#include "core/source/source.h"

#include "core/api/kind.h"
#include "core/source/internal/event_handler.h"

namespace source {
namespace {

// KindSource mirrors pkg/internal/source/kind.go: it registers an event handler on the cache's
// informer for kind, and is synced when that registration has seen the initial list.
class KindSource final : public Source {
 public:
  KindSource(cache::Cache& cache, std::string kind,
             std::shared_ptr<const handler::EventHandler> handler,
             std::vector<predicate::PredicatePtr> predicates, std::string description)
      : cache_(cache),
        kind_(std::move(kind)),
        handler_(std::move(handler)),
        predicates_(std::move(predicates)),
        description_(std::move(description)) {}

  ~KindSource() override {
    if (informer_ != nullptr) (void)informer_->RemoveEventHandler(registration_);
  }

  base::Status Start(const StartContext& ctx) override {
    if (adapter_ != nullptr) {
      return base::Status(base::StatusCode::kInvalid, "source " + description_ +
                                                          " was started more than once");
    }
    auto informer = cache_.GetInformer(kind_);
    if (!informer.ok()) return informer.status();
    informer_ = *informer;
    adapter_ = std::make_unique<internal::EventHandlerAdapter>(ctx.tracer, ctx.queue, handler_,
                                                                predicates_, description_);
    internal::EventHandlerAdapter* adapter = adapter_.get();
    informer::ResourceEventHandlerFuncs funcs;
    funcs.on_add = [adapter](const api::ObjectPtr& obj, bool initial) {
      adapter->OnAdd(obj, initial);
    };
    funcs.on_update = [adapter](const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
      adapter->OnUpdate(old_obj, new_obj);
    };
    funcs.on_delete = [adapter](const api::ObjectPtr& obj, bool tombstone) {
      adapter->OnDelete(obj, tombstone);
    };
    registration_ = informer_->AddEventHandler(funcs);
    return base::Status::OK();
  }

  bool HasSynced() const override {
    return informer_ != nullptr && informer_->HasSynced() && registration_.HasSynced();
  }

  const std::string& Description() const override { return description_; }

  // The Go type of a built-in or KubeRay object is *<version package>.<Kind> (*v1.Pod,
  // *v1.RayCluster): the package is named after the API version.
  std::string String() const override {
    const api::KindInfo* info = cache_.Discover(kind_);
    if (info == nullptr) return "kind source: unknown type";
    return "kind source: *" + info->version + "." + info->kind;
  }

 private:
  cache::Cache& cache_;
  std::string kind_;
  std::shared_ptr<const handler::EventHandler> handler_;
  std::vector<predicate::PredicatePtr> predicates_;
  std::string description_;
  cache::Informer* informer_ = nullptr;
  cache::Informer::Registration registration_;
  std::unique_ptr<internal::EventHandlerAdapter> adapter_;
};

}  // namespace

std::unique_ptr<Source> Kind(cache::Cache& cache, std::string kind,
                             std::shared_ptr<const handler::EventHandler> handler,
                             std::vector<predicate::PredicatePtr> predicates,
                             std::string description) {
  return std::make_unique<KindSource>(cache, std::move(kind), std::move(handler),
                                      std::move(predicates), std::move(description));
}

}  // namespace source
