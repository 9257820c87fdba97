#include "core/world/scheduler/kube_scheduler.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "core/api/fields.h"
#include "core/api/pointer.h"
#include "core/sim/cause_scope.h"
#include "core/world/scheduler/pod_info.h"
#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

using api::Json;

const std::string& SchedulerNodeName(const Json& pod) {
  return api::PodSpec(pod).NodeName();
}

// Terminal is IsPodTerminal: phase Succeeded or Failed.
bool Terminal(const Json& pod) {
  const std::string_view phase = api::PodStatus(pod).Phase();
  return phase == "Succeeded" || phase == "Failed";
}

// NumFeasibleNodesToFind is how many feasible Nodes a cycle looks for among all_nodes, with
// percentageOfNodesToScore unset: every Node below 100, else 50% less 1% per 125 Nodes (at least
// 5%), and never fewer than 100. mirrors schedule_one.go numFeasibleNodesToFind
size_t NumFeasibleNodesToFind(size_t all_nodes) {
  constexpr size_t kMinFeasibleNodesToFind = 100;
  constexpr size_t kMinFeasibleNodesPercentageToFind = 5;
  if (all_nodes < kMinFeasibleNodesToFind) return all_nodes;
  const size_t adaptive = all_nodes / 125 < 50 ? 50 - all_nodes / 125 : 0;
  const size_t percentage = std::max(adaptive, kMinFeasibleNodesPercentageToFind);
  return std::max(all_nodes * percentage / 100, kMinFeasibleNodesToFind);
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
  const std::string& name = api::PodSpec(pod).SchedulerName();
  return (name.empty() || name == kDefaultSchedulerName) && SchedulerNodeName(pod).empty() &&
         !api::IsBeingDeleted(pod) && !Terminal(pod);
}

void KubeScheduler::OnPod(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
  // A write that keeps the node, the terminal state and the requests (a kubelet's status write)
  // would take out exactly what it puts back.
  const bool same_share = old_obj != nullptr && new_obj != nullptr &&
                          SchedulerNodeName(*old_obj) == SchedulerNodeName(*new_obj) &&
                          Terminal(*old_obj) == Terminal(*new_obj) &&
                          SameRequestInputs(*old_obj, *new_obj);
  if (!same_share) {
    Account(old_obj, -1);
    Account(new_obj, +1);
  }
  if (new_obj != nullptr && NeedsScheduling(*new_obj)) {
    // An unschedulable Pod waits for a cluster event, unless its own spec changed.
    const std::string key = api::ObjectKey(*new_obj);
    if (unschedulable_.count(key) == 0 || old_obj == nullptr ||
        api::OrNull(api::SpecOf(*old_obj)) != api::OrNull(api::SpecOf(*new_obj))) {
      queue_.Add(key);
    }
  }
  if (new_obj == nullptr && old_obj != nullptr) unschedulable_.erase(api::ObjectKey(*old_obj));
  // A bound Pod going away (deleted or finished) frees room: retry the unschedulable ones.
  const bool was_using =
      old_obj != nullptr && !SchedulerNodeName(*old_obj).empty() && !Terminal(*old_obj);
  const bool now_using =
      new_obj != nullptr && !SchedulerNodeName(*new_obj).empty() && !Terminal(*new_obj);
  if (was_using && !now_using) MoveAllToActive();
}

void KubeScheduler::OnNode(const api::ObjectPtr&, const api::ObjectPtr& new_obj) {
  snapshot_stale_ = true;  // every change of the Node cache comes through here
  if (new_obj != nullptr) MoveAllToActive();
}

void KubeScheduler::MoveAllToActive() {
  for (const std::string& key : unschedulable_) queue_.Add(key);
}

void KubeScheduler::Account(const api::ObjectPtr& pod, int sign) {
  if (pod == nullptr || Terminal(*pod)) return;
  const std::string& node = SchedulerNodeName(*pod);
  if (node.empty()) return;
  auto& [plain, nonzero] = requested_[node];
  const auto [pod_plain, pod_nonzero] = PodRequestsWithNonzero(*pod);
  if (sign > 0) {
    plain += pod_plain;
    nonzero += pod_nonzero;
  } else {
    plain -= pod_plain;
    nonzero -= pod_nonzero;
  }
}

// Only Nodes whose cached object changed since the last cycle are parsed again.
void KubeScheduler::UpdateSnapshot() {
  if (!snapshot_stale_) return;
  snapshot_stale_ = false;
  auto info = node_infos_.begin();
  for (const auto& [name, node] : nodes_.items()) {
    // An unchanged Node is the same stored object, so its entry (same key, same order) is kept.
    if (info != node_infos_.end() && info->second.node == node) {
      ++info;
      continue;
    }
    while (info != node_infos_.end() && info->first < name) info = node_infos_.erase(info);
    if (info == node_infos_.end() || info->first != name) {
      info = node_infos_.emplace_hint(info, name, NodeInfo{});
    }
    info->second = BuildNodeInfo(node);
    info->second.requested = &requested_[name];
    ++info;
  }
  node_infos_.erase(info, node_infos_.end());
  node_list_.clear();
  for (auto it = node_infos_.begin(); it != node_infos_.end(); ++it) node_list_.push_back(it);
}

