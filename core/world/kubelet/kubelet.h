#pragma once
// Kubelet: the agent on one node that runs the Pods bound to it. It moves each Pod through the
// lifecycle a learner sees in `kubectl get pods`: ContainerCreating (the image pull) → Running →
// Ready; a bad image gives ErrImagePull then ImagePullBackOff; a container that exits is
// restarted (CrashLoopBackOff with 10s, 20s, 40s … 5m between restarts) or ends the Pod
// (Succeeded/Failed), as restartPolicy says; a Pod being deleted is stopped and then removed.
// Timings come from the Pod's sandbox annotations (sandbox_annotations.h).
// Mirrors: kubernetes pkg/kubelet/kubelet.go (SyncPod, SyncTerminatingPod), kuberuntime/
// kuberuntime_manager.go (computePodActions, doBackOff), images/image_manager.go (pull backoff),
// kubelet_pods.go (generateAPIPodStatus, getPhase), status/status_manager.go (merge patch of
// status), prober (readiness), pkg/api/v1/pod (conditions).
// Simplified: one Kubelet object per node, each with its own identity (system:node:NAME); no
// real containers, probes, volumes, init containers or PLEG — every container of a Pod follows
// one timeline. A restart skips pull and start time (the image is on the node).
// Teaching: graceful deletion waits min(deletionGracePeriodSeconds, termination_cap) — the cap
// (2s) keeps `kubectl delete pod` quick; a real kubelet waits for the container to exit, up to
// the full grace period (30s by default), then SIGKILLs it.
// Like a real kubelet it watches only its own Pods (fieldSelector spec.nodeName=NODE), which the
// API server serves from its per-node watch index; its deliveries stay out of the trace by
// default (Teaching: they would repeat the scheduler's binding once per Pod).
// Single-threaded; every step is a scheduler event; Pod IPs come from a per-node counter.

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/containers/keyed_map.h"
#include "core/base/status.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/sim/scheduler.h"
#include "core/world/kubelet/backoff.h"
#include "core/world/kubelet/sandbox_annotations.h"
#include "core/world/workloads/object_watch.h"
#include "core/world/workloads/sync_queue.h"

namespace world {

// KubeletOptions tunes one node's kubelet.
struct KubeletOptions {
  // sandbox holds the defaults the Pod annotations override (2s pull, 1s start, 2s ready).
  SandboxSettings sandbox;
  // react_delay is the time from a watch delivery to the kubelet acting on it. Defaults to 5ms.
  base::Duration react_delay = 5 * base::kMillisecond;
  // relist_period is how long an exited container is shown as terminated before the kubelet
  // restarts it or shows CrashLoopBackOff (the PLEG relist period). Defaults to 1s.
  base::Duration relist_period = base::kSecond;
  // backoff_initial and backoff_max bound CrashLoopBackOff and ImagePullBackOff.
  // Defaults to 10s and 5m (an entry resets after 2*max = 10m without a restart).
  base::Duration backoff_initial = 10 * base::kSecond;
  base::Duration backoff_max = 5 * base::kMinute;
  // termination_cap caps the wait of a graceful deletion. Defaults to 2s (see Teaching above).
  base::Duration termination_cap = 2 * base::kSecond;
  // pod_cidr_prefix gives Pod IPs: prefix + 2, 3, … Defaults to "10.244.1.".
  std::string pod_cidr_prefix = "10.244.1.";
  // host_ip is status.hostIP. Defaults to "172.18.0.2".
  std::string host_ip = "172.18.0.2";
  // traced_watches puts this kubelet's watch deliveries in the trace. Defaults to false.
  bool traced_watches = false;
};

// Kubelet runs the Pods of one node through `client` (as system:node:NODE in a World). client
// and scheduler must outlive this object. Not copyable.
class Kubelet {
 public:
  using Options = KubeletOptions;

  Kubelet(std::string node, client::Client& client, sim::Scheduler& scheduler, Options options);
  ~Kubelet();
  Kubelet(const Kubelet&) = delete;
  Kubelet& operator=(const Kubelet&) = delete;

  // Start watches Pods; those bound to this node are run.
  void Start();
  const std::string& node() const { return node_; }

  // KillPod is `kill pod NAME --reason=Error|OOMKilled`: the running container exits with 1
  // (Error) or 137 (OOMKilled) and restartPolicy decides what follows. kNotFound when the Pod
  // does not run here, kBadRequest for another reason or when no container is running,
  // kServiceUnavailable while the node is down.
  base::Status KillPod(const std::string& ns, const std::string& name, const std::string& reason);
  // ExitContainer is the container's program ending by itself with exit_code (0 = Completed,
  // otherwise Error); the same errors as KillPod. container "" (or the first container's name)
  // is the Pod's main container; another name is a sidecar that ends alone (a RayJob's
  // SidecarMode submitter): it stays terminated, the Pod keeps running but is no longer Ready.
  // Simplified: a sidecar is never restarted, whatever the restartPolicy.
  base::Status ExitContainer(const std::string& ns, const std::string& name, int exit_code,
                             const std::string& container = "");

  // SetNodeUp pauses (false) or resumes (true) this kubelet for `fault node NAME down|up`.
  // While paused nothing moves and nothing is written; on resume each Pod's pending step is
  // scheduled again from now and its status rewritten (a kubelet restart rebuilds its state
  // from the runtime the same way).
  void SetNodeUp(bool up);
  bool up() const { return up_; }

