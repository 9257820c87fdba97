#include "core/world/kubelet/kubelet.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/api/fields.h"
#include "core/api/pointer.h"
#include "core/base/assert.h"
#include "core/sim/cause_scope.h"
#include "core/world/kubelet/kubelet_events.h"
#include "core/world/kubelet/pod_conditions.h"
#include "core/world/workloads/pod_util.h"

namespace world {
namespace {

using api::Json;

// IpList is hostIPs or podIPs: one entry, {"ip": ip}.
Json IpList(const std::string& ip) {
  Json list = Json::array();
  list.push_back(api::PodIPEntry(ip));
  return list;
}

// IsIpList: list is IpList(ip) exactly (ip is never empty).
bool IsIpList(const Json* list, const std::string& ip) {
  if (list == nullptr || !list->is_array() || list->size() != 1) return false;
  const Json& entry = (*list)[0];
  return entry.is_object() && entry.size() == 1 && api::PodIP(entry).IP() == ip;
}

std::string NodeName(const Json& pod) { return api::GetString(pod, "/spec/nodeName"); }

// Hex64 renders 64 hex digits from FNV-1a 64 hashes of s (four salted rounds): stand-ins for
// container IDs and image digests.
std::string Hex64(const std::string& s) {
  std::string out;
  out.reserve(64);
  for (int round = 0; round < 4; ++round) {
    uint64_t h = 1469598103934665603ULL ^ static_cast<uint64_t>(round);
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ULL;
    }
    static constexpr char kDigits[] = "0123456789abcdef";
    for (int shift = 60; shift >= 0; shift -= 4) out += kDigits[(h >> shift) & 0xf];
  }
  return out;
}

struct Container {
  std::string name;
  std::string image;
};

std::vector<Container> Containers(const Json& pod) {
  std::vector<Container> out;
  const Json* found = api::PodSpec(pod).Containers();
  if (found == nullptr || !found->is_array()) return out;
  const Json& list = *found;
  out.reserve(list.size());
  for (const Json& c : list) {
    if (!c.is_object()) continue;
    Container& item = out.emplace_back();
    item.name = api::Container(c).Name();
    item.image = api::Container(c).Image();
  }
  return out;
}

// QosClass mirrors pkg/apis/core/v1/helper/qos GetPodQOS (cpu and memory only).
std::string QosClass(const Json& pod) {
  bool any = false;
  bool guaranteed = true;
  const Json& list = JsonAt(pod, "/spec/containers");
  if (!list.is_array()) return "BestEffort";
  for (const Json& c : list) {
    const Json& requests = JsonAt(c, "/resources/requests");
    const Json& limits = JsonAt(c, "/resources/limits");
    if ((requests.is_object() && !requests.empty()) || (limits.is_object() && !limits.empty()))
      any = true;
    for (const char* r : {"cpu", "memory"}) {
      if (!limits.is_object() || !limits.contains(r)) {
        guaranteed = false;
        continue;
      }
      if (requests.is_object() && requests.contains(r) && requests[r] != limits[r])
        guaranteed = false;
    }
  }
  if (!any) return "BestEffort";
  return guaranteed ? "Guaranteed" : "Burstable";
}

// Same reports whether two fields hold equal values, or are both absent.
bool Same(const Json* x, const Json* y) {
  return x == nullptr ? y == nullptr : y != nullptr && *x == *y;
}

// mirrors pkg/kubelet/config/config.go checkAndUpdatePod (podsDifferSemantically): a Pod that
// appears or goes, or whose uid, spec, labels, annotations or deletion fields change, is an
// update for the pod workers; any other change (the status) is merged without one.
bool DiffersSemantically(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
  if (old_obj == nullptr || new_obj == nullptr) return true;
  if (old_obj == new_obj) return false;
  const Json& a = *old_obj;
  const Json& b = *new_obj;
  // A status write's new version views the old one's spec (api::ShareStored): equal at once.
  if (!Same(api::SpecOf(a), api::SpecOf(b))) return true;
  const api::ObjectMeta x(a);
  const api::ObjectMeta y(b);
  return x.Uid() != y.Uid() || !Same(x.Labels(), y.Labels()) ||
         !Same(x.Annotations(), y.Annotations()) ||
         !Same(x.DeletionTimestamp(), y.DeletionTimestamp()) ||
         !Same(x.DeletionGracePeriodSeconds(), y.DeletionGracePeriodSeconds());
}

}  // namespace

