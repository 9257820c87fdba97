#include "core/world/namespace/namespaced_resources_deleter.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "core/api/condition.h"
#include "core/api/kind.h"
#include "core/api/pointer.h"
#include "core/sim/cause_scope.h"
#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

using api::Json;

const char kNamespaceController[] = "namespace-controller";
const char kKubernetesFinalizer[] = "kubernetes";
// finalizerEstimateSeconds: the wait assumed for finalizers found on content being deleted.
constexpr int64_t kFinalizerEstimateSeconds = 15;

// SpecFinalizers reads a Namespace's spec.finalizers.
std::vector<std::string> SpecFinalizers(const Json& ns) {
  std::vector<std::string> out;
  const Json* list = api::FindPointer(ns, "/spec/finalizers");
  if (list == nullptr || !list->is_array()) return out;
  for (const Json& f : *list) {
    if (f.is_string()) out.push_back(f.get<std::string>());
  }
  return out;
}

// Aggregate joins errors as apimachinery's utilerrors.NewAggregate prints them.
std::string Aggregate(const std::vector<std::string>& errors) {
  if (errors.size() == 1) return errors[0];
  std::string out = "[";
  for (size_t i = 0; i < errors.size(); ++i) out += (i > 0 ? ", " : "") + errors[i];
  return out + "]";
}

// DeletionCondition builds one status condition (lastTransitionTime is api::UpsertCondition's).
Json DeletionCondition(const char* type, bool failing, const char* reason,
                       const std::string& message) {
  return Json{{"type", type},
              {"status", failing ? "True" : "False"},
              {"reason", reason},
              {"message", message}};
}

// PodGraceEstimate is the longest grace period of ns's Pods that have not ended
// (estimateGracefulTerminationForPods).
int64_t PodGraceEstimate(const std::vector<api::ObjectPtr>& pods) {
  int64_t estimate = 0;
  for (const api::ObjectPtr& pod : pods) {
    if (IsPodTerminal(*pod)) continue;
    estimate = std::max(estimate, IntAt(*pod, "/spec/terminationGracePeriodSeconds", 0));
  }
  return estimate;
}

}  // namespace

// ContentLeft: what one pass left behind (deleteAllContent's estimate, errors and
// conditionUpdater input).
struct NamespacedResourcesDeleter::ContentLeft {
  int64_t estimate_seconds = 0;
  std::vector<std::string> errors;
  std::map<std::string, int> remaining;   // group resource -> objects still present
  std::map<std::string, int> finalizers;  // finalizer -> objects it still holds
};

NamespacedResourcesDeleter::NamespacedResourcesDeleter(client::Client& client,
                                                       sim::Scheduler& scheduler)
    : client_(client), scheduler_(scheduler) {}

// mirrors deletion/namespaced_resources_deleter.go Delete
NamespaceDeletion NamespacedResourcesDeleter::Delete(const std::string& name) {
  auto got = client_.Get("Namespace", "", name);
  if (!got.ok()) return {base::IgnoreNotFound(got.status()), 0};
  api::ObjectPtr ns = *got;
  if (!api::IsBeingDeleted(*ns)) return {};
  // updateNamespaceStatusFunc: the phase says Terminating (the API server set it with the
  // deletionTimestamp; a namespace marked some other way is corrected here).
  if (api::GetString(*ns, "/status/phase") != "Terminating") {
    Json terminating = *ns;
    terminating["status"]["phase"] = "Terminating";
    auto updated = client_.UpdateStatus(std::move(terminating));
    if (!updated.ok()) return {base::IgnoreNotFound(updated.status()), 0};
    ns = *updated;
  }
  const std::vector<std::string> finalizers = SpecFinalizers(*ns);
  if (finalizers.empty()) return {};  // already finalized

  const base::SimTime deleted_at =
      ParseRfc3339(api::GetString(*ns, "/metadata/deletionTimestamp"))
          .value_or(scheduler_.clock().Now());
  ContentLeft left = DeleteAllContent(name, deleted_at);
  auto updated = UpdateConditions(ns, left);
  if (updated.ok()) {
    ns = *updated;
  } else if (!base::IsNotFound(updated.status())) {
    left.errors.push_back(updated.status().message());
  }
  if (!left.errors.empty()) {
    return {base::Status(base::StatusCode::kInternal, Aggregate(left.errors)),
            left.estimate_seconds};
  }
  if (left.estimate_seconds > 0) return {base::Status::OK(), left.estimate_seconds};

  // finalizeNamespace: nothing is left, so take our token out; the API server removes the
  // namespace when no finalizer remains.
  Json finalize = *ns;
  std::vector<std::string> kept;
  for (const std::string& f : finalizers) {
    if (f != kKubernetesFinalizer && std::find(kept.begin(), kept.end(), f) == kept.end()) {
      kept.push_back(f);
    }
  }
  std::sort(kept.begin(), kept.end());
  finalize["spec"]["finalizers"] = kept;
  const sim::CauseScope cause(
      scheduler_.trace(),
      EmitAction(scheduler_.trace(), kNamespaceController, "Namespace/" + name, "finalize",
                 "the namespace is empty: remove the kubernetes finalizer"),
      sim::CauseScope::kIfKnown);
  auto finalized = client_.Finalize(std::move(finalize));
  return {finalized.ok() ? base::Status::OK() : base::IgnoreNotFound(finalized.status()), 0};
}

