#include "core/apiserver/internal/namespace_registry.h"

#include <utility>

#include "core/api/pointer.h"

namespace apiserver::internal {

using api::Json;

bool IsNamespace(const api::KindInfo* kind) {
  return kind != nullptr && kind->group.empty() && kind->kind == "Namespace";
}

bool IsTerminating(const Json& ns) { return api::GetString(ns, "/status/phase") == "Terminating"; }

bool HasSpecFinalizers(const Json& ns) {
  const Json* finalizers = api::FindPointer(ns, "/spec/finalizers");
  return finalizers != nullptr && finalizers->is_array() && !finalizers->empty();
}

// mirrors pkg/registry/core/namespace/strategy.go PrepareForCreate
void PrepareNamespaceForCreate(Json& ns) {
  ns["status"] = Json{{"phase", "Active"}};
  Json& spec = ns["spec"];
  if (!spec.is_object()) spec = Json::object();
  Json& finalizers = spec["finalizers"];
  if (!finalizers.is_array()) finalizers = Json::array();
  for (const Json& f : finalizers) {
    if (f.is_string() && f.get<std::string>() == kKubernetesFinalizer) return;
  }
  finalizers.push_back(kKubernetesFinalizer);
}

// mirrors pkg/registry/core/namespace/strategy.go PrepareForUpdate (spec.finalizers kept)
void KeepSpecFinalizers(const Json& stored, Json& next) {
  const Json* kept = api::FindPointer(stored, "/spec/finalizers");
  Json& spec = next["spec"];
  if (!spec.is_object()) spec = Json::object();
  if (kept != nullptr) {
    spec["finalizers"] = *kept;
  } else {
    spec.erase("finalizers");
  }
  if (spec.empty()) next.erase("spec");
}

// mirrors pkg/registry/core/namespace/storage/storage.go Delete (the first request)
void MarkTerminating(Json& ns, const std::string& now) {
  api::Metadata(ns)["deletionTimestamp"] = now;
  Json& status = ns["status"];
  if (!status.is_object()) status = Json::object();
  status["phase"] = "Terminating";
}

// mirrors pkg/registry/core/namespace/storage/storage.go Delete (spec.finalizers not empty)
base::Status TerminatingConflict(const std::string& name) {
  return base::Status(base::StatusCode::kConflict,
                      "Operation cannot be fulfilled on namespaces \"" + name +
                          "\": The system is ensuring all content is removed from this "
                          "namespace.  Upon completion, this namespace will automatically be "
                          "purged by the system.");
}

// mirrors plugin/pkg/admission/namespace/lifecycle/admission.go (admission.NewForbidden)
base::Status TerminatingForbidden(const api::KindInfo& kind, const std::string& name,
                                  const std::string& ns) {
  return base::Status(base::StatusCode::kForbidden,
                      kind.GroupResource() + " \"" + name +
                          "\" is forbidden: unable to create new content in namespace " + ns +
                          " because it is being terminated");
}

}  // namespace apiserver::internal