  // CachedPod returns this kubelet's view of a Pod bound to its node, or null.
  api::ObjectPtr CachedPod(const std::string& key) const { return watch_.GetByKey(key); }
  // Runs reports whether a Pod (namespace/name) is tracked by this kubelet.
  bool Runs(const std::string& key) const { return pods_.count(key) > 0; }

  // queue is the work queue (the UI's metrics read its depth and counters).
  const SyncQueue& queue() const { return queue_; }

 private:
  enum class Stage {
    kCreating,      // sandbox up, pulling the image (waiting: ContainerCreating)
    kPullBackOff,   // pull failed (waiting: ErrImagePull, then ImagePullBackOff)
    kStarting,      // pulled, starting (waiting: ContainerCreating)
    kRunning,       // running (ready after ready_after)
    kExited,        // exited, shown terminated until the next relist
    kCrashBackOff,  // waiting: CrashLoopBackOff
    kTerminated,    // restartPolicy keeps it down: the Pod is Succeeded or Failed
  };
  struct PodRuntime {
    std::string uid;
    std::string ns;
    std::string name;
    Stage stage = Stage::kCreating;
    SandboxSettings settings;
    std::string pod_ip;
    base::SimTime start_time = 0;  // status.startTime
    mutable std::string start_time_text;  // start_time as RFC 3339, formatted by the first write
    std::string waiting_reason;
    std::string waiting_message;
    bool pulled = false;
    bool ready = false;
    int restart_count = 0;
    base::SimTime started_at = 0;      // the current container's start
    api::Json terminated;              // current state.terminated (null unless exited)
    api::Json last_terminated;         // lastState.terminated (null before the first exit)
    // exited_sidecars[container] is the state.terminated of a non-first container that ended
    // by itself while the Pod kept running.
    std::map<std::string, api::Json> exited_sidecars;
    base::SimTime failed_at = 0;       // the last pull failure or container exit
    base::Duration backoff_shown = 0;  // the delay CrashLoopBackOff reports
    bool terminating = false;          // deletion started: stopped, not ready
    bool delete_sent = false;          // the final zero-grace delete was accepted
    bool status_dirty = false;         // the last status write failed; retried by SyncPod
    std::vector<sim::EventId> timers;
    uint64_t epoch = 0;  // bumped when timers are cancelled; stale timers compare it
    // container_ids[container] is ContainerId's last answer and the restart count it is for:
    // every status write shows the ID, and hashing it costs more than the rest of the entry.
    mutable std::map<std::string, std::pair<int, std::string>> container_ids;
    mutable std::string qos_class;  // status.qosClass, computed by the first status write
  };

  void OnPod(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj);
  bool SyncPod(const std::string& key);
  void Admit(const api::Json& pod);
  void Forget(const std::string& key);

  // Lifecycle steps (each a scheduler event).
  void PullDone(PodRuntime& rt);
  void ContainerStarted(PodRuntime& rt);
  void BecomeReady(PodRuntime& rt);
  void ShowPullBackOff(PodRuntime& rt);
  void RetryPull(PodRuntime& rt);
  void Crash(PodRuntime& rt);
  void ContainerExited(PodRuntime& rt, int exit_code, const std::string& reason);
  base::Status Exit(const std::string& ns, const std::string& name, int exit_code,
                    const std::string& reason);
  void AfterExit(PodRuntime& rt);
  void Restart(PodRuntime& rt);
  void StartTermination(PodRuntime& rt, const api::Json& pod);
  void FinishTermination(PodRuntime& rt);
  // Resume schedules the pending step of rt again from now (SetNodeUp(true)).
  void Resume(PodRuntime& rt);

  void After(PodRuntime& rt, base::Duration delay, const char* what,
             void (Kubelet::*step)(PodRuntime&));
  void CancelTimers(PodRuntime& rt);
  bool RestartsAfter(const api::Json& pod, int exit_code) const;
  // BuildStatus is the status to write: every member the kubelet sets, except conditions that
  // would restate the stored ones (KubeletConditionsUnchanged), which it leaves out.
  api::Json BuildStatus(const PodRuntime& rt, const api::Json& pod) const;
  void WriteStatus(PodRuntime& rt);
  int64_t Emit(const PodRuntime& rt, const std::string& phase, const std::string& reason);
  std::string AllocateIp();
  const std::string& ContainerId(const PodRuntime& rt, const std::string& container) const;
  // ImageId is a pulled image's imageID ("<image>@sha256:<digest>"), worked out once per image.
  const std::string& ImageId(const std::string& image) const;

  std::string node_;
  client::Client& client_;
  sim::Scheduler& scheduler_;
  Options options_;
  ObjectWatch watch_;
  SyncQueue queue_;
  Backoff crash_backoff_;
  Backoff image_backoff_;
  bool up_ = true;
  // key -> runtime, in key order. Invariant: bound to node_. A KeyedMap: every sync and timer
  // looks its Pod up, and ~100 keys sharing a long prefix cost ~7 string compares in a std::map.
  base::KeyedMap<PodRuntime> pods_;
  std::set<std::string> ips_in_use_;
  int next_ip_ = 2;
  mutable std::map<std::string, std::string> image_ids_;  // image -> ImageId(image)
  std::shared_ptr<int> alive_;
};

}  // namespace world
