#include "core/world/scheduler/kube_scheduler.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

using api::Json;

std::string NodeName(const Json& pod) { return api::GetString(pod, "/spec/nodeName"_json_pointer); }

// Tolerates mirrors core/v1 helper ToleratesTaint (operator Exists/Equal, empty key = all keys,
// empty effect = all effects).
bool Tolerates(const Json& pod, const Json& taint) {
  const Json& tolerations = JsonAt(pod, "/spec/tolerations"_json_pointer);
  if (!tolerations.is_array()) return false;
  const std::string key = taint.value("key", Json("")).is_string()
                              ? taint.value("key", Json("")).get<std::string>()
                              : "";
  const std::string value = taint.value("value", Json("")).is_string()
                                ? taint.value("value", Json("")).get<std::string>()
                                : "";
  const std::string effect = taint.value("effect", Json("")).is_string()
                                 ? taint.value("effect", Json("")).get<std::string>()
                                 : "";
  for (const Json& t : tolerations) {
    if (!t.is_object()) continue;
    auto str = [&](const char* k) {
      return t.contains(k) && t[k].is_string() ? t[k].get<std::string>() : std::string();
    };
    if (!str("effect").empty() && str("effect") != effect) continue;
    if (!str("key").empty() && str("key") != key) continue;
    const std::string op = str("operator").empty() ? "Equal" : str("operator");
    if (op == "Exists") return true;
    if (op == "Equal" && str("value") == value && !str("key").empty()) return true;
  }
  return false;
}

// UntoleratedTaint returns the first NoSchedule/NoExecute taint the Pod does not tolerate
// (tainttoleration plugin), rendered as "{key: value}", or "".
std::string UntoleratedTaint(const Json& pod, const Json& node) {
  const Json& taints = JsonAt(node, "/spec/taints"_json_pointer);
  if (taints.is_array()) {
    for (const Json& taint : taints) {
      if (!taint.is_object()) continue;
      const Json effect = taint.value("effect", Json(""));
      if (effect != Json("NoSchedule") && effect != Json("NoExecute")) continue;
      if (Tolerates(pod, taint)) continue;
      const Json key = taint.value("key", Json(""));
      const Json value = taint.value("value", Json(""));
      return "{" + (key.is_string() ? key.get<std::string>() : "") + ": " +
             (value.is_string() ? value.get<std::string>() : "") + "}";
    }
  }
  // A node whose Ready condition is not True carries the not-ready/unreachable taint in a real
  // cluster (TaintNodesByCondition); treat it so even before the taint is written.
  if (!ConditionIs(node, "Ready", "True")) {
    const std::string key = ConditionIs(node, "Ready", "False") ? "node.kubernetes.io/not-ready"
                                                                : "node.kubernetes.io/unreachable";
    Json synthetic = {{"key", key}, {"effect", "NoSchedule"}};
    if (!Tolerates(pod, synthetic)) return "{" + key + ": }";
  }
  return "";
}

// MatchesNodeSelector checks spec.nodeSelector against the node's labels.
bool MatchesNodeSelector(const Json& pod, const Json& node) {
  const Json& selector = JsonAt(pod, "/spec/nodeSelector"_json_pointer);
  if (!selector.is_object()) return true;
  const auto labels = api::Labels(node);
  for (const auto& [k, v] : selector.items()) {
    auto it = labels.find(k);
    if (it == labels.end() || !v.is_string() || it->second != v.get<std::string>()) return false;
  }
  return true;
}

// Score is least_allocated.go leastRequestedScore, averaged over cpu and memory.
// NOTE: on a 0..1'000'000 scale instead of MaxNodeScore 100: the real scheduler breaks the many
// ties of the coarse scale at random; a finer scale plus name order spreads Pods as evenly and
// stays deterministic.
int64_t Score(int64_t requested, int64_t capacity) {
  if (capacity <= 0 || requested > capacity) return 0;
  return static_cast<int64_t>(static_cast<__int128>(capacity - requested) * 1'000'000 / capacity);
}

}  // namespace