Kubelet::Kubelet(std::string node, client::Client& client, sim::Scheduler& scheduler,
                 Options options)
    : node_(std::move(node)),
      client_(client),
      scheduler_(scheduler),
      options_(std::move(options)),
      watch_(client, scheduler, "Pod",
             // mirrors pkg/kubelet/config/apiserver.go NewSourceApiserver: only this node's Pods.
             ObjectWatch::Options{"kubelet-" + node_, options_.traced_watches, base::kMillisecond,
                                  base::kSecond, "spec.nodeName=" + node_},
             [this](const api::ObjectPtr& o, const api::ObjectPtr& n) { OnPod(o, n); }),
      queue_(scheduler,
             SyncQueue::Options{"kubelet-" + node_, options_.react_delay, 100 * base::kMillisecond,
                                10 * base::kSecond},
             [this](const std::string& key) { return SyncPod(key); }),
      crash_backoff_(options_.backoff_initial, options_.backoff_max),
      image_backoff_(options_.backoff_initial, options_.backoff_max),
      alive_(std::make_shared<int>(0)) {
  RLAB_ASSERT(options_.relist_period > 0, "Kubelet relist_period must be positive");
  RLAB_ASSERT(options_.termination_cap >= 0, "Kubelet termination_cap must not be negative");
}

Kubelet::~Kubelet() {
  for (auto& [key, rt] : pods_) CancelTimers(rt);
  alive_.reset();
}

void Kubelet::Start() { watch_.Start(); }

void Kubelet::OnPod(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
  // A status-only change (most often the echo of this kubelet's own status write) gives the pod
  // workers nothing to do: the kubelet's config source merges it without a sync.
  if (!DiffersSemantically(old_obj, new_obj)) return;
  const Json& obj = new_obj != nullptr ? *new_obj : *old_obj;
  const std::string key = api::ObjectKey(obj);
  const bool mine = NodeName(obj) == node_ || (old_obj != nullptr && NodeName(*old_obj) == node_) ||
                    pods_.count(key) > 0;
  if (mine) queue_.Add(key);
}

// mirrors kubelet.go SyncPod / the pod workers: admit a new Pod, start terminating a deleted
// one, forget one that is gone.
bool Kubelet::SyncPod(const std::string& key) {
  api::ObjectPtr pod = watch_.GetByKey(key);
  if (pod == nullptr || NodeName(*pod) != node_) {
    Forget(key);
    return true;
  }
  if (!up_) return true;
  auto it = pods_.find(key);
  if (it != pods_.end() && it->second.uid != api::Uid(*pod)) {
    Forget(key);
    it = pods_.end();
  }
  if (it == pods_.end()) {
    if (api::IsBeingDeleted(*pod)) {
      // Bound but never run here (or finished before we tracked it): just confirm the delete.
      PodRuntime rt;
      rt.uid = api::Uid(*pod);
      rt.ns = api::Namespace(*pod);
      rt.name = api::Name(*pod);
      rt.stage = IsPodTerminal(*pod) ? Stage::kTerminated : Stage::kCreating;
      auto& stored = pods_[key] = std::move(rt);
      StartTermination(stored, *pod);
      return true;
    }
    if (IsPodTerminal(*pod)) return true;
    Admit(*pod);
    return true;
  }
  PodRuntime& rt = it->second;
  if (api::IsBeingDeleted(*pod) && !rt.terminating) {
    StartTermination(rt, *pod);
    return true;
  }
  if (rt.status_dirty) WriteStatus(rt);
  return true;
}