// mirrors schedule_one.go schedulingCycle: filter, score, select, then bind (or record why not).
bool KubeScheduler::ScheduleOne(const std::string& key) {
  api::ObjectPtr pod = pods_.GetByKey(key);
  if (pod == nullptr || !NeedsScheduling(*pod)) {
    unschedulable_.erase(key);
    return true;
  }
  sim::Trace& trace = scheduler_.trace();
  UpdateSnapshot();
  const PodInfo info = BuildPodInfo(*pod);
  const Resources& want = info.requests;
  const Resources& want_nonzero = info.nonzero_requests;
  // The histogram of filter failures: fixed reasons by index, taints by their rendering.
  enum Reason { kUnschedulable, kSelector, kTooManyPods, kCpu, kMemory, kReasons };
  static const char* const kReasonText[kReasons] = {
      "node(s) were unschedulable", "node(s) didn't match Pod's node affinity/selector",
      "Too many pods", "Insufficient cpu", "Insufficient memory"};
  int reasons[kReasons] = {};
  std::map<std::string, int> taint_reasons;
  const std::string* best = nullptr;
  size_t best_index = 0;  // best's place in name order: ties go to the first name
  int64_t best_score = -1;
  // mirrors schedule_one.go findNodesThatPassFilters: from where the last cycle stopped, until
  // enough feasible Nodes are found; a Pod that fits nowhere has looked at every Node.
  const size_t all_nodes = node_list_.size();
  const size_t nodes_to_find = NumFeasibleNodesToFind(all_nodes);
  size_t feasible = 0;
  size_t index = all_nodes == 0 ? 0 : next_start_node_ % all_nodes;  // Nodes may have gone
  for (size_t processed = 0; processed < all_nodes && feasible < nodes_to_find;
       ++processed, index = index + 1 == all_nodes ? 0 : index + 1) {
    auto& [node_name, node] = *node_list_[index];
    if (node.unschedulable) {
      ++reasons[kUnschedulable];
      continue;
    }
    if (!node.nothing_to_tolerate) {
      std::string taint = UntoleratedTaint(info, node);
      if (!taint.empty()) {
        ++taint_reasons["node(s) had untolerated taint " + taint];
        continue;
      }
    }
    if (!MatchesNodeSelector(info, node)) {
      ++reasons[kSelector];
      continue;
    }
    // mirrors noderesources/fit.go fitsRequest
    const Resources& alloc = node.allocatable;
    const Resources& used = node.requested->first;
    bool fits = true;
    if (used.pods + 1 > alloc.pods) {
      ++reasons[kTooManyPods];
      fits = false;
    }
    if (want.cpu_milli > 0 && used.cpu_milli + want.cpu_milli > alloc.cpu_milli) {
      ++reasons[kCpu];
      fits = false;
    }
    if (want.memory > 0 && used.memory + want.memory > alloc.memory) {
      ++reasons[kMemory];
      fits = false;
    }
    if (!fits) continue;
    ++feasible;
    const Resources& scored = node.requested->second;
    const int64_t cpu_requested = scored.cpu_milli + want_nonzero.cpu_milli;
    const int64_t memory_requested = scored.memory + want_nonzero.memory;
    NodeInfo::ScoreMemo& memo = node.score_memo;
    if (!memo.set || memo.cpu_milli != cpu_requested || memo.memory != memory_requested) {
      const int64_t cpu = LeastRequestedScore(cpu_requested, alloc.cpu_milli);
      const int64_t memory = LeastRequestedScore(memory_requested, alloc.memory);
      memo = NodeInfo::ScoreMemo{true, cpu_requested, memory_requested, (cpu + memory) / 2};
    }
    const int64_t score = memo.score;
    if (score > best_score || (score == best_score && index < best_index)) {
      best_score = score;
      best = &node_name;
      best_index = index;
    }
  }
  next_start_node_ = index;

  const std::string ns = api::Namespace(*pod);
  const std::string name = api::Name(*pod);
  if (best != nullptr) {
    unschedulable_.erase(key);
    const int64_t seq = trace.Emit(
        "scheduler.bind", {{"pod", key}, {"node", *best}, {"cause", trace.current_cause()}});
    const sim::CauseScope cause(trace, seq, sim::CauseScope::kIfKnown);
    // mirrors framework/plugins/defaultbinder/default_binder.go Bind: a v1.Binding to the node
    auto bound = client_.Bind(
        Json{{"apiVersion", "v1"},
             {"kind", "Binding"},
             {"metadata", {{"namespace", ns}, {"name", name}, {"uid", api::Uid(*pod)}}},
             {"target", {{"kind", "Node"}, {"name", *best}}}});
    if (!bound.ok()) return base::IsNotFound(bound.status());
    pods_.Observe(bound.value());
    return true;
  }

  // mirrors framework/types.go FitError.Error: "0/N nodes are available: <sorted reasons>."
  std::string message;
  if (node_infos_.empty()) {
    message = "no nodes available to schedule pods";
  } else {
    std::vector<std::string> parts;
    for (int r = 0; r < kReasons; ++r) {
      if (reasons[r] > 0) parts.push_back(std::to_string(reasons[r]) + " " + kReasonText[r]);
    }
    for (const auto& [reason, count] : taint_reasons)
      parts.push_back(std::to_string(count) + " " + reason);
    std::sort(parts.begin(), parts.end());
    message = "0/" + std::to_string(node_infos_.size()) + " nodes are available: ";
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
  const sim::CauseScope cause(trace, seq, sim::CauseScope::kIfKnown);
  Json conditions = UpsertCondition(JsonAt(*pod, "/status/conditions"),
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
