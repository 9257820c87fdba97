#include "core/controller/controllerutil/controllerutil.h"

#include <optional>
#include <utility>

#include "core/api/kind.h"
#include "core/api/patch.h"

namespace controllerutil {
namespace {

using base::Status;
using base::StatusCode;

constexpr const char* kAlreadyOwnedInfix = " is already owned by another ";

Status Invalid(std::string message) { return Status(StatusCode::kInvalid, std::move(message)); }

struct GroupVersion {
  std::string group;
  std::string version;
};

// ParseGroupVersion: "" and "v1" have no group, "g/v1" has one, more slashes are an error.
// mirrors apimachinery pkg/runtime/schema/group_version.go ParseGroupVersion
std::optional<GroupVersion> ParseGroupVersion(const std::string& api_version) {
  if (api_version.empty() || api_version == "/") return GroupVersion{};
  const size_t slash = api_version.find('/');
  if (slash == std::string::npos) return GroupVersion{"", api_version};
  if (api_version.find('/', slash + 1) != std::string::npos) return std::nullopt;
  return GroupVersion{api_version.substr(0, slash), api_version.substr(slash + 1)};
}

// RefField reads a string field of an ownerReference entry ("" when absent or not a string).
std::string RefField(const api::Json& ref, const char* key) {
  if (!ref.is_object()) return "";
  auto it = ref.find(key);
  return it != ref.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// SameRef: the two references name the same object — same group (the version is ignored), kind
// and name; an unparsable apiVersion never matches. mirrors controllerutil.go referSameObject
bool SameRef(const api::Json& a, const api::Json& b) {
  const std::optional<GroupVersion> a_gv = ParseGroupVersion(RefField(a, "apiVersion"));
  const std::optional<GroupVersion> b_gv = ParseGroupVersion(RefField(b, "apiVersion"));
  if (!a_gv.has_value() || !b_gv.has_value()) return false;
  return a_gv->group == b_gv->group && RefField(a, "kind") == RefField(b, "kind") &&
         RefField(a, "name") == RefField(b, "name");
}

// ValidateOwner compares namespaces only, as upstream does (it does not consult the kinds'
// scope). mirrors controllerutil.go validateOwner
Status ValidateOwner(const api::Json& owner, const api::Json& object) {
  const std::string owner_ns = api::Namespace(owner);
  if (owner_ns.empty()) return Status::OK();
  const std::string object_ns = api::Namespace(object);
  if (object_ns.empty()) {
    return Invalid(
        "cluster-scoped resource must not have a namespace-scoped owner, owner's "
        "namespace " +
        owner_ns);
  }
  if (owner_ns != object_ns) {
    return Invalid("cross-namespace owner references are disallowed, owner's namespace " +
                   owner_ns + ", obj's namespace " + object_ns);
  }
  return Status::OK();
}

// OwnerApiVersion resolves the owner's group/version/kind the way apiutil.GVKForObject does for
// an unstructured object (kind and version must be set), then checks the registry, which plays
// the scheme. Returns the reference's apiVersion.
// mirrors apimachinery runtime/scheme.go ObjectKinds (Unstructured branch) and its errors
base::StatusOr<std::string> OwnerApiVersion(const api::Json& owner) {
  std::optional<GroupVersion> gv = ParseGroupVersion(api::ApiVersion(owner));
  // An unparsable apiVersion yields an empty GroupVersionKind (unstructured's GroupVersionKind).
  const std::string kind = gv.has_value() ? api::Kind(owner) : "";
  if (kind.empty()) return Invalid("Object 'Kind' is missing in 'unstructured object has no kind'");
  if (gv->version.empty()) {
    return Invalid("Object 'apiVersion' is missing in 'unstructured object has no version'");
  }
  const std::string api_version = gv->group.empty() ? gv->version : gv->group + "/" + gv->version;
  const api::KindInfo* info = api::FindKindFor(api_version, kind);
  if (info == nullptr || info->kind != kind) {
    // mirrors apimachinery runtime/error.go notRegisteredErr
    return Invalid("no kind \"" + kind + "\" is registered for version \"" + api_version +
                   "\" in scheme \"rlab\"");
  }
  return api_version;
}

// OwnerRefs returns obj's metadata.ownerReferences, or an empty list when absent or malformed.
api::Json OwnerRefs(const api::Json& obj) {
  const api::Json::json_pointer ptr("/metadata/ownerReferences");
  if (obj.contains(ptr) && obj.at(ptr).is_array()) return obj.at(ptr);
  return api::Json::array();
}

// UpsertOwnerRef replaces the entry that refers to the same object, or appends ref.
// mirrors controllerutil.go upsertOwnerRef
void UpsertOwnerRef(const api::Json& ref, api::Json& object) {
  api::Json refs = OwnerRefs(object);
  bool replaced = false;
  for (api::Json& existing : refs) {
    if (SameRef(existing, ref)) {
      existing = ref;
      replaced = true;
      break;
    }
  }
  if (!replaced) refs.push_back(ref);
  api::Metadata(object)["ownerReferences"] = std::move(refs);
}

// SetReference is the shared body of SetControllerReference and SetOwnerReference.
Status SetReference(const char* caller, bool controller, const api::Json& owner, api::Json& object,
                    const std::vector<OwnerReferenceOption>& opts) {
  if (!owner.is_object()) {
    return Invalid(std::string(owner.type_name()) + " is not a runtime.Object, cannot call " +
                   caller);
  }
  Status valid = ValidateOwner(owner, object);
  if (!valid.ok()) return valid;
  base::StatusOr<std::string> api_version = OwnerApiVersion(owner);
  if (!api_version.ok()) return api_version.status();
  api::Json ref = {{"apiVersion", *api_version},
                   {"kind", api::Kind(owner)},
                   {"name", api::Name(owner)},
                   {"uid", api::Uid(owner)}};
  if (controller) {
    ref["controller"] = true;
    ref["blockOwnerDeletion"] = true;
  }
  for (const OwnerReferenceOption& opt : opts) {
    if (opt) opt(ref);
  }
  if (controller) {
    // The first controller=true reference (metav1.GetControllerOf), compared as upstream does.
    for (const api::Json& existing : OwnerRefs(object)) {
      const auto c = existing.is_object() ? existing.find("controller") : existing.end();
      if (!existing.is_object() || c == existing.end() || !c->is_boolean() || !c->get<bool>()) {
        continue;
      }
      if (SameRef(existing, ref)) break;
      // mirrors controllerutil.go AlreadyOwnedError.Error
      return Invalid("Object " + api::Namespace(object) + "/" + api::Name(object) +
                     kAlreadyOwnedInfix + RefField(existing, "kind") + " controller " +
                     RefField(existing, "name"));
    }
  }
  UpsertOwnerRef(ref, object);
  return Status::OK();
}

// FinalizerList reads metadata.finalizers the way unstructured.GetFinalizers does: a list of
// strings, or nothing (absent, or any other shape).
std::optional<std::vector<std::string>> FinalizerList(const api::Json& obj) {
  const api::Json::json_pointer ptr("/metadata/finalizers");
  if (!obj.is_object() || !obj.contains(ptr)) return std::nullopt;
  const api::Json& f = obj.at(ptr);
  if (!f.is_array()) return std::nullopt;
  std::vector<std::string> out;
  for (const api::Json& v : f) {
    if (!v.is_string()) return std::nullopt;
    out.push_back(v.get<std::string>());
  }
  return out;
}

// Mutate runs f and checks the key did not move. mirrors controllerutil.go mutate
Status Mutate(const MutateFn& f, api::Json& obj) {
  if (!f) return Status::OK();
  const std::string ns = api::Namespace(obj);
  const std::string name = api::Name(obj);
  Status s = f(obj);
  if (!s.ok()) return s;
  if (api::Namespace(obj) != ns || api::Name(obj) != name) {
    return Invalid("MutateFn cannot mutate object name and/or object namespace");
  }
  return Status::OK();
}

// GetOrCreate is the shared first half of CreateOrUpdate and CreateOrPatch: it returns
// `created`/an error when the object was absent (or unreadable), or nullopt when obj now holds
// the stored object.
std::optional<OperationOutcome> GetOrCreate(client::Client& c, api::Json& obj, const MutateFn& f) {
  base::StatusOr<api::ObjectPtr> got = c.Get(api::Kind(obj), api::Namespace(obj), api::Name(obj));
  if (got.ok()) {
    obj = **got;
    return std::nullopt;
  }
  if (!base::IsNotFound(got.status()))
    return OperationOutcome{OperationResult::kNone, got.status()};
  Status mutated = Mutate(f, obj);
  if (!mutated.ok()) return OperationOutcome{OperationResult::kNone, mutated};
  base::StatusOr<api::ObjectPtr> created = c.Create(obj);
  if (!created.ok()) return OperationOutcome{OperationResult::kNone, created.status()};
  obj = **created;
  return OperationOutcome{OperationResult::kCreated, Status::OK()};
}

// SplitStatus removes status from doc and returns it (null when absent).
api::Json SplitStatus(api::Json& doc, bool* has_status) {
  *has_status = doc.is_object() && doc.contains("status");
  if (!*has_status) return api::Json();
  api::Json status = doc["status"];
  doc.erase("status");
  return status;
}

}  // namespace

OwnerReferenceOption WithBlockOwnerDeletion(bool block) {
  return [block](api::Json& ref) { ref["blockOwnerDeletion"] = block; };
}

Status SetControllerReference(const api::Json& owner, api::Json& controlled,
                              const std::vector<OwnerReferenceOption>& opts) {
  return SetReference("SetControllerReference", /*controller=*/true, owner, controlled, opts);
}

Status SetOwnerReference(const api::Json& owner, api::Json& object,
                         const std::vector<OwnerReferenceOption>& opts) {
  return SetReference("SetOwnerReference", /*controller=*/false, owner, object, opts);
}

bool IsAlreadyOwned(const Status& status) {
  return status.code() == StatusCode::kInvalid && status.message().rfind("Object ", 0) == 0 &&
         status.message().find(kAlreadyOwnedInfix) != std::string::npos;
}

const char* OperationResultName(OperationResult result) {
  switch (result) {
    case OperationResult::kNone:
      return "unchanged";
    case OperationResult::kCreated:
      return "created";
    case OperationResult::kUpdated:
      return "updated";
    case OperationResult::kUpdatedStatus:
      return "updatedStatus";
    case OperationResult::kUpdatedStatusOnly:
      return "updatedStatusOnly";
  }
  return "unchanged";
}

OperationOutcome CreateOrUpdate(client::Client& c, api::Json& obj, const MutateFn& f) {
  if (std::optional<OperationOutcome> done = GetOrCreate(c, obj, f)) return *done;
  const api::Json existing = obj;
  Status mutated = Mutate(f, obj);
  if (!mutated.ok()) return OperationOutcome{OperationResult::kNone, mutated};
  if (existing == obj) return OperationOutcome{OperationResult::kNone, Status::OK()};
  base::StatusOr<api::ObjectPtr> updated = c.Update(obj);
  if (!updated.ok()) return OperationOutcome{OperationResult::kNone, updated.status()};
  obj = **updated;
  return OperationOutcome{OperationResult::kUpdated, Status::OK()};
}

OperationOutcome CreateOrPatch(client::Client& c, api::Json& obj, const MutateFn& f) {
  if (std::optional<OperationOutcome> done = GetOrCreate(c, obj, f)) return *done;
  // Both patches are computed against the object as read (client.MergeFrom(obj.DeepCopy())).
  const api::Json original = obj;
  api::Json before = obj;
  bool has_before_status = false;
  const api::Json before_status = SplitStatus(before, &has_before_status);

  Status mutated = Mutate(f, obj);
  if (!mutated.ok()) return OperationOutcome{OperationResult::kNone, mutated};

  api::Json after = obj;
  bool has_after_status = false;
  const api::Json after_status = SplitStatus(after, &has_after_status);

  const std::string kind = api::Kind(obj);
  const std::string ns = api::Namespace(obj);
  const std::string name = api::Name(obj);
  OperationResult result = OperationResult::kNone;
  if (before != after) {
    // The main patch carries every difference, status included; the server ignores status on
    // the main resource of a kind with a status subresource.
    base::StatusOr<api::ObjectPtr> patched = c.Patch(kind, ns, name, client::PatchType::kJsonMerge,
                                                     api::CreateMergePatch(original, obj));
    if (!patched.ok()) return OperationOutcome{result, patched.status()};
    obj = **patched;
    result = OperationResult::kUpdated;
  }
  if ((has_before_status || has_after_status) && before_status != after_status) {
    if (result == OperationResult::kUpdated) {
      // The patch answer carries the server's status; put the desired one back.
      if (has_after_status) {
        obj["status"] = after_status;
      } else if (obj.is_object()) {
        obj.erase("status");
      }
    }
    base::StatusOr<api::ObjectPtr> patched = c.PatchStatus(
        kind, ns, name, client::PatchType::kJsonMerge, api::CreateMergePatch(original, obj));
    if (!patched.ok()) return OperationOutcome{result, patched.status()};
    obj = **patched;
    result = result == OperationResult::kUpdated ? OperationResult::kUpdatedStatus
                                                 : OperationResult::kUpdatedStatusOnly;
  }
  return OperationOutcome{result, Status::OK()};
}

bool AddFinalizer(api::Json& obj, const std::string& finalizer) {
  if (!obj.is_object() && !obj.is_null()) return false;  // not an object: nothing to edit
  std::vector<std::string> list = FinalizerList(obj).value_or(std::vector<std::string>{});
  for (const std::string& f : list) {
    if (f == finalizer) return false;
  }
  list.push_back(finalizer);
  api::Metadata(obj)["finalizers"] = list;
  return true;
}

bool RemoveFinalizer(api::Json& obj, const std::string& finalizer) {
  std::optional<std::vector<std::string>> list = FinalizerList(obj);
  if (!list.has_value()) {
    // mirrors unstructured SetFinalizers(nil): the field goes away.
    if (obj.is_object() && obj.contains("metadata") && obj["metadata"].is_object()) {
      obj["metadata"].erase("finalizers");
    }
    return false;
  }
  std::vector<std::string> kept;
  for (const std::string& f : *list) {
    if (f != finalizer) kept.push_back(f);
  }
  const bool removed = kept.size() != list->size();
  api::Metadata(obj)["finalizers"] = api::Json(kept);  // [] when the last one went
  return removed;
}

bool ContainsFinalizer(const api::Json& obj, const std::string& finalizer) {
  for (const std::string& f : FinalizerList(obj).value_or(std::vector<std::string>{})) {
    if (f == finalizer) return true;
  }
  return false;
}

}  // namespace controllerutil