KubeScheduler::KubeScheduler(client::Client& client, sim::Scheduler& scheduler, Options options)
    : client_(client),
      scheduler_(scheduler),
      options_(std::move(options)),
      nodes_(client, scheduler, "Node",
             ObjectWatch::Options{options_.watcher, options_.traced_watches, base::kMillisecond,
                                  base::kSecond, ""},
             [this](const api::ObjectPtr& o, const api::ObjectPtr& n) { OnNode(o, n); }),
      pods_(client, scheduler, "Pod",
            ObjectWatch::Options{options_.watcher, options_.traced_watches, base::kMillisecond,
                                 base::kSecond, ""},
            [this](const api::ObjectPtr& o, const api::ObjectPtr& n) { OnPod(o, n); }),
      queue_(scheduler,
             SyncQueue::Options{"kube-scheduler", options_.bind_delay, 100 * base::kMillisecond,
                                10 * base::kSecond},
             [this](const std::string& key) { return ScheduleOne(key); }) {}

void KubeScheduler::Start() {
  nodes_.Start();
  pods_.Start();
}

bool KubeScheduler::NeedsScheduling(const Json& pod) {
  const std::string name = api::GetString(pod, "/spec/schedulerName"_json_pointer);
  return (name.empty() || name == kDefaultSchedulerName) && NodeName(pod).empty() &&
         !api::IsBeingDeleted(pod) && !IsPodTerminal(pod);
}

void KubeScheduler::OnPod(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
  Account(old_obj, -1);
  Account(new_obj, +1);
  if (new_obj != nullptr && NeedsScheduling(*new_obj)) {
    // An unschedulable Pod waits for a cluster event, unless its own spec changed.
    const std::string key = api::ObjectKey(*new_obj);
    if (unschedulable_.count(key) == 0 || old_obj == nullptr ||
        JsonAt(*old_obj, "/spec"_json_pointer) != JsonAt(*new_obj, "/spec"_json_pointer)) {
      queue_.Add(key);
    }
  }
  if (new_obj == nullptr && old_obj != nullptr) unschedulable_.erase(api::ObjectKey(*old_obj));
  // A bound Pod going away (deleted or finished) frees room: retry the unschedulable ones.
  const bool was_using =
      old_obj != nullptr && !NodeName(*old_obj).empty() && !IsPodTerminal(*old_obj);
  const bool now_using =
      new_obj != nullptr && !NodeName(*new_obj).empty() && !IsPodTerminal(*new_obj);
  if (was_using && !now_using) MoveAllToActive();
}

void KubeScheduler::OnNode(const api::ObjectPtr&, const api::ObjectPtr& new_obj) {
  if (new_obj != nullptr) MoveAllToActive();
}

void KubeScheduler::MoveAllToActive() {
  for (const std::string& key : unschedulable_) queue_.Add(key);
}

void KubeScheduler::Account(const api::ObjectPtr& pod, int sign) {
  if (pod == nullptr || IsPodTerminal(*pod)) return;
  const std::string node = NodeName(*pod);
  if (node.empty()) return;
  auto& [plain, nonzero] = requested_[node];
  if (sign > 0) {
    plain += PodRequests(*pod);
    nonzero += NonzeroPodRequests(*pod);
  } else {
    plain -= PodRequests(*pod);
    nonzero -= NonzeroPodRequests(*pod);
  }
}

Resources KubeScheduler::Requested(const std::string& node, bool nonzero) const {
  auto it = requested_.find(node);
  if (it == requested_.end()) return Resources{};
  return nonzero ? it->second.second : it->second.first;
}