void Kubelet::Admit(const Json& pod) {
  const std::string key = api::ObjectKey(pod);
  PodRuntime rt;
  rt.uid = api::Uid(pod);
  rt.ns = api::Namespace(pod);
  rt.name = api::Name(pod);
  std::vector<std::string> warnings;
  rt.settings = ParseSandboxAnnotations(pod, options_.sandbox, &warnings);
  sim::Trace& trace = scheduler_.trace();
  for (const std::string& w : warnings) {
    trace.Emit("kubelet.warning",
               {{"node", node_}, {"pod", key}, {"message", w}, {"cause", trace.current_cause()}});
  }
  rt.pod_ip = AllocateIp();
  rt.start_time = scheduler_.clock().Now();
  rt.stage = Stage::kCreating;
  rt.waiting_reason = "ContainerCreating";
  PodRuntime& stored = pods_[key] = std::move(rt);
  const sim::CauseScope cause(trace, Emit(stored, "Pending", "ContainerCreating"),
                              sim::CauseScope::kIfKnown);
  WriteStatus(stored);
  After(stored, stored.settings.pull_time, "pull", &Kubelet::PullDone);
}

void Kubelet::Forget(const std::string& key) {
  auto it = pods_.find(key);
  if (it == pods_.end()) return;
  CancelTimers(it->second);
  ips_in_use_.erase(it->second.pod_ip);
  crash_backoff_.Reset(key);
  image_backoff_.Reset(key);
  pods_.erase(it);
}

// mirrors images/image_manager.go EnsureImageExists: a failed pull backs off (10s, 20s, …).
void Kubelet::PullDone(PodRuntime& rt) {
  const std::string key = api::ObjectKey(rt.ns, rt.name);
  if (rt.settings.bad_image) {
    image_backoff_.Next(key, scheduler_.clock().Now());
    rt.stage = Stage::kPullBackOff;
    rt.failed_at = scheduler_.clock().Now();
    rt.waiting_reason = "ErrImagePull";
    const sim::CauseScope cause(scheduler_.trace(), Emit(rt, "Pending", "ErrImagePull"),
                                sim::CauseScope::kIfKnown);
    WriteStatus(rt);
    After(rt, std::min(options_.relist_period, image_backoff_.Get(key)), "pull back-off",
          &Kubelet::ShowPullBackOff);
    return;
  }
  rt.pulled = true;
  rt.stage = Stage::kStarting;
  Emit(rt, "Pending", "Pulled");
  After(rt, rt.settings.start_time, "start", &Kubelet::ContainerStarted);
}

void Kubelet::ShowPullBackOff(PodRuntime& rt) {
  const std::string key = api::ObjectKey(rt.ns, rt.name);
  rt.waiting_reason = "ImagePullBackOff";
  const sim::CauseScope cause(scheduler_.trace(), Emit(rt, "Pending", "ImagePullBackOff"),
                              sim::CauseScope::kIfKnown);
  WriteStatus(rt);
  const base::SimTime retry_at = rt.failed_at + image_backoff_.Get(key);
  After(rt, retry_at - scheduler_.clock().Now(), "pull retry", &Kubelet::RetryPull);
}

void Kubelet::RetryPull(PodRuntime& rt) {
  // The waiting reason stays ImagePullBackOff while the pull runs again.
  rt.stage = Stage::kCreating;
  After(rt, rt.settings.pull_time, "pull", &Kubelet::PullDone);
}

void Kubelet::ContainerStarted(PodRuntime& rt) {
  rt.stage = Stage::kRunning;
  rt.started_at = scheduler_.clock().Now();
  rt.ready = false;
  rt.terminated = nullptr;
  rt.waiting_reason.clear();
  const sim::CauseScope cause(scheduler_.trace(), Emit(rt, "Running", "Started"),
                              sim::CauseScope::kIfKnown);
  WriteStatus(rt);
  After(rt, rt.settings.ready_after, "ready", &Kubelet::BecomeReady);
  if (rt.settings.crash_after.has_value())
    After(rt, *rt.settings.crash_after, "exit", &Kubelet::Crash);
}

void Kubelet::BecomeReady(PodRuntime& rt) {
  if (rt.stage != Stage::kRunning) return;
  rt.ready = true;
  const sim::CauseScope cause(scheduler_.trace(), Emit(rt, "Running", "Ready"),
                              sim::CauseScope::kIfKnown);
  WriteStatus(rt);
}

void Kubelet::Crash(PodRuntime& rt) {
  const int code = rt.settings.exit_code;
  ContainerExited(rt, code, code == 0 ? "Completed" : "Error");
}

