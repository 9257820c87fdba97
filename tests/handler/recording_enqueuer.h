#pragma once
// RecordingEnqueuer records what handlers enqueue, and Pod/Obj build the objects the handler
// tables use. Test-only helpers shared by tests/handler/*_test.cc.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/api/object.h"
#include "core/handler/event_handler.h"

namespace handler_test {

// RecordingEnqueuer keeps every Add in order.
class RecordingEnqueuer final : public handler::Enqueuer {
 public:
  struct Added {
    reconcile::Request req;
    std::optional<int> priority;
    std::string handler_name;
    api::ObjectPtr object;
  };

  void Add(const reconcile::Request& req, std::optional<int> priority,
           const std::string& handler_name, const api::ObjectPtr& object) override {
    adds.push_back({req, priority, handler_name, object});
  }

  // Keys renders each add as "key@priority" ("unset" when no priority was given).
  std::vector<std::string> Keys() const {
    std::vector<std::string> out;
    for (const Added& a : adds) {
      out.push_back(a.req.Key() + "@" +
                    (a.priority ? std::to_string(*a.priority) : std::string("unset")));
    }
    return out;
  }

  std::vector<Added> adds;
};

// Owner is one ownerReference.
inline api::Json Owner(const std::string& api_version, const std::string& kind,
                       const std::string& name, bool controller = false) {
  api::OwnerReference ref;
  ref.apiVersion = api_version;
  ref.kind = kind;
  ref.name = name;
  ref.uid = "uid-" + name;
  ref.controller = controller;
  return ref.ToJson();
}

// Pod builds a Pod with a resourceVersion, optional labels and owner references.
inline api::ObjectPtr Pod(const std::string& ns, const std::string& name, const std::string& rv,
                          std::vector<api::Json> owners = {},
                          api::Json labels = api::Json::object()) {
  api::Json meta = {{"name", name}, {"resourceVersion", rv}};
  if (!ns.empty()) meta["namespace"] = ns;
  if (!owners.empty()) meta["ownerReferences"] = owners;
  if (!labels.empty()) meta["labels"] = std::move(labels);
  return api::MakeObject({{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", meta}});
}

inline handler::HandlerContext Pq() { return handler::HandlerContext{true}; }
inline handler::HandlerContext Classic() { return handler::HandlerContext{false}; }

// Call says which EventHandler method a table row calls.
enum class Call { kCreate, kCreateInitial, kUpdate, kDelete, kDeleteUnknown, kGeneric };

// Dispatch calls the handler method named by call. Create and Delete use obj_new; Update uses
// both.
inline void Dispatch(const handler::EventHandler& h, Call call, const api::ObjectPtr& obj_old,
                     const api::ObjectPtr& obj_new, handler::Enqueuer& q,
                     const handler::HandlerContext& ctx) {
  switch (call) {
    case Call::kCreate:
      h.Create({obj_new, false}, q, ctx);
      break;
    case Call::kCreateInitial:
      h.Create({obj_new, true}, q, ctx);
      break;
    case Call::kUpdate:
      h.Update({obj_old, obj_new}, q, ctx);
      break;
    case Call::kDelete:
      h.Delete({obj_new, false}, q, ctx);
      break;
    case Call::kDeleteUnknown:
      h.Delete({obj_new, true}, q, ctx);
      break;
    case Call::kGeneric:
      h.Generic({obj_new}, q, ctx);
      break;
  }
}

}  // namespace handler_test
