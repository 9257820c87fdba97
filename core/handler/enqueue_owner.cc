#include "core/handler/enqueue_owner.h"

#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/base/assert.h"

namespace handler {
namespace {

// ParseGroup extracts the group of an apiVersion; false when it has more than one '/'.
// mirrors apimachinery pkg/runtime/schema/group_version.go ParseGroupVersion
bool ParseGroup(const std::string& api_version, std::string* group) {
  group->clear();
  if (api_version.empty() || api_version == "/") return true;
  size_t slash = api_version.find('/');
  if (slash == std::string::npos) return true;
  if (api_version.find('/', slash + 1) != std::string::npos) return false;
  *group = api_version.substr(0, slash);
  return true;
}

// Requests maps each request to the object that first produced it; ordered for determinism.
using Requests = std::map<reconcile::Request, api::ObjectPtr>;

class OwnerHandler final : public EventHandler {
 public:
  OwnerHandler(std::string group, std::string kind, bool namespaced, bool only_controller)
      : group_(std::move(group)),
        kind_(std::move(kind)),
        namespaced_(namespaced),
        only_controller_(only_controller) {}

  // mirrors enqueue_owner.go enqueueRequestForOwner.Create (Delete and Generic alike)
  void Create(const event::CreateEvent& e, Enqueuer& q, const HandlerContext&) const override {
    EnqueueOwnersOf({e.object}, q);
  }
  // mirrors enqueue_owner.go enqueueRequestForOwner.Update: owners of old and new, deduplicated
  void Update(const event::UpdateEvent& e, Enqueuer& q, const HandlerContext&) const override {
    EnqueueOwnersOf({e.object_old, e.object_new}, q);
  }
  void Delete(const event::DeleteEvent& e, Enqueuer& q, const HandlerContext&) const override {
    EnqueueOwnersOf({e.object}, q);
  }
  void Generic(const event::GenericEvent& e, Enqueuer& q, const HandlerContext&) const override {
    EnqueueOwnersOf({e.object}, q);
  }
  std::string Name() const override { return "EnqueueRequestForOwner"; }

 private:
  void EnqueueOwnersOf(const std::vector<api::ObjectPtr>& objects, Enqueuer& q) const {
    Requests reqs;
    for (const api::ObjectPtr& obj : objects) CollectOwners(obj, &reqs);
    for (const auto& [req, obj] : reqs) q.Add(req, std::nullopt, Name(), obj);
  }

  // mirrors enqueue_owner.go getOwnersReferences
  std::vector<api::OwnerReference> OwnerReferencesOf(const api::Json& obj) const {
    if (!only_controller_) return api::OwnerReferences(obj);
    std::optional<api::OwnerReference> controller = api::GetControllerOf(obj);
    if (!controller) return {};
    return {*controller};
  }

  // mirrors enqueue_owner.go getOwnerReconcileRequest
  void CollectOwners(const api::ObjectPtr& obj, Requests* reqs) const {
    if (obj == nullptr) return;
    for (const api::OwnerReference& ref : OwnerReferencesOf(*obj)) {
      std::string ref_group;
      if (!ParseGroup(ref.apiVersion, &ref_group)) return;  // stops; earlier matches stay
      if (ref.kind != kind_ || ref_group != group_) continue;
      reconcile::Request req{namespaced_ ? api::Namespace(*obj) : std::string(), ref.name};
      reqs->emplace(std::move(req), obj);
    }
  }

  std::string group_;
  std::string kind_;
  bool namespaced_;
  bool only_controller_;
};

}  // namespace

EventHandlerPtr EnqueueRequestForOwner(const std::string& owner_group,
                                       const std::string& owner_kind, bool owner_namespaced,
                                       bool only_controller_owner) {
  RLAB_ASSERT(!owner_kind.empty(), "EnqueueRequestForOwner needs the owner's kind");
  return WithLowPriorityWhenUnchanged(std::make_shared<OwnerHandler>(
      owner_group, owner_kind, owner_namespaced, only_controller_owner));
}

}  // namespace handler