// mirrors kubelet_pods.go getPhase and kuberuntime_manager.go computePodActions: restartPolicy
// decides whether an exited container comes back.
void Kubelet::ContainerExited(PodRuntime& rt, int exit_code, const std::string& reason) {
  CancelTimers(rt);
  const base::SimTime now = scheduler_.clock().Now();
  rt.ready = false;
  rt.failed_at = now;
  rt.terminated = Json{{"exitCode", exit_code},
                       {"reason", reason},
                       {"startedAt", base::FormatRfc3339(rt.started_at)},
                       {"finishedAt", base::FormatRfc3339(now)}};
  api::ObjectPtr pod = watch_.GetByKey(api::ObjectKey(rt.ns, rt.name));
  if (pod != nullptr && !RestartsAfter(*pod, exit_code)) {
    rt.stage = Stage::kTerminated;
    const sim::CauseScope cause(scheduler_.trace(),
                                Emit(rt, exit_code == 0 ? "Succeeded" : "Failed", reason),
                                sim::CauseScope::kIfKnown);
    WriteStatus(rt);
    return;
  }
  rt.stage = Stage::kExited;
  const sim::CauseScope cause(scheduler_.trace(), Emit(rt, "Running", reason),
                              sim::CauseScope::kIfKnown);
  WriteStatus(rt);
  After(rt, options_.relist_period, "relist", &Kubelet::AfterExit);
}

// mirrors kuberuntime_manager.go doBackOff: within the back-off window since the container
// finished, show CrashLoopBackOff and wait; otherwise restart now.
void Kubelet::AfterExit(PodRuntime& rt) {
  const std::string key = api::ObjectKey(rt.ns, rt.name);
  const base::SimTime now = scheduler_.clock().Now();
  if (!crash_backoff_.IsInBackOffSince(key, rt.failed_at, now)) {
    Restart(rt);
    return;
  }
  rt.stage = Stage::kCrashBackOff;
  rt.backoff_shown = crash_backoff_.Get(key);
  rt.last_terminated = rt.terminated;
  rt.terminated = nullptr;
  const sim::CauseScope cause(scheduler_.trace(), Emit(rt, "Running", "CrashLoopBackOff"),
                              sim::CauseScope::kIfKnown);
  WriteStatus(rt);
  if (api::ObjectPtr pod = watch_.GetByKey(key); pod != nullptr) {
    // mirrors doBackOff: the Warning BackOff Event next to the waiting reason.
    const std::string container = api::GetString(*pod, "/spec/containers/0/name");
    (void)client_.Create(BuildKubeletEvent(node_, *pod, container, "Warning", "BackOff",
                                           BackOffEventMessage(*pod, container), now));
  }
  After(rt, rt.failed_at + rt.backoff_shown - now, "restart", &Kubelet::Restart);
}

void Kubelet::Restart(PodRuntime& rt) {
  crash_backoff_.Next(api::ObjectKey(rt.ns, rt.name), scheduler_.clock().Now());
  if (!rt.terminated.is_null()) rt.last_terminated = rt.terminated;
  rt.terminated = nullptr;
  ++rt.restart_count;
  ContainerStarted(rt);
}

// mirrors kubelet.go SyncTerminatingPod: stop the containers, then confirm with a zero-grace
// delete (status_manager.go canBeDeleted).
void Kubelet::StartTermination(PodRuntime& rt, const Json& pod) {
  CancelTimers(rt);
  rt.terminating = true;
  rt.ready = false;
  const int64_t grace = IntAt(pod, "/metadata/deletionGracePeriodSeconds", 0);
  const base::Duration wait = std::min(grace * base::kSecond, options_.termination_cap);
  const sim::CauseScope cause(scheduler_.trace(), Emit(rt, PodPhase(pod), "Killing"),
                              sim::CauseScope::kIfKnown);
  WriteStatus(rt);
  After(rt, wait < 0 ? 0 : wait, "terminate", &Kubelet::FinishTermination);
}

