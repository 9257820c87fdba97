#include "core/apiserver/api_server.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <string_view>
#include <type_traits>
#include <utility>

#include "core/api/fields.h"
#include "core/api/patch.h"
#include "core/api/pointer.h"
#include "core/api/schema.h"
#include "core/api/strategic_merge.h"
#include "core/apiserver/internal/crd_registry.h"
#include "core/apiserver/internal/filters.h"
#include "core/apiserver/internal/indexed_watchers.h"
#include "core/apiserver/internal/namespace_registry.h"
#include "core/apiserver/internal/pod_update.h"
#include "core/apiserver/internal/request_size.h"
#include "core/apiserver/internal/sibling_specs.h"
#include "core/base/assert.h"
#include "core/sim/cause_scope.h"

namespace apiserver {
namespace {

using api::Json;
using base::Status;
using base::StatusCode;

// kWatchCacheCapacity bounds each kind's history (watch from a resourceVersion replays it).
// Simplified: upstream's watchCache (storage/cacher/watch_cache.go) resizes between 100 and
// 102,400 events to keep about 75 s; a fixed window per kind keeps memory flat at 11,000 Pods,
// and nothing in the simulation watches from a resourceVersion older than its own list.
constexpr size_t kWatchCacheCapacity = 1000;
constexpr const char* kOrphanFinalizer = "orphan";
constexpr const char* kForegroundFinalizer = "foregroundDeletion";

// Built in one allocation: every get, peek and write makes one.
std::string StoreKeyOf(const api::KindInfo* kind, std::string_view ns, std::string_view name) {
  std::string key;
  key.reserve(kind->kind.size() + ns.size() + name.size() + 2);
  key.append(kind->kind).append(1, '/').append(ns).append(1, '/').append(name);
  return key;
}

// IsPod: the core/v1 Pod, whose spec is fixed but for a few fields once created.
bool IsPod(const api::KindInfo* kind) {
  return kind != nullptr && kind->group.empty() && kind->kind == "Pod";
}

// IsService: the core/v1 Service, whose cluster IP the API server allocates.
bool IsService(const api::KindInfo* kind) {
  return kind != nullptr && kind->group.empty() && kind->kind == "Service";
}

bool HasString(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// SetFinalizers writes the list back, dropping the field when it becomes empty (as Go's
// omitempty does), so an emptied list compares equal to an absent one.
void SetFinalizers(Json& obj, const std::vector<std::string>& finalizers) {
  Json& meta = api::Metadata(obj);
  if (finalizers.empty()) {
    meta.erase("finalizers");
  } else {
    meta["finalizers"] = finalizers;
  }
}

void CopyField(Json& to, const Json& from, const char* key) {
  auto it = from.find(key);
  if (it != from.end()) {
    to[key] = *it;
  } else {
    to.erase(key);
  }
}

// Merged is api::ApplyMergePatch(*target, patch) (target null: absent) that copies only the
// parts of target the patch keeps, not those it replaces (a kubelet sends its whole status).
// With kTake the patch's values are moved into the result instead of copied, and the members of
// target the patch leaves alone are viewed rather than copied (api::ShareStored: target is a
// stored version, and the caller stores the result or releases it, see PatchInternal).
// mirrors evanphx/json-patch merge.go mergeDocs, as api::ApplyMergePatch does.
template <bool kTake>
Json Merged(const Json* target, std::conditional_t<kTake, Json&, const Json&> patch) {
  if (!patch.is_object()) {
    if constexpr (kTake) {
      return std::move(patch);
    } else {
      return patch;
    }
  }
  const bool merge = target != nullptr && target->is_object();
  // Room for the larger side: exact when the patch restates every member (a kubelet's status).
  Json out = api::ObjectWithRoom(std::max(patch.size(), merge ? target->size() : 0));
  Json::object_t& to = out.get_ref<Json::object_t&>();
  auto& changes = patch.template get_ref<std::conditional_t<kTake, Json::object_t&,
                                                            const Json::object_t&>>();
  static const Json::object_t kNone;
  const Json::object_t& base = merge ? target->get_ref<const Json::object_t&>() : kNone;
  // Both sides are in key order: one pass over the two, appending each key's outcome in order.
  auto b = base.begin();
  auto c = changes.begin();
  while (b != base.end() || c != changes.end()) {
    if (c == changes.end() ||
        (b != base.end() && b->first != c->first && b->first.view() < c->first.view())) {
      if constexpr (kTake) {
        to.emplace(b->first, api::ShareStored(b->second));
      } else {
        to.emplace(b->first, b->second);
      }
      ++b;
      continue;
    }
    const bool both = b != base.end() && b->first == c->first;
    if (!c->second.is_null()) {
      to.emplace(c->first, Merged<kTake>(both ? &b->second : nullptr, c->second));
    }
    if (both) ++b;
    ++c;
  }
  return out;
}

// MergePatchForStatus applies a merge patch sent to the /status endpoint, keeping only what that
// endpoint reads of the patched object: metadata (name, namespace and resourceVersion are checked)
// and status; everything else is reset to the stored object anyway (status_strategy.go). A merge
// patch acts on each top-level key alone, so these keys come out as api::ApplyMergePatch on the
// whole object would make them, without copying the rest of the stored object.
// With kTake the patch's members are moved into the result (the caller gave the body away).
template <bool kTake>
Json MergePatchForStatus(const Json& stored, std::conditional_t<kTake, Json&, const Json&> patch) {
  Json patched = api::ObjectWithRoom(2);  // metadata and status
  using PatchMembers = std::conditional_t<kTake, Json::object_t, const Json::object_t>;
  PatchMembers* patch_members = patch.template get_ptr<PatchMembers*>();
  auto patch_member = [&](std::string_view key) -> decltype(&patch) {
    if (patch_members == nullptr) return nullptr;
    auto it = patch_members->find(key);
    return it == patch_members->end() ? nullptr : &it->second;
  };
  // base is the stored value of key (null when absent), as the whole-object merge would see it.
  auto merge_key = [&](const char* key, const Json* base) {
    auto* change = patch_member(key);
    if (change == nullptr) {
      if (base != nullptr) patched[key] = *base;
    } else if (!change->is_null()) {
      patched[key] = Merged<kTake>(base, *change);
    }
  };
  const Json* stored_meta = api::Member(stored, "metadata");
  if (stored_meta != nullptr && stored_meta->is_object() && patch_member("metadata") == nullptr) {
    Json& meta = patched["metadata"] = api::ObjectWithRoom(3);
    for (const char* key : {"name", "namespace", "resourceVersion"}) {
      if (const Json* field = api::Member(*stored_meta, key)) meta[key] = *field;
    }
  } else {
    merge_key("metadata", stored_meta);
  }
  merge_key("status", api::StatusOf(stored));
  return patched;
}

// OwnSpecAndStatus gives obj's spec and status members of their own when they view another
// document's (api::ShareEachMember): defaulting writes below their top level in place, which a
// view must never see.
void OwnSpecAndStatus(Json& obj) {
  for (const char* key : {"spec", "status"}) {
    auto member = obj.find(key);
    if (member != obj.end() && member->is_object() &&
        member->get_ref<const Json::object_t&>().shared()) {
      *member = Json(*member);  // a copy has members of its own
    }
  }
}

// CopyWithStatus copies the stored object with its status replaced (nullptr: removed), without
// copying the stored status first. The new version views the stored version's spec and the
// objects and arrays inside its metadata (api::ShareStored: the caller stores or drops the
// result), so a Pod's status write copies little beyond the new status. Metadata itself is the
// version's own: the write sets its resourceVersion.
Json CopyWithStatus(const Json& stored, Json* status) {
  const Json::object_t& from = stored.get_ref<const Json::object_t&>();
  Json next = api::ObjectWithRoom(from.size() + 1);
  Json::object_t& to = next.get_ref<Json::object_t&>();
  for (const auto& [key, value] : from) {  // keys are unique: every emplace inserts
    if (key.view() == "status") continue;
    if (key.view() != "metadata" || !value.is_object()) {
      to.emplace(key, api::ShareStored(value));
      continue;
    }
    to.emplace(key, api::ShareEachMember(value));
  }
  if (status != nullptr) next["status"] = std::move(*status);
  return next;
}

// SpecChanged applies the kind's generation rule to the main-endpoint write (§8).
bool GenerationShouldBump(const api::KindInfo* kind, const Json& old_obj, const Json& new_obj) {
  switch (kind->generation) {
    case api::GenerationRule::kNever:
      return false;
    case api::GenerationRule::kSpec: {
      if (kind->custom) {
        // mirrors apiextensions-apiserver customresource/strategy.go PrepareForUpdate: anything
        // outside metadata (status already reset to the stored one) counts.
        Json a = old_obj, b = new_obj;
        a.erase("metadata");
        b.erase("metadata");
        return a != b;
      }
      return old_obj.value("spec", Json()) != new_obj.value("spec", Json());
    }
    case api::GenerationRule::kSpecAndAnnotations:
      // mirrors kubernetes pkg/registry/apps/deployment/strategy.go PrepareForUpdate
      return old_obj.value("spec", Json()) != new_obj.value("spec", Json()) ||
             api::Annotations(old_obj) != api::Annotations(new_obj);
  }
  return false;
}

Status ValidateOwnerReferences(const api::KindInfo* kind, const Json& obj) {
  std::vector<std::string> controllers;
  for (const api::OwnerReference& ref : api::OwnerReferences(obj)) {
    if (ref.controller) {
      controllers.push_back(ref.kind + "/" + ref.name);
    }
  }
  if (controllers.size() <= 1) return Status::OK();
  // mirrors apimachinery pkg/api/validation/objectmeta.go ValidateOwnerReferences
  std::string cause = "metadata.ownerReferences: Invalid value: []v1.OwnerReference{...}: "
                      "Only one reference can have Controller set to true. Found \"true\" in "
                      "references for " + controllers[0] + " and " + controllers[1];
  return Status(StatusCode::kInvalid, api::InvalidMessage(*kind, api::Name(obj), {cause}));
}

}  // namespace

struct ApiServer::Watcher {
  WatchId id = 0;
  const api::KindInfo* kind = nullptr;
  WatchOptions opts;
  internal::LabelFilter labels;
  internal::FieldFilter fields;
  // trigger_value is the value the field selector pins the kind's trigger field to, if any.
  std::optional<std::string> trigger_value;
  // Shared so that a delivery can keep it alive for the call (the callback may stop its own
  // watch) by copying a pointer instead of the function.
  std::shared_ptr<const std::function<void(const WatchEvent&)>> callback;
  std::string deliver_label;  // "watch deliver <watcher>", the label of each delivery event
  base::SimTime last_delivery_at = 0;  // Invariant: deliveries are scheduled in commit order.
};

struct ApiServer::KindState {
  std::deque<HistoryEntry> history;  // Invariant: ascending rv, at most kWatchCacheCapacity.
  int64_t evicted_through = 0;       // rv of the newest change dropped from history (0 = none)
  internal::IndexedWatchers watchers;
};

ApiServer::KindState& ApiServer::StateOf(const api::KindInfo* kind) {
  std::unique_ptr<KindState>& state = kinds_[kind];
  if (state == nullptr) state = std::make_unique<KindState>();
  return *state;
}

std::optional<PatchType> ParsePatchType(const std::string& text) {
  if (text == "merge") return PatchType::kJsonMerge;
  if (text == "json") return PatchType::kJsonPatch;
  if (text == "strategic") return PatchType::kStrategicMerge;
  return std::nullopt;
}

const char* WatchEventTypeName(WatchEventType type) {
  switch (type) {
    case WatchEventType::kAdded: return "ADDED";
    case WatchEventType::kModified: return "MODIFIED";
    case WatchEventType::kDeleted: return "DELETED";
    case WatchEventType::kError: return "ERROR";
  }
  return "ERROR";
}

ApiServer::ApiServer(sim::Scheduler& scheduler, sim::Trace& trace, sim::Prng prng)
    : scheduler_(scheduler),
      trace_(trace),
      prng_(prng),
      siblings_(std::make_unique<internal::SiblingSpecs>()) {}

ApiServer::~ApiServer() = default;

const api::KindInfo* ApiServer::Resolve(const std::string& kind) const {
  if (const api::KindInfo* info = api::FindKind(kind)) return info;
  if (crds_.empty() || kind.empty()) return nullptr;
  std::string lower = kind;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& [crd_name, info] : crds_) {  // crd_name is "plural.group"
    std::string lower_kind = info->kind;
    for (char& c : lower_kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string group = "." + info->group;
    if (info->kind == kind || lower == lower_kind || lower == info->resource ||
        lower == info->singular || lower == crd_name || HasString(info->short_names, lower) ||
        lower == lower_kind + group || lower == info->singular + group) {
      return info;
    }
  }
  return nullptr;
}

const api::KindInfo* ApiServer::DiscoverFor(const std::string& api_version,
                                            const std::string& kind) const {
  if (const api::KindInfo* info = api::FindKindFor(api_version, kind)) return info;
  for (const auto& [crd_name, info] : crds_) {
    if (info->kind == kind && info->ApiVersion() == api_version) return info;
  }
  return nullptr;
}

static bool IsCustomResourceDefinition(const api::KindInfo* kind) {
  return kind == &api::CustomResourceDefinitionKind();
}

Status ApiServer::AdmitCustomResourceDefinition(Json& crd, const api::ObjectPtr& old,
                                                api::KindInfo* kind) const {
  const api::KindInfo& crd_kind = api::CustomResourceDefinitionKind();
  const std::string name = api::Name(crd);
  std::vector<std::string> causes;
  if (crd.contains("spec") && crd["spec"].is_object() && crd["spec"].contains("versions") &&
      crd["spec"]["versions"].is_array()) {
    for (const Json& v : crd["spec"]["versions"]) {
      if (internal::RequestTooLarge(v, 256 * 1024)) {
        causes.push_back("spec.versions: Too long: the sandbox accepts schemas up to 256 KiB");
      }
    }
  }
  if (causes.empty()) internal::CustomKindFrom(crd, kind, &causes);
  if (causes.empty()) {
    // The new kind must not shadow a served one (the sandbox stores objects by Kind).
    const api::KindInfo* by_kind = Resolve(kind->kind);
    const api::KindInfo* by_plural = Resolve(kind->resource);
    const api::KindInfo* mine = nullptr;
    if (auto it = crds_.find(name); it != crds_.end()) mine = it->second;
    for (const api::KindInfo* clash : {by_kind, by_plural}) {
      if (clash != nullptr && clash != mine) {
        causes.push_back("spec.names: Invalid value: " + api::Json(kind->kind).dump() +
                         ": the sandbox already serves kind " + clash->kind + " (" +
                         clash->GroupResource() + "); choose another kind and plural");
        break;
      }
    }
  }
  if (causes.empty() && old != nullptr) {
    const Json& was = (*old)["spec"];
    for (const char* field : {"group", "scope"}) {
      if (was.value(field, Json()) != crd["spec"].value(field, Json())) {
        causes.push_back(std::string("spec.") + field + ": Invalid value: " +
                         crd["spec"].value(field, Json()).dump() + ": field is immutable");
      }
    }
    if (was["names"].value("kind", Json()) != crd["spec"]["names"].value("kind", Json())) {
      causes.push_back(
          "spec.names.kind: Invalid value: " + crd["spec"]["names"].value("kind", Json()).dump() +
          ": field is immutable in the sandbox");
    }
  }
  if (!causes.empty()) {
    return Status(StatusCode::kInvalid, api::InvalidMessage(crd_kind, name, causes));
  }
  if (old == nullptr && crds_.size() >= internal::kMaxCustomResourceDefinitions) {
    return Status(
        StatusCode::kForbidden,
        crd_kind.GroupResource() + " \"" + name + "\" is forbidden: the sandbox serves at most " +
            std::to_string(internal::kMaxCustomResourceDefinitions) + " CustomResourceDefinitions");
  }
  internal::SetCustomResourceDefinitionStatus(crd, base::FormatRfc3339(scheduler_.clock().Now()));
  if (old != nullptr && old->contains("status")) {
    // Conditions keep their first transition time, as the controllers only change them on a
    // transition.
    crd["status"]["conditions"] = (*old)["status"].value("conditions", crd["status"]["conditions"]);
  }
  return Status::OK();
}

void ApiServer::ServeCustomResourceDefinition(const std::string& crd_name, api::KindInfo kind) {
  if (auto it = crds_.find(crd_name); it != crds_.end()) {
    *it->second = std::move(kind);  // an update: the new schema and names
    return;
  }
  for (const auto& slot : custom_kinds_) {
    // A CRD of the same kind that came back takes its old slot (watchers point at it).
    if (slot->kind == kind.kind && slot->group == kind.group && slot->resource == kind.resource) {
      bool taken = false;
      for (const auto& [n, info] : crds_) taken = taken || info == slot.get();
      if (!taken) {
        *slot = std::move(kind);
        crds_[crd_name] = slot.get();
        return;
      }
    }
  }
  custom_kinds_.push_back(std::make_unique<api::KindInfo>(std::move(kind)));
  crds_[crd_name] = custom_kinds_.back().get();
}

void ApiServer::StopServingCustomResourceDefinition(const std::string& crd_name, int64_t cause) {
  auto it = crds_.find(crd_name);
  if (it == crds_.end()) return;
  const api::KindInfo* kind = it->second;
  // Teaching: upstream's finalizer (customresourcecleanup.apiextensions.k8s.io) keeps the CRD
  // while a controller deletes each custom resource, honouring their finalizers; the sandbox
  // removes them in the CRD's deletion, each with its DELETED watch event.
  for (const api::ObjectPtr& object : PeekAll(kind->kind)) {
    Commit(kind, object, Json(*object), /*removed=*/true, cause);
  }
  crds_.erase(it);
}

std::string ApiServer::NotFoundMessage(const api::KindInfo* kind, const std::string& name) const {
  return kind->GroupResource() + " \"" + name + "\" not found";
}

std::string ApiServer::NewUid() { return sim::Uuid4(prng_); }

std::string ApiServer::GenerateNameSuffix() {
  // mirrors apiserver pkg/storage/names/generate.go (5 characters from this alphabet)
  static const char kAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  std::string suffix;
  for (int i = 0; i < 5; ++i) suffix += kAlphabet[prng_.Below(sizeof(kAlphabet) - 1)];
  return suffix;
}

int64_t ApiServer::TraceRequest(const RequestContext& ctx, const std::string& verb,
                                const api::KindInfo* kind, const std::string& ns,
                                const std::string& name, const std::string& subresource, int code,
                                const std::string& rv) {
  return trace_.Emit("api.request", {{"verb", verb},
                                     {"kind", kind != nullptr ? kind->kind : ""},
                                     {"namespace", ns},
                                     {"name", name},
                                     {"subresource", subresource},
                                     {"user", ctx.user},
                                     {"code", code},
                                     {"resourceVersion", rv},
                                     {"cause", ctx.cause.value_or(trace_.current_cause())}});
}

int64_t ApiServer::TraceRejected(const RequestContext& ctx, const std::string& verb,
                                 const std::string& kind, const std::string& ns,
                                 const std::string& name, const std::string& subresource,
                                 const base::Status& status) {
  return TraceRequest(ctx, verb, Resolve(kind), ns, name, subresource, status.http_code(), "");
}

Status ApiServer::Authorize(const RequestContext& ctx, const std::string& verb,
                            const api::KindInfo* kind, const std::string& subresource,
                            const std::string& ns, const std::string& name) const {
  if (!authorizer_) return Status::OK();
  RequestAttributes attrs;
  attrs.user = ctx.user;
  attrs.verb = verb;
  attrs.kind = kind;
  attrs.subresource = subresource;
  attrs.namespace_ = ns;
  attrs.name = name;
  return authorizer_(attrs);
}

Status ApiServer::Admit(const std::string& operation, const api::KindInfo* kind,
                        const RequestContext& ctx, const api::ObjectPtr& object,
                        const api::ObjectPtr& old_object) const {
  AdmissionRequest request{operation, kind, ctx.user, object, old_object};
  for (const auto& [name, webhook] : webhooks_) {
    Status s = webhook(request);
    if (!s.ok()) {
      // mirrors apiserver pkg/admission/plugin/webhook/errors ToStatusErr
      return Status(s.code() == StatusCode::kOk ? StatusCode::kForbidden : s.code(),
                    "admission webhook \"" + name + "\" denied the request: " + s.message());
    }
  }
  return Status::OK();
}

// mirrors plugin/pkg/admission/resourcequota/controller.go (the "exceeded quota" message) and
// apiserver pkg/admission/errors.go NewForbidden (a generated name is named by its prefix).
Status ApiServer::AdmitQuota(const api::KindInfo& kind, const std::string& name) const {
  const bool pod = IsPod(&kind);
  std::string resource, what;
  size_t used = 0, limit = 0;
  if (pod && quota_.pods > 0 && pods_stored_ >= quota_.pods) {
    resource = "pods";
    used = pods_stored_;
    limit = quota_.pods;
    what = "Pods";
  } else if (quota_.objects > 0 && store_.size() >= quota_.objects) {
    resource = "count/objects";
    used = store_.size();
    limit = quota_.objects;
    what = "objects";
  } else {
    return Status::OK();
  }
  const std::string n = std::to_string(limit);
  return Status(StatusCode::kForbidden,
                kind.GroupResource() + " \"" + name + "\" is forbidden: exceeded quota: sandbox, " +
                    "requested: " + resource + "=1, used: " + resource + "=" +
                    std::to_string(used) + ", limited: " + resource + "=" + n +
                    " (the sandbox " + (pod ? "runs" : "stores") + " at most " + n + " " + what +
                    ")");
}

void ApiServer::AddValidatingWebhook(std::string name, ValidatingWebhook webhook) {
  webhooks_.emplace_back(std::move(name), std::move(webhook));
}

// ---------------------------------------------------------------------------------------------
// Create

base::StatusOr<api::ObjectPtr> ApiServer::Create(const RequestContext& ctx, Json obj) {
  const std::string kind_name = api::Kind(obj);
  const api::KindInfo* kind = DiscoverFor(api::ApiVersion(obj), kind_name);
  std::string ns = api::Namespace(obj);
  std::string name = api::Name(obj);
  auto fail = [&](Status s) -> base::StatusOr<api::ObjectPtr> {
    TraceRequest(ctx, "create", kind, ns, name, "", s.http_code(), "");
    return s;
  };
  if (kind == nullptr) {
    return fail(Status(StatusCode::kNotFound, "the server could not find the requested resource"));
  }
  if (internal::RequestTooLarge(obj, kMaxRequestBytes)) {
    return fail(Status(StatusCode::kRequestEntityTooLarge,
                       "Request entity too large: limit is 3145728"));
  }
  if (!kind->namespaced) {
    ns.clear();
    api::Metadata(obj).erase("namespace");
  } else if (ns.empty()) {
    return fail(Status(StatusCode::kBadRequest, "the namespace of the provided object does not "
                                                "match the namespace sent on the request"));
  }
  if (Status s = Authorize(ctx, "create", kind, "", ns, name); !s.ok()) return fail(s);
  if (kind->namespaced) {
    // mirrors plugin/pkg/admission/namespace/lifecycle/admission.go: no content in a namespace
    // that does not exist, and no new content in one being terminated.
    const api::ObjectPtr owner = Peek("Namespace", "", ns);
    if (owner == nullptr) {
      return fail(Status(StatusCode::kNotFound, "namespaces \"" + ns + "\" not found"));
    }
    if (internal::IsTerminating(*owner)) {
      const std::string named = name.empty() ? api::GenerateName(obj) : name;
      return fail(internal::TerminatingForbidden(*kind, named, ns));
    }
  }
  Json& meta = api::Metadata(obj);
  if (!api::ResourceVersion(obj).empty()) {
    // mirrors apiserver pkg/storage/etcd3/store.go Create (errResourceVersionSetOnCreate)
    return fail(Status(StatusCode::kInternal,
                       "resourceVersion should not be set on objects to be created"));
  }
  // What a refusal names: the name, or the generateName prefix before a name is generated.
  const std::string requested_name = name.empty() ? api::GenerateName(obj) : name;
  if (auto n = meta.find("name"); n != meta.end() && !n->is_null() && !n->is_string()) {
    // `name: 12345` is named by its type, before generateName is considered.
    return fail(api::ValidateObjectMeta(*kind, obj));
  }
  if (name.empty()) {
    const std::string prefix = api::GenerateName(obj);
    if (prefix.empty()) {
      return fail(Status(StatusCode::kInvalid,
                         api::InvalidMessage(*kind, "", {"metadata.name: Required value: name or "
                                                         "generateName is required"})));
    }
    // A generated name that collides is retried, as the registry does (bounded).
    for (int attempt = 0; attempt < 8; ++attempt) {
      name = prefix + GenerateNameSuffix();
      if (Peek(kind->kind, ns, name) == nullptr) break;
    }
    api::ObjectBuilder(obj).SetName(name);
  }
  api::ObjectBuilder(obj).SetApiVersion(kind->ApiVersion());
  api::ObjectBuilder(obj).SetKind(kind->kind);
  // Server-owned metadata is set here, whatever the request said.
  for (const char* key : {"uid", "creationTimestamp", "deletionTimestamp",
                          "deletionGracePeriodSeconds", "generation", "selfLink", "managedFields"}) {
    meta.erase(key);
  }
  if (kind->status_subresource) {
    // mirrors customresource/strategy.go PrepareForCreate (status dropped with a /status
    // subresource) and the built-in strategies that reset Status on create.
    obj.erase("status");
    if (kind->kind == "Pod") obj["status"] = Json{{"phase", "Pending"}};
    if (internal::IsNamespace(kind)) internal::PrepareNamespaceForCreate(obj);
  }
  // A Pod stamped from a template its last sibling came from takes that sibling's defaulted
  // spec; any other spec viewing another document's members gets members of its own first.
  const bool pod = kind->kind == "Pod";
  Json arrived;
  if (!(pod && siblings_->TakeDefaultedSpec(obj, &arrived))) {
    if (!pod) OwnSpecAndStatus(obj);
    api::ApplyDefaults(*kind, obj);
  }
  // One message with every cause, as the API server reports metadata and schema errors together.
  if (Status s = api::ValidateObject(*kind, obj); !s.ok()) return fail(s);
  if (Status s = ValidateOwnerReferences(kind, obj); !s.ok()) return fail(s);
  api::KindInfo served;
  const bool crd = IsCustomResourceDefinition(kind);
  if (crd) {
    if (Status s = AdmitCustomResourceDefinition(obj, nullptr, &served); !s.ok()) return fail(s);
  }
  if (Status s = AdmitQuota(*kind, requested_name); !s.ok()) return fail(s);
  if (Peek(kind->kind, ns, name) != nullptr) {
    return fail(Status(StatusCode::kAlreadyExists,
                       kind->GroupResource() + " \"" + name + "\" already exists"));
  }
  const bool service = IsService(kind);
  if (service) {
    // mirrors pkg/registry/core/service/storage/alloc.go allocateCreate
    if (std::string cause = cluster_ips_.AllocateFor(obj); !cause.empty()) {
      return fail(Status(StatusCode::kInvalid, api::InvalidMessage(*kind, name, {cause})));
    }
  }
  api::ObjectBuilder created(obj);
  created.SetUid(NewUid());
  created.SetCreationTimestamp(base::FormatRfc3339(scheduler_.clock().Now()));
  if (kind->generation != api::GenerationRule::kNever) created.SetGeneration(1);
  // Webhooks see a copy of the object; without any webhook nothing is copied.
  if (!webhooks_.empty()) {
    if (Status s = Admit("CREATE", kind, ctx, api::MakeObject(obj), nullptr); !s.ok()) {
      if (service) cluster_ips_.Release(obj);
      return fail(s);
    }
  }
  if (pod) siblings_->Share(obj);
  const int64_t seq = TraceRequest(ctx, "create", kind, ns, name, "", 201,
                                   std::to_string(rv_ + 1));
  api::ObjectPtr stored = Commit(kind, nullptr, std::move(obj), /*removed=*/false, seq);
  if (pod) siblings_->Remember(stored, std::move(arrived));
  if (crd) ServeCustomResourceDefinition(name, std::move(served));
  return stored;
}

// ---------------------------------------------------------------------------------------------
// Reads

base::StatusOr<api::ObjectPtr> ApiServer::Get(const RequestContext& ctx, const std::string& kind_name,
                                              const std::string& ns, const std::string& name) {
  const api::KindInfo* kind = Resolve(kind_name);
  const std::string scoped_ns = kind != nullptr && kind->namespaced ? ns : "";
  auto fail = [&](Status s) -> base::StatusOr<api::ObjectPtr> {
    TraceRequest(ctx, "get", kind, scoped_ns, name, "", s.http_code(), "");
    return s;
  };
  if (kind == nullptr) {
    return fail(Status(StatusCode::kNotFound, "the server doesn't have a resource type \"" +
                                                  kind_name + "\""));
  }
  if (Status s = Authorize(ctx, "get", kind, "", scoped_ns, name); !s.ok()) return fail(s);
  api::ObjectPtr obj = Peek(kind->kind, scoped_ns, name);
  if (obj == nullptr) return fail(Status(StatusCode::kNotFound, NotFoundMessage(kind, name)));
  TraceRequest(ctx, "get", kind, scoped_ns, name, "", 200, api::ResourceVersion(*obj));
  return obj;
}

base::StatusOr<ListResult> ApiServer::List(const RequestContext& ctx, const std::string& kind_name,
                                           const std::string& ns, const ListOptions& opts) {
  const api::KindInfo* kind = Resolve(kind_name);
  const std::string scoped_ns = kind != nullptr && kind->namespaced ? ns : "";
  auto fail = [&](Status s) -> base::StatusOr<ListResult> {
    TraceRequest(ctx, "list", kind, scoped_ns, "", "", s.http_code(), "");
    return s;
  };
  if (kind == nullptr) {
    return fail(Status(StatusCode::kNotFound, "the server doesn't have a resource type \"" +
                                                  kind_name + "\""));
  }
  if (Status s = Authorize(ctx, "list", kind, "", scoped_ns, ""); !s.ok()) return fail(s);
  auto labels = internal::LabelFilter::Parse(opts.label_selector);
  if (!labels.ok()) return fail(labels.status());
  auto fields = internal::FieldFilter::Parse(kind->kind, opts.field_selector);
  if (!fields.ok()) return fail(fields.status());
  ListResult result;
  const std::string prefix = kind->kind + "/" + (scoped_ns.empty() ? "" : scoped_ns + "/");
  for (auto it = store_.lower_bound(prefix); it != store_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    const Json& obj = *it->second;
    if (labels->Matches(obj) && fields->Matches(obj)) result.items.push_back(it->second);
  }
  result.resourceVersion = std::to_string(rv_);
  TraceRequest(ctx, "list", kind, scoped_ns, "", "", 200, result.resourceVersion);
  return result;
}

api::ObjectPtr ApiServer::Peek(const std::string& kind_name, const std::string& ns,
                               const std::string& name) const {
  const api::KindInfo* kind = Resolve(kind_name);
  if (kind == nullptr) return nullptr;
  auto it = store_.find(StoreKeyOf(kind, kind->namespaced ? std::string_view(ns) : "", name));
  return it == store_.end() ? nullptr : it->second;
}

std::vector<api::ObjectPtr> ApiServer::PeekAll(const std::string& kind_name) const {
  std::vector<api::ObjectPtr> out;
  const api::KindInfo* kind = Resolve(kind_name);
  if (kind == nullptr) return out;
  const std::string prefix = kind->kind + "/";
  for (auto it = store_.lower_bound(prefix); it != store_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    out.push_back(it->second);
  }
  return out;
}

int64_t ApiServer::KindRevision(const api::KindInfo* kind) const {
  if (kind == nullptr) return 0;
  auto state = kinds_.find(kind);
  if (state == kinds_.end() || state->second->history.empty()) return 0;
  return state->second->history.back().rv;
}

std::vector<api::ObjectPtr> ApiServer::PeekEverything() const {
  std::vector<api::ObjectPtr> out;
  out.reserve(store_.size());
  for (const auto& [key, obj] : store_) out.push_back(obj);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Update and Patch

base::StatusOr<api::ObjectPtr> ApiServer::Update(const RequestContext& ctx, Json obj,
                                                 const std::string& subresource) {
  const api::KindInfo* kind = DiscoverFor(api::ApiVersion(obj), api::Kind(obj));
  if (kind == nullptr) kind = Resolve(api::Kind(obj));
  return UpdateInternal(ctx, kind, std::move(obj), subresource, "update", /*require_rv=*/true);
}

base::StatusOr<api::ObjectPtr> ApiServer::Patch(const RequestContext& ctx,
                                                const std::string& kind_name, const std::string& ns,
                                                const std::string& name, PatchType type,
                                                const Json& patch, const std::string& subresource) {
  return PatchInternal(ctx, kind_name, ns, name, type, patch, nullptr, subresource);
}

base::StatusOr<api::ObjectPtr> ApiServer::PatchTakingBody(const RequestContext& ctx,
                                                          const std::string& kind_name,
                                                          const std::string& ns,
                                                          const std::string& name, PatchType type,
                                                          Json&& patch,
                                                          const std::string& subresource) {
  return PatchInternal(ctx, kind_name, ns, name, type, patch, &patch, subresource);
}

base::StatusOr<api::ObjectPtr> ApiServer::PatchInternal(const RequestContext& ctx,
                                                        const std::string& kind_name,
                                                        const std::string& ns,
                                                        const std::string& name, PatchType type,
                                                        const Json& patch, Json* owned,
                                                        const std::string& subresource) {
  const api::KindInfo* kind = Resolve(kind_name);
  const std::string scoped_ns = kind != nullptr && kind->namespaced ? ns : "";
  auto fail = [&](Status s) -> base::StatusOr<api::ObjectPtr> {
    TraceRequest(ctx, "patch", kind, scoped_ns, name, subresource, s.http_code(), "");
    return s;
  };
  if (kind == nullptr) {
    return fail(Status(StatusCode::kNotFound, "the server doesn't have a resource type \"" +
                                                  kind_name + "\""));
  }
  if (internal::RequestTooLarge(patch, kMaxRequestBytes)) {
    return fail(Status(StatusCode::kRequestEntityTooLarge,
                       "Request entity too large: limit is 3145728"));
  }
  if (Status s = Authorize(ctx, "patch", kind, subresource, scoped_ns, name); !s.ok()) {
    return fail(s);
  }
  if (subresource == "status" && !kind->status_subresource) {
    return fail(Status(StatusCode::kNotFound, "the server could not find the requested resource"));
  }
  api::ObjectPtr stored = Peek(kind->kind, scoped_ns, name);
  if (stored == nullptr && type == PatchType::kApply && subresource.empty() && patch.is_object()) {
    // Server-side apply creates what does not exist yet.
    Json created = patch;
    if (kind->namespaced && api::Namespace(created).empty()) {
      api::ObjectBuilder(created).SetNamespace(scoped_ns);
    }
    return Create(ctx, std::move(created));
  }
  if (stored == nullptr) return fail(Status(StatusCode::kNotFound, NotFoundMessage(kind, name)));
  // A patch without metadata.resourceVersion applies to the latest object (no optimistic lock);
  // one that carries it is checked like an update. Read before an owned body is taken apart.
  const bool locked = api::ObjectMeta(patch).HasResourceVersion();
  // A status patch's result views the stored status's untouched members (Merged).
  Json patched;
  switch (type) {
    case PatchType::kJsonMerge:
      if (!patch.is_object()) {
        return fail(Status(StatusCode::kBadRequest, "json: cannot unmarshal " +
                                                        std::string(patch.type_name()) +
                                                        " into Go value of type map[string]interface {}"));
      }
      if (subresource != "status") {
        patched = api::ApplyMergePatch(*stored, patch);
      } else if (owned != nullptr) {
        patched = MergePatchForStatus<true>(*stored, *owned);
      } else {
        patched = MergePatchForStatus<false>(*stored, patch);
      }
      break;
    case PatchType::kJsonPatch: {
      auto result = api::ApplyJsonPatch(*stored, patch);
      if (!result.ok()) return fail(result.status());
      patched = std::move(result.value());
      break;
    }
    case PatchType::kStrategicMerge: {
      if (kind->custom) {
        // mirrors apiserver pkg/endpoints/handlers/patch.go: CRDs have no Go struct to derive
        // merge keys from, so strategic merge patch is refused.
        return fail(Status(StatusCode::kUnsupportedMediaType,
                           "the body of the request was in an unknown format - accepted media "
                           "types include: application/json-patch+json, "
                           "application/merge-patch+json, application/apply-patch+yaml"));
      }
      auto result = api::ApplyStrategicMergePatch(kind->kind, *stored, patch);
      if (!result.ok()) return fail(result.status());
      patched = std::move(result.value());
      break;
    }
    case PatchType::kApply: {
      // See PatchType::kApply: merged in, without field ownership.
      if (!patch.is_object()) {
        return fail(Status(StatusCode::kBadRequest, "error decoding YAML: json: cannot unmarshal " +
                                                        std::string(patch.type_name()) +
                                                        " into Go value of type map[string]interface {}"));
      }
      if (kind->custom) {
        patched = api::ApplyMergePatch(*stored, patch);
      } else {
        auto result = api::ApplyStrategicMergePatch(kind->kind, *stored, patch);
        if (!result.ok()) return fail(result.status());
        patched = std::move(result.value());
      }
      break;
    }
  }
  if (!patched.is_object()) {
    return fail(Status(StatusCode::kBadRequest, "the patched object is not a JSON object"));
  }
  if (api::Name(patched) != name) {
    return fail(Status(StatusCode::kBadRequest, "the name of the object (" + api::Name(patched) +
                                                    ") does not match the name on the URL (" +
                                                    name + ")"));
  }
  if (!locked) {
    api::ObjectBuilder(patched).SetResourceVersion(api::ObjectMeta(*stored).ResourceVersion());
  }
  return UpdateInternal(ctx, kind, std::move(patched), subresource, "patch", /*require_rv=*/false);
}

base::StatusOr<api::ObjectPtr> ApiServer::UpdateInternal(const RequestContext& ctx,
                                                         const api::KindInfo* kind, Json obj,
                                                         const std::string& subresource,
                                                         const std::string& verb,
                                                         bool require_rv) {
  std::string ns = api::Namespace(obj);
  const std::string name = api::Name(obj);
  if (kind != nullptr && !kind->namespaced) ns.clear();
  std::optional<api::KindInfo> crd_served;  // a CRD's kind, served once the write commits
  auto fail = [&](Status s) -> base::StatusOr<api::ObjectPtr> {
    TraceRequest(ctx, verb, kind, ns, name, subresource, s.http_code(), "");
    return s;
  };
  if (kind == nullptr) {
    return fail(Status(StatusCode::kNotFound, "the server could not find the requested resource"));
  }
  if (verb == "update") {
    if (internal::RequestTooLarge(obj, kMaxRequestBytes)) {
      return fail(Status(StatusCode::kRequestEntityTooLarge,
                         "Request entity too large: limit is 3145728"));
    }
    if (Status s = Authorize(ctx, "update", kind, subresource, ns, name); !s.ok()) return fail(s);
    if (subresource == "status" && !kind->status_subresource) {
      return fail(Status(StatusCode::kNotFound,
                         "the server could not find the requested resource"));
    }
  }
  // namespaces/finalize takes a PUT only (pkg/registry/core/namespace/storage/storage.go
  // FinalizeREST): the one way to change a Namespace's spec.finalizers.
  const bool finalize_subresource = subresource == internal::kFinalizeSubresource &&
                                    internal::IsNamespace(kind) && verb == "update";
  if (!subresource.empty() && subresource != "status" && !finalize_subresource) {
    return fail(Status(StatusCode::kNotFound, "the server could not find the requested resource"));
  }
  api::ObjectPtr stored = Peek(kind->kind, ns, name);
  if (stored == nullptr) return fail(Status(StatusCode::kNotFound, NotFoundMessage(kind, name)));

  const std::string& rv = api::ObjectMeta(obj).ResourceVersion();
  const std::string& stored_rv = api::ObjectMeta(*stored).ResourceVersion();
  if (rv.empty()) {
    if (require_rv && kind->custom) {
      // mirrors customresource/strategy.go AllowUnconditionalUpdate() == false
      return fail(Status(StatusCode::kInvalid,
                         api::InvalidMessage(*kind, name,
                                             {"metadata.resourceVersion: Invalid value: 0x0: "
                                              "must be specified for an update"})));
    }
  } else if (rv != stored_rv) {
    return fail(Status(StatusCode::kConflict,
                       "Operation cannot be fulfilled on " + kind->GroupResource() + " \"" + name +
                           "\": the object has been modified; please apply your changes to the "
                           "latest version and try again"));
  }

  Json next;  // a status write's next views the stored version
  if (subresource == "status") {
    // mirrors customresource/status_strategy.go PrepareForUpdate: only status is taken, so the
    // object differs from the stored one at most in its status and the no-op rule below
    // (identical bytes) is decided on the status alone, before anything is copied.
    const auto new_status = obj.find("status");
    const auto old_status = stored->find("status");
    const bool has_new = new_status != obj.end();
    if (has_new == (old_status != stored->end()) && (!has_new || *new_status == *old_status)) {
      TraceRequest(ctx, verb, kind, ns, name, subresource, 200, stored_rv);
      return stored;
    }
    next = CopyWithStatus(*stored, has_new ? &*new_status : nullptr);
  } else {
    next = std::move(obj);
    api::ObjectBuilder(next).SetApiVersion(kind->ApiVersion());
    api::ObjectBuilder(next).SetKind(kind->kind);
    {
      // Scoped: the status copy and defaulting below add members to next, which moves its
      // metadata (api::FlatObject), so this reference must not outlive the loop.
      Json& meta = api::Metadata(next);
      const Json& old_meta = (*stored)["metadata"];
      for (const char* key : {"uid", "creationTimestamp", "deletionTimestamp",
                              "deletionGracePeriodSeconds", "generation", "namespace"}) {
        CopyField(meta, old_meta, key);
      }
    }
    if (kind->status_subresource) CopyField(next, *stored, "status");
    if (internal::IsNamespace(kind) && !finalize_subresource) {
      internal::KeepSpecFinalizers(*stored, next);
    }
    api::ApplyDefaults(*kind, next);
    if (Status s = api::ValidateObject(*kind, next); !s.ok()) return fail(s);
    if (Status s = ValidateOwnerReferences(kind, next); !s.ok()) return fail(s);
    if (IsCustomResourceDefinition(kind)) {
      crd_served.emplace();
      if (Status s = AdmitCustomResourceDefinition(next, stored, &*crd_served); !s.ok()) {
        return fail(s);
      }
    }
    if (IsPod(kind)) {
      // mirrors pkg/registry/core/pod/strategy.go ValidateUpdate -> ValidatePodUpdate
      const std::vector<std::string> causes = internal::ValidatePodSpecUpdate(*stored, next);
      if (!causes.empty()) {
        return fail(Status(StatusCode::kInvalid, api::InvalidMessage(*kind, name, causes)));
      }
    }
    if (IsService(kind)) {
      if (std::string cause = cluster_ips_.KeepOnUpdate(*stored, next); !cause.empty()) {
        return fail(Status(StatusCode::kInvalid, api::InvalidMessage(*kind, name, {cause})));
      }
    }
    if (api::IsBeingDeleted(*stored)) {
      std::vector<std::string> added;
      const std::vector<std::string> old_finalizers = api::Finalizers(*stored);
      for (const std::string& f : api::Finalizers(next)) {
        if (!HasString(old_finalizers, f)) added.push_back(f);
      }
      if (!added.empty()) {
        // mirrors apimachinery pkg/api/validation/objectmeta.go ValidateObjectMetaUpdate
        std::string list;
        for (const std::string& f : added) list += (list.empty() ? "\"" : ", \"") + f + "\"";
        return fail(Status(StatusCode::kInvalid,
                           api::InvalidMessage(*kind, name,
                                               {"metadata.finalizers: Forbidden: no new finalizers "
                                                "can be added if the object is being deleted, "
                                                "found new finalizers []string{" + list + "}"})));
      }
    }
    if (GenerationShouldBump(kind, *stored, next)) {
      api::Metadata(next)["generation"] = api::Generation(*stored) + 1;
    }
  }
  api::ObjectBuilder(next).SetResourceVersion(stored_rv);
  // A /status write reaching here was found to differ above; comparing the whole object again
  // would walk the unchanged spec of every Pod status write.
  if (subresource != "status" && next == *stored) {
    // mirrors etcd3/store.go GuaranteedUpdate: identical bytes are not persisted, so the
    // resourceVersion stays and no watch event is sent.
    TraceRequest(ctx, verb, kind, ns, name, subresource, 200, api::ResourceVersion(*stored));
    return stored;
  }
  if (!webhooks_.empty()) {
    if (Status s = Admit("UPDATE", kind, ctx, api::MakeObject(next), stored); !s.ok()) {
      return fail(s);
    }
  }
  // A Namespace also waits on its spec.finalizers (storage.go ShouldDeleteNamespaceDuringUpdate).
  const bool finalize = api::IsBeingDeleted(*stored) && api::Finalizers(next).empty() &&
                        next["metadata"].value("deletionGracePeriodSeconds", Json(0)) == Json(0) &&
                        !(internal::IsNamespace(kind) && internal::HasSpecFinalizers(next));
  const int64_t seq = TraceRequest(ctx, verb, kind, ns, name, subresource, 200,
                                   std::to_string(rv_ + 1));
  if (crd_served.has_value() && !finalize) ServeCustomResourceDefinition(name, *crd_served);
  // mirrors registry/store.go ShouldDeleteDuringUpdate: the write that empties the finalizers
  // of a deleting object deletes it; watchers see one DELETED.
  return Commit(kind, stored, std::move(next), /*removed=*/finalize, seq);
}

// ---------------------------------------------------------------------------------------------
// Delete

base::StatusOr<api::ObjectPtr> ApiServer::Delete(const RequestContext& ctx,
                                                 const std::string& kind_name,
                                                 const std::string& ns, const std::string& name,
                                                 const DeleteOptions& opts) {
  const api::KindInfo* kind = Resolve(kind_name);
  const std::string scoped_ns = kind != nullptr && kind->namespaced ? ns : "";
  auto fail = [&](Status s) -> base::StatusOr<api::ObjectPtr> {
    TraceRequest(ctx, "delete", kind, scoped_ns, name, "", s.http_code(), "");
    return s;
  };
  if (kind == nullptr) {
    return fail(Status(StatusCode::kNotFound, "the server doesn't have a resource type \"" +
                                                  kind_name + "\""));
  }
  if (Status s = Authorize(ctx, "delete", kind, "", scoped_ns, name); !s.ok()) return fail(s);
  api::ObjectPtr stored = Peek(kind->kind, scoped_ns, name);
  if (stored == nullptr) return fail(Status(StatusCode::kNotFound, NotFoundMessage(kind, name)));
  // mirrors plugin/pkg/admission/namespace/lifecycle/admission.go (immortalNamespaces): the
  // cluster's own namespaces cannot be deleted.
  if (kind->group.empty() && kind->kind == "Namespace" &&
      (name == "default" || name == "kube-system" || name == "kube-public" ||
       name == "kube-node-lease")) {
    return fail(Status(StatusCode::kForbidden,
                       "namespaces \"" + name + "\" is forbidden: this namespace may not be deleted"));
  }
  if (Status s = Admit("DELETE", kind, ctx, nullptr, stored); !s.ok()) return fail(s);
  if (internal::IsNamespace(kind)) {
    // mirrors pkg/registry/core/namespace/storage/storage.go Delete: the first DELETE only marks
    // the namespace Terminating (200, the object kept) for the namespace controller; a later one
    // is refused while spec.finalizers remain, and otherwise deletes as any object.
    if (!api::IsBeingDeleted(*stored)) {
      Json marked = *stored;
      internal::MarkTerminating(marked, base::FormatRfc3339(scheduler_.clock().Now()));
      const int64_t seq = TraceRequest(ctx, "delete", kind, scoped_ns, name, "", 200,
                                       std::to_string(rv_ + 1));
      return Commit(kind, stored, std::move(marked), /*removed=*/false, seq);
    }
    if (internal::HasSpecFinalizers(*stored)) return fail(internal::TerminatingConflict(name));
  }

  Json next = *stored;
  // mirrors registry/store.go deletionFinalizersForGarbageCollection: the policy becomes a
  // finalizer the garbage collector acts on.
  std::vector<std::string> finalizers = api::Finalizers(next);
  if (opts.propagation.has_value()) {
    auto remove = [&](const char* f) {
      finalizers.erase(std::remove(finalizers.begin(), finalizers.end(), f), finalizers.end());
    };
    remove(kOrphanFinalizer);
    remove(kForegroundFinalizer);
    if (*opts.propagation == PropagationPolicy::kOrphan) finalizers.push_back(kOrphanFinalizer);
    if (*opts.propagation == PropagationPolicy::kForeground) {
      finalizers.push_back(kForegroundFinalizer);
    }
    SetFinalizers(next, finalizers);
  }

  // Graceful deletion (Pods bound to a node): the kubelet confirms with a zero grace delete.
  int64_t grace = 0;
  if (kind->graceful_deletion && !api::GetString(next, "/spec/nodeName").empty()) {
    const Json* spec_grace = api::FindPointer(next, "/spec/terminationGracePeriodSeconds");
    grace = opts.grace_period_seconds.value_or(
        spec_grace != nullptr && spec_grace->is_number_integer() ? spec_grace->get<int64_t>() : 30);
    if (grace < 0) grace = 0;
  }
  Json& meta = api::Metadata(next);
  const bool already_deleting = api::IsBeingDeleted(*stored);
  if (finalizers.empty() && grace == 0) {
    const int64_t seq = TraceRequest(ctx, "delete", kind, scoped_ns, name, "", 200,
                                     std::to_string(rv_ + 1));
    return Commit(kind, stored, std::move(next), /*removed=*/true, seq);
  }
  if (!already_deleting) {
    meta["deletionTimestamp"] = base::FormatRfc3339(scheduler_.clock().Now() + grace * base::kSecond);
    meta["deletionGracePeriodSeconds"] = grace;
    // mirrors rest.BeforeDelete / markAsDeleting: generation moves once when deletion starts.
    if (api::Generation(*stored) > 0) meta["generation"] = api::Generation(*stored) + 1;
  } else if (kind->graceful_deletion) {
    const Json stored_grace = next["metadata"].value("deletionGracePeriodSeconds", Json(0));
    const int64_t current = stored_grace.is_number() ? stored_grace.get<int64_t>() : 0;
    if (grace < current) {
      meta["deletionTimestamp"] = base::FormatRfc3339(scheduler_.clock().Now() + grace * base::kSecond);
      meta["deletionGracePeriodSeconds"] = grace;
    }
  }
  if (next == *stored) {
    TraceRequest(ctx, "delete", kind, scoped_ns, name, "", 202, api::ResourceVersion(*stored));
    return stored;
  }
  const int64_t seq = TraceRequest(ctx, "delete", kind, scoped_ns, name, "", 202,
                                   std::to_string(rv_ + 1));
  return Commit(kind, stored, std::move(next), /*removed=*/false, seq);
}

// ---------------------------------------------------------------------------------------------
// Commit and watch

api::ObjectPtr ApiServer::Commit(const api::KindInfo* kind, api::ObjectPtr old_object, Json new_obj,
                                 bool removed, int64_t cause) {
  ++rv_;
  ++writes_;
  api::ObjectBuilder(new_obj).SetResourceVersion(std::to_string(rv_));
  api::ObjectPtr stored = api::MakeObject(std::move(new_obj));
  const std::string key = StoreKeyOf(kind, api::ObjectMeta(*stored).Namespace(),
                                     api::ObjectMeta(*stored).Name());
  WatchEventType type;
  if (removed) {
    if (IsService(kind)) cluster_ips_.Release(*stored);  // alloc.go releaseAllocatedResources
    if (IsPod(kind)) --pods_stored_;
    store_.erase(key);
    type = WatchEventType::kDeleted;
  } else {
    store_[key] = stored;
    type = old_object == nullptr ? WatchEventType::kAdded : WatchEventType::kModified;
    if (old_object == nullptr && IsPod(kind)) ++pods_stored_;
  }
  if (observer_ != nullptr) observer_->OnCommit(*kind, type, old_object, stored);
  KindState& state = StateOf(kind);
  state.history.push_back(HistoryEntry{rv_, kind, std::move(old_object), stored, type, cause});
  if (state.history.size() > kWatchCacheCapacity) {
    state.evicted_through = state.history.front().rv;
    state.history.pop_front();
  }
  Fanout(state.history.back());
  if (removed && IsCustomResourceDefinition(kind)) {
    StopServingCustomResourceDefinition(api::ObjectMeta(*stored).Name(), cause);
  }
  return stored;
}

// mirrors apiserver storage/cacher/cacher.go dispatchEvent: the watchers of every value the
// object's trigger field had before and after the change, plus every unindexed watcher; each is
// then filtered as before. Candidates come in watch id order, the order of a full scan.
void ApiServer::Fanout(const HistoryEntry& entry) {
  auto index = kinds_.find(entry.kind);
  if (index == kinds_.end() || index->second->watchers.empty()) return;
  std::vector<std::string> values;
  if (!internal::TriggerField(entry.kind->kind).empty()) {
    if (entry.old_object != nullptr) {
      values.push_back(internal::TriggerValue(entry.kind->kind, *entry.old_object));
    }
    if (entry.new_object != nullptr) {
      values.push_back(internal::TriggerValue(entry.kind->kind, *entry.new_object));
    }
  }
  index->second->watchers.Candidates(values, &candidates_);
  for (WatchId id : candidates_) {
    Watcher* watcher = FindWatcher(id);
    RLAB_ASSERT(watcher != nullptr, "indexed watcher without a watch");
    Deliver(*watcher, entry);
  }
}

void ApiServer::Unindex(const Watcher& watcher) {
  auto index = kinds_.find(watcher.kind);
  if (index == kinds_.end()) return;
  index->second->watchers.Remove(watcher.id, watcher.trigger_value);
}

void ApiServer::Deliver(Watcher& watcher, const HistoryEntry& entry) {
  auto in_scope = [&](const api::ObjectPtr& obj) {
    if (obj == nullptr) return false;
    if (!watcher.opts.namespace_.empty() &&
        api::ObjectMeta(*obj).Namespace() != watcher.opts.namespace_) {
      return false;
    }
    return watcher.labels.Matches(*obj) && watcher.fields.Matches(*obj);
  };
  const bool old_in = entry.type != WatchEventType::kAdded && in_scope(entry.old_object);
  const bool new_in = entry.type != WatchEventType::kDeleted && in_scope(entry.new_object);
  WatchEventType type;
  if (entry.type == WatchEventType::kDeleted) {
    if (!old_in) return;
    type = WatchEventType::kDeleted;
  } else if (old_in && new_in) {
    type = WatchEventType::kModified;
  } else if (new_in) {
    type = WatchEventType::kAdded;
  } else if (old_in) {
    // mirrors apiserver's cacheWatcher: an object that stops matching the selector is a DELETED
    // for this watcher.
    type = WatchEventType::kDeleted;
  } else {
    return;
  }
  // A lagged delivery also holds back the later ones: one watch stream stays in commit order.
  const base::Duration lag =
      delivery_lag_ ? delivery_lag_(watcher.opts.watcher, watcher.kind->kind, type, entry.new_object)
                    : 0;
  const base::SimTime at =
      std::max(scheduler_.clock().Now() + watcher.opts.latency + lag, watcher.last_delivery_at);
  watcher.last_delivery_at = at;
  const WatchId id = watcher.id;
  api::ObjectPtr object = entry.new_object;
  if (observer_ != nullptr) observer_->OnWatchQueued(id, type, object);
  const int64_t cause = entry.cause;
  scheduler_.At(
      at, watcher.deliver_label,
      [this, id, type, object, cause] {
        Watcher* open = FindWatcher(id);
        if (open == nullptr) return;  // stopped or dropped meanwhile
        Watcher& w = *open;
        if (observer_ != nullptr) observer_->OnWatchDelivered(id, type, object);
        if (!w.opts.traced) {
          const auto quiet_callback = w.callback;
          (*quiet_callback)(WatchEvent{type, object, 0});
          return;
        }
        const api::Json& o = *object;
        const int64_t seq =
            trace_.Emit("watch.event",
                        {{"watcher", w.opts.watcher},
                         {"kind", w.kind->kind},
                         {"eventType", WatchEventTypeName(type)},
                         {"namespace", api::ObjectMeta(o).Namespace()},
                         {"name", api::ObjectMeta(o).Name()},
                         {"resourceVersion", api::ObjectMeta(o).ResourceVersion()},
                         {"cause", cause}});
        const sim::CauseScope delivery_cause(trace_, seq);
        const auto callback = w.callback;  // the callback may stop this watch
        (*callback)(WatchEvent{type, object, seq});
      },
      cause);
}

base::StatusOr<WatchId> ApiServer::Watch(const RequestContext& ctx, const std::string& kind_name,
                                         const WatchOptions& opts,
                                         std::function<void(const WatchEvent&)> callback) {
  const api::KindInfo* kind = Resolve(kind_name);
  auto fail = [&](Status s) -> base::StatusOr<WatchId> {
    TraceRequest(ctx, "watch", kind, opts.namespace_, "", "", s.http_code(), "");
    return s;
  };
  if (kind == nullptr) {
    return fail(Status(StatusCode::kNotFound, "the server doesn't have a resource type \"" +
                                                  kind_name + "\""));
  }
  if (Status s = Authorize(ctx, "watch", kind, "", opts.namespace_, ""); !s.ok()) return fail(s);
  auto labels = internal::LabelFilter::Parse(opts.label_selector);
  if (!labels.ok()) return fail(labels.status());
  auto fields = internal::FieldFilter::Parse(kind->kind, opts.field_selector);
  if (!fields.ok()) return fail(fields.status());
  int64_t from = -1;
  if (!opts.resourceVersion.empty() && opts.resourceVersion != "0") {
    char* end = nullptr;
    from = std::strtoll(opts.resourceVersion.c_str(), &end, 10);
    if (end == nullptr || *end != '\0' || from < 0) {
      return fail(Status(StatusCode::kBadRequest,
                         "invalid resource version: " + opts.resourceVersion));
    }
    const int64_t oldest = StateOf(kind).evicted_through;
    if (from < oldest) {
      // mirrors apiserver storage/cacher: the window no longer holds that revision
      return fail(Status(StatusCode::kGone, "too old resource version: " + opts.resourceVersion +
                                                " (" + std::to_string(oldest) + ")"));
    }
  }
  auto watcher = std::make_unique<Watcher>();
  watcher->id = next_watch_++;
  watcher->kind = kind;
  watcher->opts = opts;
  watcher->labels = std::move(labels.value());
  watcher->fields = std::move(fields.value());
  watcher->trigger_value = watcher->fields.RequiresExactMatch(internal::TriggerField(kind->kind));
  watcher->callback =
      std::make_shared<const std::function<void(const WatchEvent&)>>(std::move(callback));
  watcher->deliver_label = "watch deliver " + opts.watcher;
  Watcher& w = *watcher;
  KindState& state = StateOf(kind);
  state.watchers.Add(w.id, w.trigger_value);
  watchers_.emplace(w.id, std::move(watcher));
  if (open_by_id_.size() <= w.id) open_by_id_.resize(w.id + 1, nullptr);
  open_by_id_[w.id] = &w;
  if (observer_ != nullptr) observer_->OnWatchOpened(w.id, *kind, w.opts);
  TraceRequest(ctx, "watch", kind, opts.namespace_, "", "", 200, std::to_string(rv_));
  if (from >= 0) {
    for (const HistoryEntry& entry : state.history) {
      if (entry.rv > from) Deliver(w, entry);
    }
  }
  return w.id;
}

std::vector<SimulationHooks::OpenWatch> ApiServer::OpenWatches() const {
  std::vector<OpenWatch> open;
  for (const auto& [id, watcher] : watchers_) open.push_back(OpenWatch{id, watcher->kind, watcher->opts});
  return open;
}

void ApiServer::StopWatch(WatchId id) {
  auto it = watchers_.find(id);
  if (it == watchers_.end()) return;
  Unindex(*it->second);
  open_by_id_[id] = nullptr;
  watchers_.erase(it);
  if (observer_ != nullptr) observer_->OnWatchClosed(id);
}

void ApiServer::SetWatchLatency(const std::string& kind_name, base::Duration latency) {
  const api::KindInfo* kind = kind_name.empty() ? nullptr : Resolve(kind_name);
  for (auto& [id, watcher] : watchers_) {
    if (kind == nullptr || watcher->kind == kind) watcher->opts.latency = latency;
  }
}

size_t ApiServer::DropWatches(const std::string& kind_name) {
  const api::KindInfo* kind = kind_name.empty() ? nullptr : Resolve(kind_name);
  std::vector<WatchId> dropped;
  for (auto& [id, watcher] : watchers_) {
    if (kind == nullptr || watcher->kind == kind) dropped.push_back(id);
  }
  for (WatchId id : dropped) {
    auto node = watchers_.extract(id);
    open_by_id_[id] = nullptr;
    if (observer_ != nullptr) observer_->OnWatchClosed(id);
    Unindex(*node.mapped());
    std::shared_ptr<Watcher> w(std::move(node.mapped()));
    const base::SimTime at =
        std::max(scheduler_.clock().Now() + w->opts.latency, w->last_delivery_at);
    scheduler_.At(at, "watch error " + w->opts.watcher, [this, w] {
      if (!w->opts.traced) {
        (*w->callback)(WatchEvent{WatchEventType::kError, nullptr, 0});
        return;
      }
      const int64_t seq = trace_.Emit("watch.event", {{"watcher", w->opts.watcher},
                                                      {"kind", w->kind->kind},
                                                      {"eventType", "ERROR"},
                                                      {"namespace", w->opts.namespace_},
                                                      {"name", ""},
                                                      {"resourceVersion", ""},
                                                      {"cause", trace_.current_cause()}});
      WatchEvent event{WatchEventType::kError, nullptr, seq};
      (*w->callback)(event);
    });
  }
  return dropped.size();
}

}  // namespace apiserver