// mirrors deletion/namespaced_resources_deleter.go deleteAllContent and
// deleteAllContentForGroupVersionResource
NamespacedResourcesDeleter::ContentLeft NamespacedResourcesDeleter::DeleteAllContent(
    const std::string& ns, base::SimTime deleted_at) {
  ContentLeft left;
  const base::SimTime now = scheduler_.clock().Now();
  for (const api::KindInfo& kind : api::AllKinds()) {
    if (!kind.namespaced) continue;
    auto listed = client_.List(kind.kind, ns);
    if (!listed.ok()) {
      left.errors.push_back(listed.status().message());
      continue;
    }
    if (listed->empty()) continue;
    // estimateGracefulTermination: only Pods have one, and only until it has passed since the
    // namespace's deletion.
    int64_t estimate = kind.group.empty() && kind.kind == "Pod" ? PodGraceEstimate(*listed) : 0;
    if (now - deleted_at >= estimate * base::kSecond) estimate = 0;

    int remaining = 0;
    std::map<std::string, int> finalizers;
    for (const api::ObjectPtr& item : *listed) {
      api::ObjectPtr still = item;
      if (!api::IsBeingDeleted(*item)) {
        // Background propagation: the garbage collector removes dependents in other namespaces'
        // terms too, and no orphan finalizer holds the content back.
        const sim::CauseScope cause(scheduler_.trace(),
                                    EmitAction(scheduler_.trace(), kNamespaceController,
                                               kind.kind + "/" + ns + "/" + api::Name(*item),
                                               "delete", "namespace " + ns + " is being deleted"),
                                    sim::CauseScope::kIfKnown);
        apiserver::DeleteOptions background;
        background.propagation = apiserver::PropagationPolicy::kBackground;
        auto deleted = client_.Delete(kind.kind, ns, api::Name(*item), background);
        if (!deleted.ok()) {
          if (base::IsNotFound(deleted.status())) continue;
          left.errors.push_back(deleted.status().message());
        } else if (!api::IsBeingDeleted(**deleted)) {
          continue;  // removed at once
        } else {
          still = *deleted;
        }
      }
      ++remaining;
      for (const std::string& f : api::Finalizers(*still)) ++finalizers[f];
    }
    if (remaining == 0) continue;
    left.remaining[kind.GroupResource()] += remaining;
    for (const auto& [f, n] : finalizers) left.finalizers[f] += n;
    if (estimate > 0) {
      left.estimate_seconds = std::max(left.estimate_seconds, estimate);
    } else if (!finalizers.empty()) {
      left.estimate_seconds = std::max(left.estimate_seconds, kFinalizerEstimateSeconds);
    } else {
      left.errors.push_back("unexpected items still remain in namespace: " + ns + " for gvr: " +
                            kind.GroupResource());
    }
  }
  return left;
}

// mirrors deletion/status_condition_utils.go (newNamespaceConditionUpdater, the five condition
// types in their order, their reasons and messages)
base::StatusOr<api::ObjectPtr> NamespacedResourcesDeleter::UpdateConditions(
    const api::ObjectPtr& ns, const ContentLeft& left) {
  std::vector<std::string> resources, held;
  for (const auto& [resource, n] : left.remaining) {
    resources.push_back(resource + " has " + std::to_string(n) + " resource instances");
  }
  for (const auto& [finalizer, n] : left.finalizers) {
    held.push_back(finalizer + " in " + std::to_string(n) + " resource instances");
  }
  auto join = [](const std::vector<std::string>& parts) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) out += (i > 0 ? ", " : "") + parts[i];
    return out;
  };
  const std::vector<Json> conditions = {
      DeletionCondition("NamespaceDeletionDiscoveryFailure", false, "ResourcesDiscovered",
                "All resources successfully discovered"),
      DeletionCondition("NamespaceDeletionGroupVersionParsingFailure", false, "ParsedGroupVersions",
                "All legacy kube types successfully parsed"),
      left.errors.empty()
          ? DeletionCondition("NamespaceDeletionContentFailure", false, "ContentDeleted",
                      "All content successfully deleted, may be waiting on finalization")
          : DeletionCondition("NamespaceDeletionContentFailure", true, "ContentDeletionFailed",
                      "Failed to delete all resource types, " +
                          std::to_string(left.errors.size()) +
                          " remaining: " + Aggregate(left.errors)),
      resources.empty()
          ? DeletionCondition("NamespaceContentRemaining", false, "ContentRemoved",
                      "All content successfully removed")
          : DeletionCondition("NamespaceContentRemaining", true, "SomeResourcesRemain",
                      "Some resources are remaining: " + join(resources)),
      held.empty()
          ? DeletionCondition("NamespaceFinalizersRemaining", false, "ContentHasNoFinalizers",
                      "All content-preserving finalizers finished")
          : DeletionCondition("NamespaceFinalizersRemaining", true, "SomeFinalizersRemain",
                      "Some content in the namespace has finalizers remaining: " + join(held)),
  };
  const Json* stored = api::FindPointer(*ns, "/status/conditions");
  Json updated = stored != nullptr ? *stored : Json();
  for (const Json& c : conditions) {
    updated = api::UpsertCondition(std::move(updated), c, scheduler_.clock().Now());
  }
  if (stored != nullptr && updated == *stored) return ns;
  Json next = *ns;
  next["status"]["conditions"] = std::move(updated);
  return client_.UpdateStatus(std::move(next));
}

}  // namespace world