void Kubelet::FinishTermination(PodRuntime& rt) {
  if (rt.delete_sent) return;
  apiserver::DeleteOptions opts;
  opts.grace_period_seconds = 0;
  api::ObjectPtr pod = watch_.GetByKey(api::ObjectKey(rt.ns, rt.name));
  const sim::CauseScope cause(scheduler_.trace(), Emit(rt, pod ? PodPhase(*pod) : "", "Deleted"),
                              sim::CauseScope::kIfKnown);
  auto deleted = client_.Delete("Pod", rt.ns, rt.name, opts);
  if (!deleted.ok() && !base::IsNotFound(deleted.status())) {
    After(rt, base::kSecond, "terminate retry", &Kubelet::FinishTermination);
    return;
  }
  rt.delete_sent = true;
  if (deleted.ok()) watch_.ObserveDelete(deleted.value());  // may Forget rt via SyncPod later
}

void Kubelet::Resume(PodRuntime& rt) {
  CancelTimers(rt);
  const base::SimTime now = scheduler_.clock().Now();
  if (rt.terminating) {
    if (!rt.delete_sent) After(rt, 0, "terminate", &Kubelet::FinishTermination);
    return;
  }
  switch (rt.stage) {
    case Stage::kCreating:
      After(rt, rt.settings.pull_time, "pull", &Kubelet::PullDone);
      break;
    case Stage::kPullBackOff:
      After(rt, 0, "pull retry", &Kubelet::RetryPull);
      break;
    case Stage::kStarting:
      After(rt, rt.settings.start_time, "start", &Kubelet::ContainerStarted);
      break;
    case Stage::kRunning:
      if (!rt.ready) After(rt, rt.settings.ready_after, "ready", &Kubelet::BecomeReady);
      if (rt.settings.crash_after.has_value()) {
        const base::Duration left = rt.started_at + *rt.settings.crash_after - now;
        After(rt, left < 0 ? 0 : left, "exit", &Kubelet::Crash);
      }
      break;
    case Stage::kExited:
      After(rt, 0, "relist", &Kubelet::AfterExit);
      break;
    case Stage::kCrashBackOff: {
      const base::Duration left = rt.failed_at + rt.backoff_shown - now;
      After(rt, left < 0 ? 0 : left, "restart", &Kubelet::Restart);
      break;
    }
    case Stage::kTerminated:
      break;
  }
  WriteStatus(rt);
}

void Kubelet::SetNodeUp(bool up) {
  if (up_ == up) return;
  up_ = up;
  if (!up) {
    for (auto& [key, rt] : pods_) CancelTimers(rt);
    return;
  }
  for (auto& [key, rt] : pods_) Resume(rt);
  for (const auto& [key, pod] : watch_.items()) {
    if (NodeName(*pod) == node_) queue_.Add(key);
  }
}

base::Status Kubelet::KillPod(const std::string& ns, const std::string& name,
                              const std::string& reason) {
  auto it = pods_.find(api::ObjectKey(ns, name));
  if (it == pods_.end()) {
    return base::Status(base::StatusCode::kNotFound,
                        "pods \"" + name + "\" not found on node " + node_);
  }
  if (reason != "Error" && reason != "OOMKilled") {
    return base::Status(base::StatusCode::kBadRequest,
                        "invalid --reason \"" + reason + "\": must be Error or OOMKilled");
  }
  return Exit(ns, name, reason == "OOMKilled" ? 137 : 1, reason);
}

base::Status Kubelet::ExitContainer(const std::string& ns, const std::string& name,
                                    int exit_code, const std::string& container) {
  const std::string reason = exit_code == 0 ? "Completed" : "Error";
  api::ObjectPtr pod = watch_.GetByKey(api::ObjectKey(ns, name));
  const std::vector<Container> containers = pod != nullptr ? Containers(*pod) : std::vector<Container>{};
  if (container.empty() || containers.empty() || containers[0].name == container) {
    return Exit(ns, name, exit_code, reason);
  }
  bool known = false;
  for (const Container& c : containers) known = known || c.name == container;
  auto it = pods_.find(api::ObjectKey(ns, name));
  if (it == pods_.end() || !known) {
    return base::Status(base::StatusCode::kNotFound,
                        "container " + container + " is not valid for pod " + name);
  }
  if (!up_) {
    return base::Status(base::StatusCode::kServiceUnavailable, "node " + node_ + " is down");
  }
  PodRuntime& rt = it->second;
  if (rt.stage != Stage::kRunning || rt.terminating || rt.exited_sidecars.count(container) > 0) {
    return base::Status(base::StatusCode::kBadRequest,
                        "container " + container + " of pod \"" + name + "\" is not running");
  }
  rt.exited_sidecars[container] = Json{{"exitCode", exit_code},
                                       {"reason", reason},
                                       {"startedAt", base::FormatRfc3339(rt.started_at)},
                                       {"finishedAt", base::FormatRfc3339(scheduler_.clock().Now())}};
  const sim::CauseScope cause(scheduler_.trace(), Emit(rt, "Running", reason),
                              sim::CauseScope::kIfKnown);
  WriteStatus(rt);
  return base::Status::OK();
}