// mirrors schedule_one.go schedulingCycle: filter, score, select, then bind (or record why not).
bool KubeScheduler::ScheduleOne(const std::string& key) {
  api::ObjectPtr pod = pods_.GetByKey(key);
  if (pod == nullptr || !NeedsScheduling(*pod)) {
    unschedulable_.erase(key);
    return true;
  }
  sim::Trace& trace = scheduler_.trace();
  const Resources want = PodRequests(*pod);
  const Resources want_nonzero = NonzeroPodRequests(*pod);
  std::map<std::string, int> reasons;  // histogram of filter failures
  std::string best;
  int64_t best_score = -1;
  for (const auto& [name, node] : nodes_.items()) {
    std::vector<std::string> failed;
    const std::string taint = UntoleratedTaint(*pod, *node);
    if (JsonAt(*node, "/spec/unschedulable"_json_pointer) == Json(true)) {
      failed.push_back("node(s) were unschedulable");
    } else if (!taint.empty()) {
      failed.push_back("node(s) had untolerated taint " + taint);
    } else if (!MatchesNodeSelector(*pod, *node)) {
      failed.push_back("node(s) didn't match Pod's node affinity/selector");
    } else {
      // mirrors noderesources/fit.go fitsRequest
      const Resources alloc = NodeAllocatable(*node);
      const Resources used = Requested(name, false);
      if (used.pods + 1 > alloc.pods) failed.push_back("Too many pods");
      if (want.cpu_milli > 0 && used.cpu_milli + want.cpu_milli > alloc.cpu_milli) {
        failed.push_back("Insufficient cpu");
      }
      if (want.memory > 0 && used.memory + want.memory > alloc.memory) {
        failed.push_back("Insufficient memory");
      }
      if (failed.empty()) {
        const Resources scored = Requested(name, true);
        const int64_t score = (Score(scored.cpu_milli + want_nonzero.cpu_milli, alloc.cpu_milli) +
                               Score(scored.memory + want_nonzero.memory, alloc.memory)) /
                              2;
        if (score > best_score) {
          best_score = score;
          best = name;
        }
      }
    }
    for (const std::string& r : failed) ++reasons[r];
  }

  const std::string ns = api::Namespace(*pod);
  const std::string name = api::Name(*pod);
  if (!best.empty()) {
    unschedulable_.erase(key);
    const int64_t seq = trace.Emit(
        "scheduler.bind", {{"pod", key}, {"node", best}, {"cause", trace.current_cause()}});
    ScopedCause cause(trace, seq);
    auto bound = client_.Patch("Pod", ns, name, client::PatchType::kJsonMerge,
                               Json{{"spec", {{"nodeName", best}}}});
    if (!bound.ok()) return base::IsNotFound(bound.status());
    pods_.Observe(bound.value());
    Json conditions = UpsertCondition(JsonAt(*bound.value(), "/status/conditions"_json_pointer),
                                      Json{{"type", "PodScheduled"}, {"status", "True"}},
                                      scheduler_.clock().Now());
    auto scheduled = client_.PatchStatus("Pod", ns, name, client::PatchType::kJsonMerge,
                                         Json{{"status", {{"conditions", conditions}}}});
    if (scheduled.ok()) pods_.Observe(scheduled.value());
    return true;
  }

  // mirrors framework/types.go FitError.Error: "0/N nodes are available: <sorted reasons>."
  std::string message;
  if (nodes_.items().empty()) {
    message = "no nodes available to schedule pods";
  } else {
    std::vector<std::string> parts;
    for (const auto& [reason, count] : reasons)
      parts.push_back(std::to_string(count) + " " + reason);
    std::sort(parts.begin(), parts.end());
    message = "0/" + std::to_string(nodes_.items().size()) + " nodes are available: ";
    for (size_t i = 0; i < parts.size(); ++i) message += (i ? ", " : "") + parts[i];
    message += ".";
  }
  unschedulable_.insert(key);
  const Json* current = FindCondition(*pod, "PodScheduled");
  if (current != nullptr && current->value("status", Json("")) == Json("False") &&
      current->value("message", Json("")) == Json(message)) {
    return true;  // already says so
  }
  const int64_t seq =
      trace.Emit("scheduler.unschedulable",
                 {{"pod", key}, {"message", message}, {"cause", trace.current_cause()}});
  ScopedCause cause(trace, seq);
  Json conditions = UpsertCondition(JsonAt(*pod, "/status/conditions"_json_pointer),
                                    Json{{"type", "PodScheduled"},
                                         {"status", "False"},
                                         {"reason", "Unschedulable"},
                                         {"message", message}},
                                    scheduler_.clock().Now());
  auto written = client_.PatchStatus("Pod", ns, name, client::PatchType::kJsonMerge,
                                     Json{{"status", {{"conditions", conditions}}}});
  if (!written.ok()) return base::IsNotFound(written.status());
  pods_.Observe(written.value());
  return true;
}

}  // namespace world
