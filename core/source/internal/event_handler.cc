#include "core/source/internal/event_handler.h"

#include "core/api/fields.h"
#include "core/reconcile/reconcile.h"

namespace source::internal {
namespace {

// TracingEnqueuer is the queue as a handler sees it: each request becomes a handler.enqueue
// record, then a queue add whose outcome (queued / coalesced / dirty) is traced too.
class TracingEnqueuer final : public handler::Enqueuer {
 public:
  TracingEnqueuer(const Tracer& tracer, workqueue::Interface* queue, int64_t cause)
      : tracer_(tracer), queue_(queue), cause_(cause) {}

  void Add(const reconcile::Request& req, std::optional<int> priority,
           const std::string& handler_name, const api::ObjectPtr& object) override {
    const std::string key = req.Key();
    const int64_t enqueue_seq = tracer_.Emit(
        "handler.enqueue", {{"controller", tracer_.controller},
                            {"handler", handler_name},
                            {"object", ObjectRef(object)},
                            {"key", key},
                            {"cause", cause_}});
    workqueue::AddOpts opts;
    opts.priority = priority;
    workqueue::AddResult result = queue_->AddWithOpts(opts, key);
    tracer_.EmitQueueAdd(key, workqueue::AddOutcomeName(result.outcome), result.priority,
                         enqueue_seq, /*readies=*/false);
  }

 private:
  const Tracer& tracer_;
  workqueue::Interface* queue_;
  int64_t cause_;
};

}  // namespace

std::string ObjectRef(const api::ObjectPtr& obj) {
  if (obj == nullptr) return "";
  const std::string& kind = api::TypeMeta(*obj).Kind();
  const std::string& ns = api::ObjectMeta(*obj).Namespace();
  const std::string& name = api::ObjectMeta(*obj).Name();
  std::string ref;
  ref.reserve(kind.size() + ns.size() + name.size() + 2);
  ref.append(kind).append("/");
  if (!ns.empty()) ref.append(ns).append("/");
  return ref.append(name);
}

EventHandlerAdapter::EventHandlerAdapter(Tracer tracer, workqueue::Interface* queue,
                                         std::shared_ptr<const handler::EventHandler> handler,
                                         std::vector<predicate::PredicatePtr> predicates,
                                         std::string watch)
    : tracer_(std::move(tracer)),
      queue_(queue),
      handler_(std::move(handler)),
      predicates_(std::move(predicates)),
      watch_(std::move(watch)) {}

template <typename Fn>
bool EventHandlerAdapter::Passes(const char* event_type, const api::ObjectPtr& obj, Fn&& eval,
                                 int64_t* cause) {
  *cause = tracer_.current_cause();
  // mirrors event_handler.go: every predicate must pass, evaluated in order.
  for (const predicate::PredicatePtr& p : predicates_) {
    const bool ok = eval(*p);
    *cause = tracer_.Emit("predicate.eval", {{"controller", tracer_.controller},
                                             {"watch", watch_},
                                             {"predicate", p->Name()},
                                             {"eventType", event_type},
                                             {"object", ObjectRef(obj)},
                                             {"result", ok},
                                             {"cause", *cause}});
    if (!ok) return false;
  }
  return true;
}

void EventHandlerAdapter::OnAdd(const api::ObjectPtr& obj, bool is_in_initial_list) {
  event::CreateEvent evt{obj, is_in_initial_list};
  int64_t cause = 0;
  if (!Passes("Create", obj, [&](const predicate::Predicate& p) { return p.Create(evt); },
              &cause)) {
    return;
  }
  TracingEnqueuer enqueuer(tracer_, queue_, cause);
  handler_->Create(evt, enqueuer, handler::HandlerContext{queue_->is_priority_queue()});
}

void EventHandlerAdapter::OnUpdate(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
  event::UpdateEvent evt{old_obj, new_obj};
  int64_t cause = 0;
  if (!Passes("Update", new_obj, [&](const predicate::Predicate& p) { return p.Update(evt); },
              &cause)) {
    return;
  }
  TracingEnqueuer enqueuer(tracer_, queue_, cause);
  handler_->Update(evt, enqueuer, handler::HandlerContext{queue_->is_priority_queue()});
}

void EventHandlerAdapter::OnDelete(const api::ObjectPtr& obj, bool delete_state_unknown) {
  event::DeleteEvent evt{obj, delete_state_unknown};
  int64_t cause = 0;
  if (!Passes("Delete", obj, [&](const predicate::Predicate& p) { return p.Delete(evt); },
              &cause)) {
    return;
  }
  TracingEnqueuer enqueuer(tracer_, queue_, cause);
  handler_->Delete(evt, enqueuer, handler::HandlerContext{queue_->is_priority_queue()});
}

}  // namespace source::internal