base::Status Kubelet::Exit(const std::string& ns, const std::string& name, int exit_code,
                           const std::string& reason) {
  auto it = pods_.find(api::ObjectKey(ns, name));
  if (it == pods_.end()) {
    return base::Status(base::StatusCode::kNotFound,
                        "pods \"" + name + "\" not found on node " + node_);
  }
  if (!up_) {
    return base::Status(base::StatusCode::kServiceUnavailable, "node " + node_ + " is down");
  }
  PodRuntime& rt = it->second;
  if (rt.stage != Stage::kRunning || rt.terminating) {
    return base::Status(base::StatusCode::kBadRequest,
                        "pod \"" + name + "\" has no running container");
  }
  ContainerExited(rt, exit_code, reason);
  return base::Status::OK();
}

void Kubelet::After(PodRuntime& rt, base::Duration delay, const char* what,
                    void (Kubelet::*step)(PodRuntime&)) {
  if (!up_) return;
  std::weak_ptr<int> alive = alive_;
  const std::string key = api::ObjectKey(rt.ns, rt.name);
  const std::string uid = rt.uid;
  const uint64_t epoch = rt.epoch;
  rt.timers.push_back(scheduler_.After(
      delay < 0 ? 0 : delay, std::string("kubelet ") + node_ + " " + what + " " + key,
      [this, alive, key, uid, epoch, step] {
        if (alive.expired() || !up_) return;
        auto it = pods_.find(key);
        if (it == pods_.end() || it->second.uid != uid || it->second.epoch != epoch) return;
        (this->*step)(it->second);
      }));
}

void Kubelet::CancelTimers(PodRuntime& rt) {
  for (sim::EventId id : rt.timers) scheduler_.Cancel(id);
  rt.timers.clear();
  ++rt.epoch;
}

bool Kubelet::RestartsAfter(const Json& pod, int exit_code) const {
  const std::string policy = api::GetString(pod, "/spec/restartPolicy");
  if (policy == "Never") return false;
  if (policy == "OnFailure") return exit_code != 0;
  return true;  // Always (the default)
}

