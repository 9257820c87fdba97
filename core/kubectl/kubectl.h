#pragma once
// kubectl's vocabulary for the lab commands: resource names as kubectl prints them, server
// errors, kind resolution and manifest reading.
// Mirrors: kubectl pkg/cmd/util/helpers.go (CheckErr message shapes) and cli-runtime's
// resource builder (KIND NAME / KIND/NAME arguments, -f files).
// Simplified: one cluster, one context; no kubeconfig.
// Single-threaded; reads `-f` files through a FileSystem (never at reconcile time).

#include <string>
#include <utility>
#include <vector>

#include "core/api/kind.h"
#include "core/api/object.h"
#include "core/base/status.h"
#include "core/kubectl/file_system.h"

namespace apiserver {
class ApiServer;
}  // namespace apiserver

namespace kubectl {

// ServerError renders an API error as kubectl does: "Error from server (NotFound): …".
std::string ServerError(const base::Status& status);
// ResourceName is kubectl's "singular[.group]" ("pod", "deployment.apps", "raycluster.ray.io").
std::string ResourceName(const api::KindInfo& kind);
// ResolveKind maps what the user typed to a kind, or kubectl's
// `error: the server doesn't have a resource type "foo"`.
// With a server, the kinds of its CustomResourceDefinitions resolve too (discovery).
base::StatusOr<const api::KindInfo*> ResolveKind(const std::string& text,
                                                 const apiserver::ApiServer* server = nullptr);

// ObjectRef is one KIND NAME argument pair.
struct ObjectRef {
  const api::KindInfo* kind = nullptr;
  std::string name;
};
// ParseObjectRefs reads `KIND NAME [NAME…]` or `KIND/NAME [KIND/NAME…]`.
base::StatusOr<std::vector<ObjectRef>> ParseObjectRefs(
    const std::vector<std::string>& args, const apiserver::ApiServer* server = nullptr);

// ReadManifests reads `-f PATH` ("-" means the heredoc) through files and decodes every
// document. A folder means its .json, .yaml and .yml files in name order, as kubectl reads one
// (not recursive). `source` names the input in messages ("STDIN" or the path as typed).
base::StatusOr<std::vector<api::Json>> ReadManifests(const FileSystem& files,
                                                     const std::string& path,
                                                     const std::string& base_dir,
                                                     const std::string* heredoc,
                                                     std::string* source);

// ResolveNamespace returns the namespace for obj: the flag, the object's, or "default";
// errors like kubectl when both are set and differ.
base::StatusOr<std::string> ResolveNamespace(const api::KindInfo& kind, const api::Json& obj,
                                             const std::string& flag_namespace,
                                             bool flag_set);

// DumpJson prints like `kubectl -o json` (4-space indent, trailing newline).
std::string DumpJson(const api::Json& doc);
// AsList wraps objects as kubectl's `kind: List`.
api::Json AsList(const std::vector<api::ObjectPtr>& objects);

}  // namespace kubectl
