#include "core/handler/enqueue_mapped.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "core/base/assert.h"

namespace handler {
namespace {

class MapHandler final : public EventHandler {
 public:
  explicit MapHandler(MapFunc fn) : fn_(std::move(fn)) {}

  // mirrors enqueue_mapped.go enqueueRequestsFromMapFunc.Create
  void Create(const event::CreateEvent& e, Enqueuer& q, const HandlerContext& ctx) const override {
    std::set<reconcile::Request> seen;
    MapAndEnqueue(e.object, CreatePriority(e, ctx), &seen, q);
  }
  // mirrors enqueue_mapped.go enqueueRequestsFromMapFunc.Update: old then new, deduplicated
  void Update(const event::UpdateEvent& e, Enqueuer& q, const HandlerContext& ctx) const override {
    std::optional<int> priority = UpdatePriority(e, ctx);
    std::set<reconcile::Request> seen;
    MapAndEnqueue(e.object_old, priority, &seen, q);
    MapAndEnqueue(e.object_new, priority, &seen, q);
  }
  void Delete(const event::DeleteEvent& e, Enqueuer& q, const HandlerContext&) const override {
    std::set<reconcile::Request> seen;
    MapAndEnqueue(e.object, std::nullopt, &seen, q);
  }
  void Generic(const event::GenericEvent& e, Enqueuer& q, const HandlerContext&) const override {
    std::set<reconcile::Request> seen;
    MapAndEnqueue(e.object, std::nullopt, &seen, q);
  }
  std::string Name() const override { return "EnqueueRequestsFromMapFunc"; }

 private:
  // mirrors enqueue_mapped.go mapAndEnqueue
  void MapAndEnqueue(const api::ObjectPtr& obj, std::optional<int> priority,
                     std::set<reconcile::Request>* seen, Enqueuer& q) const {
    if (obj == nullptr) return;
    for (const reconcile::Request& req : fn_(obj)) {
      if (!seen->insert(req).second) continue;
      q.Add(req, priority, Name(), obj);
    }
  }

  MapFunc fn_;
};

}  // namespace

EventHandlerPtr EnqueueRequestsFromMapFunc(MapFunc fn) {
  RLAB_ASSERT(fn != nullptr, "EnqueueRequestsFromMapFunc needs a map function");
  return std::make_shared<MapHandler>(std::move(fn));
}

}  // namespace handler