// mirrors kubelet_pods.go generateAPIPodStatus (phase, conditions, IPs, container statuses).
Json Kubelet::BuildStatus(const PodRuntime& rt, const Json& pod) const {
  Json status = api::ObjectWithRoom(9);  // every member set below (conditions when changed)
  api::PodStatusBuilder out(status);
  std::string phase;
  switch (rt.stage) {
    case Stage::kCreating:
    case Stage::kPullBackOff:
    case Stage::kStarting:
      phase = rt.restart_count > 0 ? "Running" : "Pending";
      break;
    case Stage::kRunning:
    case Stage::kExited:
    case Stage::kCrashBackOff:
      phase = "Running";
      break;
    case Stage::kTerminated:
      phase = IntAt(rt.terminated, "/exitCode", 1) == 0 ? "Succeeded" : "Failed";
      break;
  }
  if (rt.terminating && !PodPhase(pod).empty()) phase = PodPhase(pod);
  out.SetPhase(phase);

  const std::vector<Container> containers = Containers(pod);
  const bool terminal = phase == "Succeeded" || phase == "Failed";
  // A sidecar that ended leaves the Pod running but not Ready (its container is not ready).
  const bool ready = rt.ready && rt.exited_sidecars.empty();
  std::string unready;
  for (const Container& c : containers) {
    if (rt.ready && rt.exited_sidecars.count(c.name) == 0) continue;
    unready += (unready.empty() ? "" : " ") + c.name;
  }
  const std::string reason = terminal ? "PodCompleted" : ready ? "" : "ContainersNotReady";
  const std::string ready_msg =
      terminal || ready ? "" : "containers with unready status: [" + unready + "]";
  const KubeletCondition set[] = {
      {"PodReadyToStartContainers", !terminal, "", ""},
      {"Initialized", true, "", ""},
      {"Ready", ready, reason, ready_msg},
      {"ContainersReady", ready, reason, ready_msg},
      {"PodScheduled", true, "", ""},  // only when the Pod has none (the binding sets it)
  };
  const size_t count = FindCondition(pod, "PodScheduled") == nullptr ? 5 : 4;
  // The stored status: conditions and the members below are compared with it.
  const api::PodStatus stored(pod);
  const Json& stored_conditions = api::OrNull(stored.Conditions());
  // Left out when the write would restate them, as the kubelet's diff patch leaves them out;
  // the merge keeps the stored list (a container start changes no condition).
  if (!KubeletConditionsUnchanged(stored_conditions, set, count)) {
    out.SetConditions(KubeletConditions(stored_conditions, set, count,
                                        base::FormatRfc3339(scheduler_.clock().Now())));
  }
  // The members below rarely change after the first write: one the stored status already
  // holds is left out, as WriteStatus's diff would leave it out. None of them is ever empty.
  if (stored.HostIP() != options_.host_ip) out.SetHostIP(options_.host_ip);
  if (!IsIpList(stored.HostIPs(), options_.host_ip)) out.SetHostIPs(IpList(options_.host_ip));
  if (!rt.pod_ip.empty()) {
    if (stored.PodIP() != rt.pod_ip) out.SetPodIP(rt.pod_ip);
    if (!IsIpList(stored.PodIPs(), rt.pod_ip)) out.SetPodIPs(IpList(rt.pod_ip));
  }
  if (rt.start_time_text.empty()) rt.start_time_text = base::FormatRfc3339(rt.start_time);
  if (stored.StartTime() != rt.start_time_text) out.SetStartTime(rt.start_time_text);
  // A Pod's resources cannot change (ValidatePodUpdate), so neither can its class.
  if (rt.qos_class.empty()) rt.qos_class = QosClass(pod);
  if (stored.QOSClass() != rt.qos_class) out.SetQOSClass(rt.qos_class);

  Json statuses = Json::array();
  for (const Container& c : containers) {
    Json cs = api::ObjectWithRoom(9);  // every member set below
    api::ContainerStatusBuilder container(cs);
    if (rt.started_at > 0 || rt.stage == Stage::kRunning)
      container.SetContainerID(ContainerId(rt, c.name));
    container.SetImage(c.image);
    container.SetImageID(rt.pulled ? ImageId(c.image) : std::string());
    container.SetName(c.name);
    container.SetReady(rt.ready);
    container.SetRestartCount(rt.restart_count);
    container.SetStarted(rt.stage == Stage::kRunning && !rt.terminating);
    Json state;
    switch (rt.stage) {
      case Stage::kCreating:
      case Stage::kStarting:
      case Stage::kPullBackOff: {
        std::string message;
        if (rt.waiting_reason == "ErrImagePull") {
          message = "failed to pull and unpack image \"" + c.image + "\": not found";
        } else if (rt.waiting_reason == "ImagePullBackOff") {
          message = "Back-off pulling image \"" + c.image + "\"";
        }
        state = api::ContainerStateWaiting(rt.waiting_reason, std::move(message));
        break;
      }
      case Stage::kRunning:
        state = api::ContainerStateRunning(base::FormatRfc3339(rt.started_at));
        break;
      case Stage::kExited:
      case Stage::kTerminated: {
        Json t = rt.terminated;
        t["containerID"] = ContainerId(rt, c.name);
        state = Json{{"terminated", std::move(t)}};
        break;
      }
      case Stage::kCrashBackOff:
        state = Json{{"waiting",
                      {{"reason", "CrashLoopBackOff"},
                       {"message", "back-off " + base::FormatDuration(rt.backoff_shown) +
                                       " restarting failed container=" + c.name +
                                       " pod=" + rt.name + "_" + rt.ns + "(" + rt.uid + ")"}}}};
        break;
    }
    if (auto exited = rt.exited_sidecars.find(c.name); exited != rt.exited_sidecars.end() &&
                                                        rt.stage == Stage::kRunning) {
      Json t = exited->second;
      t["containerID"] = ContainerId(rt, c.name);
      state = Json{{"terminated", std::move(t)}};
      container.SetReady(false);
      container.SetStarted(false);
    }
    container.SetState(std::move(state));
    Json last = Json::object();
    if (!rt.last_terminated.is_null()) {
      Json t = rt.last_terminated;
      t["containerID"] = "containerd://" +
                         Hex64(rt.uid + "/" + c.name + "/" + std::to_string(rt.restart_count - 1));
      last["terminated"] = std::move(t);
    }
    container.SetLastState(std::move(last));
    statuses.push_back(std::move(cs));
  }
  out.SetContainerStatuses(std::move(statuses));
  return status;
}

