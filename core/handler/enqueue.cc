#include "core/handler/enqueue.h"

namespace handler {

reconcile::Request RequestFor(const api::Json& obj) {
  return reconcile::Request{api::Namespace(obj), api::Name(obj)};
}

// mirrors pkg/handler/enqueue.go TypedEnqueueRequestForObject.Create
void EnqueueRequestForObject::Create(const event::CreateEvent& e, Enqueuer& q,
                                     const HandlerContext& ctx) const {
  if (e.object == nullptr) return;
  q.Add(RequestFor(*e.object), CreatePriority(e, ctx), Name(), e.object);
}

// mirrors pkg/handler/enqueue.go TypedEnqueueRequestForObject.Update: new, else old, not both
void EnqueueRequestForObject::Update(const event::UpdateEvent& e, Enqueuer& q,
                                     const HandlerContext& ctx) const {
  const api::ObjectPtr& obj = e.object_new != nullptr ? e.object_new : e.object_old;
  if (obj == nullptr) return;
  q.Add(RequestFor(*obj), UpdatePriority(e, ctx), Name(), obj);
}

// mirrors pkg/handler/enqueue.go TypedEnqueueRequestForObject.Delete
void EnqueueRequestForObject::Delete(const event::DeleteEvent& e, Enqueuer& q,
                                     const HandlerContext&) const {
  if (e.object == nullptr) return;
  q.Add(RequestFor(*e.object), std::nullopt, Name(), e.object);
}

// mirrors pkg/handler/enqueue.go TypedEnqueueRequestForObject.Generic
void EnqueueRequestForObject::Generic(const event::GenericEvent& e, Enqueuer& q,
                                      const HandlerContext&) const {
  if (e.object == nullptr) return;
  q.Add(RequestFor(*e.object), std::nullopt, Name(), e.object);
}

}  // namespace handler
