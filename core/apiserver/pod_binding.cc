// ApiServer::Bind: the pods/binding subresource, kube-scheduler's one write per scheduled Pod.

#include <string>
#include <utility>
#include <vector>

#include "core/api/condition.h"
#include "core/api/object.h"
#include "core/api/pointer.h"
#include "core/apiserver/api_server.h"
#include "core/apiserver/internal/request_size.h"

namespace apiserver {
namespace {

using api::Json;
using base::Status;
using base::StatusCode;

// BindingErrors mirrors pkg/apis/core/validation ValidatePodBinding: the target must be a Node
// (or name no kind) and must be named.
std::vector<std::string> BindingErrors(const Json& binding) {
  std::vector<std::string> errors;
  const Json* target = api::Member(binding, "target");
  const std::string kind = target != nullptr ? api::MemberString(*target, "kind") : "";
  const std::string name = target != nullptr ? api::MemberString(*target, "name") : "";
  if (!kind.empty() && kind != "Node") {
    errors.push_back("target.kind: Unsupported value: \"" + kind +
                     "\": supported values: \"Node\", \"<empty>\"");
  }
  if (name.empty()) errors.push_back("target.name: Required value");
  return errors;
}

// Aggregate joins field errors as apimachinery's utilerrors.NewAggregate prints them.
std::string Aggregate(const std::vector<std::string>& errors) {
  if (errors.size() == 1) return errors[0];
  std::string out = "[";
  for (size_t i = 0; i < errors.size(); ++i) out += (i ? ", " : "") + errors[i];
  return out + "]";
}

// BoundVersion starts the bound Pod's version from the stored one without copying what a
// binding leaves alone: spec and metadata are objects of their own whose members view the stored
// version's (api::ShareEachMember), so setting nodeName or annotations copies nothing else; the
// status, whose conditions the binding rewrites, is a plain copy.
Json BoundVersion(const Json& stored) {
  const Json::object_t& from = stored.get_ref<const Json::object_t&>();
  Json next = api::ObjectWithRoom(from.size() + 1);
  Json::object_t& to = next.get_ref<Json::object_t&>();
  for (const auto& [key, value] : from) {  // keys are unique: every emplace inserts
    if (key.view() == "status") {
      to.emplace(key, value);
    } else if (value.is_object() && (key.view() == "spec" || key.view() == "metadata")) {
      to.emplace(key, api::ShareEachMember(value));
    } else {
      to.emplace(key, api::ShareStored(value));
    }
  }
  return next;
}

}  // namespace

// mirrors kubernetes pkg/registry/core/pod/storage/storage.go BindingREST.Create, assignPod and
// setPodHostAndAnnotations (with the binding's UID as a precondition)
base::StatusOr<api::ObjectPtr> ApiServer::Bind(const RequestContext& ctx, const Json& binding) {
  const api::KindInfo* kind = Resolve("Pod");
  const std::string ns = binding.is_object() ? api::Namespace(binding) : "";
  const std::string name = binding.is_object() ? api::Name(binding) : "";
  auto fail = [&](Status s) -> base::StatusOr<api::ObjectPtr> {
    TraceRequest(ctx, "create", kind, ns, name, "binding", s.http_code(), "");
    return s;
  };
  if (!binding.is_object()) {
    return fail(Status(StatusCode::kBadRequest, "json: cannot unmarshal " +
                                                    std::string(binding.type_name()) +
                                                    " into Go value of type v1.Binding"));
  }
  if (name.empty()) {
    // client-go refuses to build the URL pods/<name>/binding without a name
    return fail(Status(StatusCode::kBadRequest, "resource name may not be empty"));
  }
  if (internal::RequestTooLarge(binding, kMaxRequestBytes)) {
    return fail(Status(StatusCode::kRequestEntityTooLarge,
                       "Request entity too large: limit is 3145728"));
  }
  if (Status s = Authorize(ctx, "create", kind, "binding", ns, name); !s.ok()) return fail(s);
  // Decoding the body comes before validating it: annotations are a map of strings.
  const Json* annotations = api::Member(binding, "metadata", "annotations");
  if (annotations != nullptr && !annotations->is_null()) {
    bool strings = annotations->is_object();
    for (auto it = annotations->begin(); strings && it != annotations->end(); ++it) {
      strings = it->is_string();
    }
    if (!strings) {
      return fail(Status(StatusCode::kBadRequest,
                         "json: cannot unmarshal into Go struct field "
                         "ObjectMeta.metadata.annotations of type map[string]string"));
    }
  }
  if (std::vector<std::string> errors = BindingErrors(binding); !errors.empty()) {
    // A field.ErrorList aggregate is not an API status, so the handler answers 500 with its text.
    return fail(Status(StatusCode::kInternal, Aggregate(errors)));
  }
  api::ObjectPtr stored = Peek("Pod", ns, name);
  if (stored == nullptr) return fail(Status(StatusCode::kNotFound, NotFoundMessage(kind, name)));
  auto conflict = [&](const std::string& why) {
    return fail(Status(StatusCode::kConflict,
                       "Operation cannot be fulfilled on pods/binding \"" + name + "\": " + why));
  };
  const std::string uid = api::Uid(binding);
  if (!uid.empty() && uid != api::Uid(*stored)) {
    // mirrors storage.Preconditions.Check: the Pod was replaced under the same name
    return fail(Status(StatusCode::kConflict,
                       "Operation cannot be fulfilled on pods \"" + name +
                           "\": Precondition failed: UID in precondition: " + uid +
                           ", UID in object meta: " + api::Uid(*stored)));
  }
  if (api::IsBeingDeleted(*stored)) {
    return conflict("pod " + name + " is being deleted, cannot be assigned to a host");
  }
  const Json* spec = api::Member(*stored, "spec");
  const std::string node = spec != nullptr ? api::MemberString(*spec, "nodeName") : "";
  if (!node.empty()) {
    return conflict("pod " + name + " is already assigned to node \"" + node + "\"");
  }
  const Json* gates = spec != nullptr ? api::Member(*spec, "schedulingGates") : nullptr;
  if (gates != nullptr && gates->is_array() && !gates->empty()) {
    return conflict("pod " + name + " has non-empty .spec.schedulingGates");
  }

  // One write, as GuaranteedUpdate makes it: no strategy, no generation (Pods have none here).
  Json next = BoundVersion(*stored);  // it views the stored version (moved into Commit)
  next["spec"]["nodeName"] = api::MemberString(*api::Member(binding, "target"), "name");
  if (annotations != nullptr && !annotations->empty()) {
    Json& into = api::Metadata(next)["annotations"];
    for (auto it = annotations->begin(); it != annotations->end(); ++it) into[it.key()] = *it;
  }
  Json& status = next["status"];
  if (!status.is_object()) status = Json::object();
  Json conditions = status.contains("conditions") ? std::move(status["conditions"]) : Json();
  status["conditions"] = api::UpsertCondition(
      std::move(conditions), Json{{"type", "PodScheduled"}, {"status", "True"}},
      scheduler_.clock().Now());
  const int64_t seq =
      TraceRequest(ctx, "create", kind, ns, name, "binding", 201, std::to_string(rv_ + 1));
  return Commit(kind, stored, std::move(next), /*removed=*/false, seq);
}

}  // namespace apiserver
