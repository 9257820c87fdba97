#include "core/handler/enqueue_owner.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/api/fields.h"
#include "core/api/pointer.h"
#include "core/base/assert.h"

namespace handler {
namespace {

// ParseGroup extracts the group of an apiVersion; false when it has more than one '/'.
// mirrors apimachinery pkg/runtime/schema/group_version.go ParseGroupVersion
bool ParseGroup(std::string_view api_version, std::string_view* group) {
  *group = {};
  if (api_version.empty() || api_version == "/") return true;
  size_t slash = api_version.find('/');
  if (slash == std::string_view::npos) return true;
  if (api_version.find('/', slash + 1) != std::string_view::npos) return false;
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

  // mirrors enqueue_owner.go getOwnersReferences + getOwnerReconcileRequest. The references are
  // read through api::OwnerRef views of the object's own entries.
  void CollectOwners(const api::ObjectPtr& obj, Requests* reqs) const {
    if (obj == nullptr) return;
    // Consider adds the request a reference names; false stops (an unparsable apiVersion),
    // keeping the earlier matches.
    auto consider = [&](const api::Json& ref) {
      std::string_view group;
      const api::OwnerRef owner(ref);
      if (!ParseGroup(owner.ApiVersion(), &group)) return false;
      if (owner.Kind() != kind_ || group != group_) return true;
      reconcile::Request req{namespaced_ ? api::Namespace(*obj) : std::string(), owner.Name()};
      reqs->emplace(std::move(req), obj);
      return true;
    };
    if (only_controller_) {
      if (const api::Json* ref = api::ControllerRef(*obj)) consider(*ref);
      return;
    }
    const api::Json* refs = api::ObjectMeta(*obj).OwnerReferences();
    if (refs == nullptr || !refs->is_array()) return;
    for (const api::Json& ref : *refs) {
      if (!consider(ref)) return;
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
