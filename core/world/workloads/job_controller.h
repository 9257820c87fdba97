#pragma once
// JobController: runs a Job's Pods to completion. It keeps up to spec.parallelism Pods active
// until spec.completions have succeeded (condition Complete, completionTime), and counts failed
// Pods against spec.backoffLimit (condition Failed, reason BackoffLimitExceeded, active Pods
// deleted). A replacement for a failed Pod waits 10s, 20s, 40s … (capped at 6m).
// Mirrors: kubernetes pkg/controller/job/job_controller.go (syncJob, manageJob,
// pastBackoffLimitOnFailure, newCondition), backoff_utils.go (the pod failure backoff),
// pkg/apis/batch/v1 (conditions SuccessCriteriaMet / FailureTarget added in 1.31).
// Simplified: NonIndexed completion mode only; no podFailurePolicy, successPolicy,
// activeDeadlineSeconds, ttlSecondsAfterFinished or managedBy; no tracking finalizers — counts
// come from the Pods present and never decrease (a deleted finished Pod is not forgotten).
// Single-threaded; a sync runs `sync_delay` after its key is queued (worker_queue.h).

#include <map>
#include <memory>
#include <string>

#include "core/base/time.h"
#include "core/client/client.h"
#include "core/informer/shared_informer.h"
#include "core/sim/scheduler.h"
#include "core/world/workloads/controller_expectations.h"
#include "core/world/workloads/informer_factory.h"
#include "core/world/workloads/worker_queue.h"

namespace world {

// kJobControllerUser is the controller's identity in kube-controller-manager.
inline const std::string kJobControllerUser = "system:serviceaccount:kube-system:job-controller";
// kJobNameLabel and kLegacyJobNameLabel are set on every Pod of a Job.
inline const std::string kJobNameLabel = "batch.kubernetes.io/job-name";
inline const std::string kLegacyJobNameLabel = "job-name";

// JobControllerOptions tunes the controller.
struct JobControllerOptions {
  // sync_delay is the time from a change to the sync it triggers. Defaults to 5ms.
  base::Duration sync_delay = 5 * base::kMillisecond;
  // pod_backoff_initial and pod_backoff_max bound the wait before replacing a failed Pod
  // (DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff). Defaults to 10s and 6m.
  base::Duration pod_backoff_initial = 10 * base::kSecond;
  base::Duration pod_backoff_max = 6 * base::kMinute;
  // watcher names its watches. Defaults to "job-controller".
  std::string watcher = "job-controller";
  // traced_watches puts its watch deliveries in the trace (watch.event). Defaults to false:
  // the trace follows the operators' informers; this component's steps have their own records.
  bool traced_watches = false;
};

// JobController acts through `client` (as kJobControllerUser in a World). client and scheduler
// must outlive this object. Not copyable.
class JobController {
 public:
  using Options = JobControllerOptions;

  // This constructor gives the controller informers of its own (a controller tested alone).
  JobController(client::Client& client, sim::Scheduler& scheduler, Options options);
  // This one registers its handlers on kube-controller-manager's shared informers (which
  // must outlive it); options.watcher and traced_watches are then theirs.
  JobController(client::Client& client, SharedInformerFactory& informers, sim::Scheduler& scheduler,
                Options options);
  JobController(const JobController&) = delete;
  JobController& operator=(const JobController&) = delete;

  // Start watches Jobs and Pods.
  void Start();

  // queue is the work queue (the UI's metrics read its depth and counters).
  const WorkerQueue& queue() const { return queue_; }

 private:
  JobController(client::Client& client, sim::Scheduler& scheduler, Options options,
                SharedInformerFactory* shared);

  bool Sync(const std::string& key);

  client::Client& client_;
  sim::Scheduler& scheduler_;
  Options options_;
  std::unique_ptr<SharedInformerFactory> own_informers_;  // null when given shared ones
  SharedInformerFactory& informers_;
  informer::SharedIndexInformer& jobs_;
  informer::SharedIndexInformer& pods_;
  WorkerQueue queue_;
  ControllerExpectations expectations_;
  std::map<std::string, base::SimTime> last_failure_;  // job key -> when a new failure was seen
};

}  // namespace world
