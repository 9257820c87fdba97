#pragma once
// The API's request and watch types: who asks (RequestContext), the verbs' options and results,
// and what a watch delivers. ApiServer's verbs (api_server.h) take and return them.
// Mirrors: apimachinery pkg/apis/meta/v1 (ListOptions, DeleteOptions, the patch types) and
// pkg/watch (watch.Event).
// Single-threaded.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/time.h"

namespace apiserver {

// kMaxRequestBytes is kube-apiserver's request body limit (3 MiB).
constexpr size_t kMaxRequestBytes = 3 * 1024 * 1024;
// kAdminUser is the learner (kubectl's default kubeconfig user, in group system:masters).
inline const std::string kAdminUser = "kubernetes-admin";

// RequestContext says who is asking and why (the trace seq that led to the request).
struct RequestContext {
  std::string user = kAdminUser;
  // cause overrides the trace's current cause for this request's api.request record.
  std::optional<int64_t> cause;
};

// kApply is server-side apply (application/apply-patch+yaml), what controller-runtime's
// client.Apply sends. Simplified: no managedFields or field ownership — the configuration is
// merged into the stored object (strategic merge for built-in kinds, merge patch for custom
// resources), fields it no longer sets are kept, no conflicts are reported; an absent object is
// created. kubectl's `patch --type` does not offer it.
enum class PatchType { kJsonMerge, kJsonPatch, kStrategicMerge, kApply };
// ParsePatchType accepts kubectl's --type values: "merge", "json", "strategic".
std::optional<PatchType> ParsePatchType(const std::string& text);

enum class PropagationPolicy { kBackground, kForeground, kOrphan };

struct ListOptions {
  std::string label_selector;  // "app=x,tier!=db"
  std::string field_selector;  // "metadata.name=x"
};

struct DeleteOptions {
  std::optional<PropagationPolicy> propagation;  // Defaults to the kind's default (Background).
  std::optional<int64_t> grace_period_seconds;   // Pods only; Defaults to the Pod's spec value.
};

struct ListResult {
  std::vector<api::ObjectPtr> items;  // sorted by namespace, then name
  std::string resourceVersion;        // the store's RV at list time, for a following Watch
};

// kError ends a watch (watch.Error): the watcher must relist, as a reflector does.
enum class WatchEventType { kAdded, kModified, kDeleted, kError };
const char* WatchEventTypeName(WatchEventType type);  // "ADDED", "MODIFIED", "DELETED", "ERROR"

struct WatchEvent {
  WatchEventType type;
  api::ObjectPtr object;
  int64_t trace_seq = 0;  // the watch.event record emitted for this delivery
};

struct WatchOptions {
  std::string watcher;          // the informer's name, printed in watch.event records
  std::string namespace_;       // "" = all namespaces
  std::string label_selector;   // objects leaving the selection arrive as DELETED, entering as ADDED
  // field_selector filters like label_selector ("spec.nodeName=node-1", what a kubelet sends).
  // A Pod watch that pins spec.nodeName is served from an index: other nodes' Pods cost it
  // nothing.
  std::string field_selector;
  std::string resourceVersion;  // "" or "0": from now; else replay history after that RV (410 if too old)
  base::Duration latency = base::kMillisecond;  // Defaults to 1ms from commit to delivery.
  // traced=false delivers without a watch.event record. Teaching: only the garbage collector's
  // metadata watches use it, so the trace stays about the controllers a learner follows.
  bool traced = true;  // Defaults to true.
};

using WatchId = uint64_t;

}  // namespace apiserver
