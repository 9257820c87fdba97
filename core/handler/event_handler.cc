#include "core/handler/event_handler.h"

#include <utility>

#include "core/api/fields.h"
#include "core/base/assert.h"

namespace handler {
namespace {

// DefaultPriorityEnqueuer gives every add without a priority the wrapper's default.
// mirrors pkg/handler/eventhandler.go workqueueWithDefaultPriority
class DefaultPriorityEnqueuer final : public Enqueuer {
 public:
  DefaultPriorityEnqueuer(Enqueuer& inner, std::optional<int> priority)
      : inner_(inner), priority_(priority) {}

  void Add(const reconcile::Request& req, std::optional<int> priority,
           const std::string& handler_name, const api::ObjectPtr& object) override {
    inner_.Add(req, priority.has_value() ? priority : priority_, handler_name, object);
  }

 private:
  Enqueuer& inner_;
  std::optional<int> priority_;
};

}  // namespace

void EventHandler::Create(const event::CreateEvent&, Enqueuer&, const HandlerContext&) const {}
void EventHandler::Update(const event::UpdateEvent&, Enqueuer&, const HandlerContext&) const {}
void EventHandler::Delete(const event::DeleteEvent&, Enqueuer&, const HandlerContext&) const {}
void EventHandler::Generic(const event::GenericEvent&, Enqueuer&, const HandlerContext&) const {}

std::optional<int> CreatePriority(const event::CreateEvent& e, const HandlerContext& ctx) {
  if (!ctx.priority_queue || e.object == nullptr || !e.is_in_initial_list) return std::nullopt;
  return kLowPriority;
}

std::optional<int> UpdatePriority(const event::UpdateEvent& e, const HandlerContext& ctx) {
  if (!ctx.priority_queue || e.object_old == nullptr || e.object_new == nullptr) {
    return std::nullopt;
  }
  if (api::ObjectMeta(*e.object_old).ResourceVersion() !=
      api::ObjectMeta(*e.object_new).ResourceVersion()) {
    return std::nullopt;
  }
  return kLowPriority;
}

// mirrors pkg/handler/eventhandler.go TypedFuncs.Create
void Funcs::Create(const event::CreateEvent& e, Enqueuer& q, const HandlerContext& ctx) const {
  if (!create_func) return;
  if (!ctx.priority_queue || e.object == nullptr) {
    create_func(e, q, ctx);
    return;
  }
  DefaultPriorityEnqueuer wq(q, CreatePriority(e, ctx));
  create_func(e, wq, ctx);
}

// mirrors pkg/handler/eventhandler.go TypedFuncs.Update
void Funcs::Update(const event::UpdateEvent& e, Enqueuer& q, const HandlerContext& ctx) const {
  if (!update_func) return;
  if (!ctx.priority_queue || e.object_old == nullptr || e.object_new == nullptr) {
    update_func(e, q, ctx);
    return;
  }
  DefaultPriorityEnqueuer wq(q, UpdatePriority(e, ctx));
  update_func(e, wq, ctx);
}

void Funcs::Delete(const event::DeleteEvent& e, Enqueuer& q, const HandlerContext& ctx) const {
  if (delete_func) delete_func(e, q, ctx);
}

void Funcs::Generic(const event::GenericEvent& e, Enqueuer& q, const HandlerContext& ctx) const {
  if (generic_func) generic_func(e, q, ctx);
}

// mirrors pkg/handler/eventhandler.go WithLowPriorityWhenUnchanged
EventHandlerPtr WithLowPriorityWhenUnchanged(EventHandlerPtr h) {
  RLAB_ASSERT(h != nullptr, "WithLowPriorityWhenUnchanged needs a handler");
  auto funcs = std::make_shared<Funcs>();
  funcs->create_func = [h](const event::CreateEvent& e, Enqueuer& q, const HandlerContext& c) {
    h->Create(e, q, c);
  };
  funcs->update_func = [h](const event::UpdateEvent& e, Enqueuer& q, const HandlerContext& c) {
    h->Update(e, q, c);
  };
  funcs->delete_func = [h](const event::DeleteEvent& e, Enqueuer& q, const HandlerContext& c) {
    h->Delete(e, q, c);
  };
  funcs->generic_func = [h](const event::GenericEvent& e, Enqueuer& q, const HandlerContext& c) {
    h->Generic(e, q, c);
  };
  funcs->name = h->Name();
  return funcs;
}

}  // namespace handler