// mirrors status_manager.go syncPod: a merge patch of the status, skipped when nothing changed.
void Kubelet::WriteStatus(PodRuntime& rt) {
  if (!up_) return;
  api::ObjectPtr pod = watch_.GetByKey(api::ObjectKey(rt.ns, rt.name));
  if (pod == nullptr || api::Uid(*pod) != rt.uid) return;
  Json status = BuildStatus(rt, *pod);
  // mirrors kubernetes pkg/util/pod/pod.go PatchPodStatus: the status manager sends the diff of
  // the stored status and the new one, not the whole status. Simplified: the diff is taken per
  // top-level member (a changed list goes whole) against the kubelet's cached Pod (upstream GETs
  // it first), and a member the new status leaves out stays as stored, as the whole-status
  // merge patch this replaces left it.
  static const Json kAbsent;  // a missing field compares as null
  auto current = pod->find("status");
  const bool has_status = current != pod->end() && current->is_object();
  Json changes = api::ObjectWithRoom(status.size());
  for (auto& [key, value] : status.get_ref<Json::object_t&>()) {
    auto stored = has_status ? current->find(key) : current;
    if ((has_status && stored != current->end() ? *stored : kAbsent) != value) {
      changes.get_ref<Json::object_t&>().emplace(key, std::move(value));
    }
  }
  rt.status_dirty = false;
  if (changes.empty()) return;
  Json patch = api::ObjectWithRoom(1);
  api::ObjectBuilder(patch).SetStatus(std::move(changes));
  auto written =
      client_.PatchStatus("Pod", rt.ns, rt.name, client::PatchType::kJsonMerge, std::move(patch));
  if (written.ok()) {
    watch_.Observe(written.value());
    return;
  }
  if (base::IsNotFound(written.status())) return;
  rt.status_dirty = true;  // retried by the next sync (status_manager retries the same way)
  queue_.AddAfter(api::ObjectKey(rt.ns, rt.name), base::kSecond);
}

int64_t Kubelet::Emit(const PodRuntime& rt, const std::string& phase, const std::string& reason) {
  sim::Trace& trace = scheduler_.trace();
  return trace.Emit("kubelet.pod", {{"node", node_},
                                    {"pod", api::ObjectKey(rt.ns, rt.name)},
                                    {"phase", phase},
                                    {"reason", reason},
                                    {"restartCount", rt.restart_count},
                                    {"cause", trace.current_cause()}});
}

std::string Kubelet::AllocateIp() {
  for (int attempt = 0; attempt < 253; ++attempt) {
    const int host = next_ip_;
    next_ip_ = next_ip_ >= 254 ? 2 : next_ip_ + 1;
    const std::string ip = options_.pod_cidr_prefix + std::to_string(host);
    if (ips_in_use_.insert(ip).second) return ip;
  }
  return "";  // every address in the /24 is taken (more than 110 Pods cannot run anyway)
}

const std::string& Kubelet::ContainerId(const PodRuntime& rt,
                                        const std::string& container) const {
  auto [it, added] = rt.container_ids.try_emplace(container);
  if (added || it->second.first != rt.restart_count) {
    it->second.first = rt.restart_count;
    it->second.second = "containerd://" + Hex64(rt.uid + "/" + container + "/" +
                                                std::to_string(rt.restart_count));
  }
  return it->second.second;
}

const std::string& Kubelet::ImageId(const std::string& image) const {
  auto [it, added] = image_ids_.try_emplace(image);
  if (added) it->second = image + "@sha256:" + Hex64(image);
  return it->second;
}

}  // namespace world
