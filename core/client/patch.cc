#include "core/client/patch.h"

#include <utility>

#include "core/api/go_json.h"
#include "core/api/patch.h"
#include "core/api/strategic_merge.h"

namespace client {
namespace {

// MergeFromPatch mirrors patch.go mergeFromPatch: marshal base and obj, diff them.
class MergeFromPatch final : public Patch {
 public:
  MergeFromPatch(PatchType type, api::Json from, MergeFromOptions options)
      : type_(type), from_(std::move(from)), options_(options) {}

  PatchType Type() const override { return type_; }

  base::StatusOr<std::string> Data(const api::Json& obj) const override {
    const api::Json* original = &from_;
    const api::Json* modified = &obj;
    api::Json unlocked, locked;
    if (options_.optimistic_lock) {
      // The base's version goes into the modified side only, so the diff always carries it.
      const std::string version = api::ResourceVersion(from_);
      if (version.empty()) {
        return base::Status(base::StatusCode::kBadRequest,
                            "cannot use OptimisticLock, object \"" +
                                api::ObjectKey(api::Namespace(from_), api::Name(from_)) +
                                "\" does not have any resource version we can use");
      }
      unlocked = from_;
      if (unlocked.contains("metadata") && unlocked["metadata"].is_object()) {
        unlocked["metadata"].erase("resourceVersion");  // SetResourceVersion("") on unstructured
      }
      locked = obj;
      locked["metadata"]["resourceVersion"] = version;
      original = &unlocked;
      modified = &locked;
    }
    if (type_ == PatchType::kStrategicMerge) {
      auto patch = api::CreateTwoWayMergePatch(api::Kind(obj), *original, *modified);
      if (!patch.ok()) return patch.status();
      return api::GoJsonMarshal(*patch);
    }
    // evanphx CreateMergePatch: a JSON document (object) on both sides, diffed key by key.
    return api::GoJsonMarshal(api::CreateMergePatch(*original, *modified));
  }

 private:
  PatchType type_;
  api::Json from_;
  MergeFromOptions options_;
};

// ObjectPatch is mergePatch / applyPatch: the object itself, marshalled.
class ObjectPatch final : public Patch {
 public:
  explicit ObjectPatch(PatchType type) : type_(type) {}
  PatchType Type() const override { return type_; }
  base::StatusOr<std::string> Data(const api::Json& obj) const override {
    return api::GoJsonMarshal(obj);
  }

 private:
  PatchType type_;
};

class RawBodyPatch final : public Patch {
 public:
  RawBodyPatch(PatchType type, std::string body) : type_(type), body_(std::move(body)) {}
  PatchType Type() const override { return type_; }
  base::StatusOr<std::string> Data(const api::Json&) const override { return body_; }

 private:
  PatchType type_;
  std::string body_;
};

base::StatusOr<api::ObjectPtr> SendPatch(Client& client, const api::Json& obj, const Patch& patch,
                                         bool status) {
  auto body = patch.Data(obj);
  if (!body.ok()) return body.status();
  // The API server decodes the body as any client's request would be decoded.
  auto decoded = api::ParsePatch(*body);
  if (!decoded.ok()) return decoded.status();
  const std::string kind = api::Kind(obj);
  if (status) {
    return client.PatchStatus(kind, api::Namespace(obj), api::Name(obj), patch.Type(),
                              std::move(*decoded));
  }
  return client.Patch(kind, api::Namespace(obj), api::Name(obj), patch.Type(), *decoded);
}

}  // namespace

PatchPtr MergeFrom(api::Json base) {
  return std::make_shared<MergeFromPatch>(PatchType::kJsonMerge, std::move(base),
                                          MergeFromOptions{});
}

PatchPtr MergeFromWithOptions(api::Json base, MergeFromOptions options) {
  return std::make_shared<MergeFromPatch>(PatchType::kJsonMerge, std::move(base), options);
}

PatchPtr StrategicMergeFrom(api::Json base, MergeFromOptions options) {
  return std::make_shared<MergeFromPatch>(PatchType::kStrategicMerge, std::move(base), options);
}

PatchPtr Merge() { return std::make_shared<ObjectPatch>(PatchType::kJsonMerge); }

PatchPtr Apply() { return std::make_shared<ObjectPatch>(PatchType::kApply); }

PatchPtr RawPatch(PatchType type, std::string body) {
  return std::make_shared<RawBodyPatch>(type, std::move(body));
}

const char* ContentType(PatchType type) {
  switch (type) {
    case PatchType::kJsonMerge: return "application/merge-patch+json";
    case PatchType::kJsonPatch: return "application/json-patch+json";
    case PatchType::kStrategicMerge: return "application/strategic-merge-patch+json";
    case PatchType::kApply: return "application/apply-patch+yaml";
  }
  return "";
}

base::StatusOr<api::ObjectPtr> PatchObject(Client& client, const api::Json& obj,
                                           const Patch& patch) {
  return SendPatch(client, obj, patch, /*status=*/false);
}

base::StatusOr<api::ObjectPtr> PatchObjectStatus(Client& client, const api::Json& obj,
                                                 const Patch& patch) {
  return SendPatch(client, obj, patch, /*status=*/true);
}

}  // namespace client
