#pragma once
// RayJobReconciler: runs a Ray job on a RayCluster it creates (or an existing one picked by
// clusterSelector), submits it in one of four modes, follows its status through the Ray
// dashboard, retries, suspends, times out and cleans up.
// Mirrors: ray-operator/controllers/ray/rayjob_controller.go (Reconcile and its helpers) of
// KubeRay v1.7.0. Status values and reasons are upstream's (JobDeploymentStatus: "" (New),
// Initializing, Running, Complete, Failed, ValidationFailed, Suspending, Suspended, Retrying,
// Waiting).
// Events: validation failures, the RayCluster and submitter Job it creates, the deletions after
// the job finishes (recorder "rayjob-controller"), as upstream's r.Recorder.Eventf.
// Simplified: the RayJob head Service copies
// the cluster's head Service spec instead of rebuilding it; metrics are not kept; the gate
// SidecarSubmitterRestart (alpha, off) is not modelled; the sidecar's exit code is read from the
// head Pod's container status.
// Teaching: For(RayJob) has no predicate, so the controller's own status writes reconcile it
// again; most passes end with RequeueAfter 3s, which is how it polls the dashboard.
// Single-threaded; time comes from ReconcileContext::now; random names from its own sim::Prng.

#include <memory>
#include <optional>
#include <string>

#include "core/api/object.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/operators/kuberay/common/events.h"
#include "core/operators/kuberay/dashboard/dashboard_client.h"
#include "core/reconcile/reconcile.h"
#include "core/sim/prng.h"

namespace kuberay::rayjob {

inline const std::string kKind = "RayJob";
// kRayJobStopJobFinalizer: the finalizer that stops the Ray job before the RayJob goes.
inline const std::string kRayJobStopJobFinalizer = "ray.io/rayjob-finalizer";

// JobDeploymentStatus values.
inline const std::string kNew = "";
inline const std::string kInitializing = "Initializing";
inline const std::string kRunning = "Running";
inline const std::string kComplete = "Complete";
inline const std::string kFailed = "Failed";
inline const std::string kValidationFailed = "ValidationFailed";
inline const std::string kSuspending = "Suspending";
inline const std::string kSuspended = "Suspended";
inline const std::string kRetrying = "Retrying";
inline const std::string kWaiting = "Waiting";

// Failure reasons (status.reason).
inline const std::string kSubmissionFailed = "SubmissionFailed";
inline const std::string kDeadlineExceeded = "DeadlineExceeded";
inline const std::string kPreRunningDeadlineExceeded = "PreRunningDeadlineExceeded";
inline const std::string kAppFailed = "AppFailed";
inline const std::string kTransitionGracePeriodExceeded =
    "JobDeploymentStatusTransitionGracePeriodExceeded";
inline const std::string kJobStatusCheckTimeoutExceeded = "JobStatusCheckTimeoutExceeded";

struct Options {
  // requeue is RayJobDefaultRequeueDuration. Defaults to 3s.
  base::Duration requeue = 3 * base::kSecond;
  // transition_grace_period is RAYJOB_DEPLOYMENT_STATUS_TRANSITION_GRACE_PERIOD_SECONDS.
  // Defaults to 300s.
  base::Duration transition_grace_period = 300 * base::kSecond;
  // status_check_timeout is RAYJOB_STATUS_CHECK_TIMEOUT_SECONDS. Defaults to 300s.
  base::Duration status_check_timeout = 300 * base::kSecond;
  // submitter_finished_grace is DefaultSubmitterFinishedTimeout: a submitter that finished this
  // long ago ends a still-Running RayJob as Failed. Defaults to 30s.
  base::Duration submitter_finished_grace = 30 * base::kSecond;
  // delete_rayjob_cr_after_job_finishes is env DELETE_RAYJOB_CR_AFTER_JOB_FINISHES=true.
  bool delete_rayjob_cr_after_job_finishes = false;
  // ray_job_deletion_policy is the feature gate RayJobDeletionPolicy (beta). Defaults to on.
  bool ray_job_deletion_policy = true;
  // events is the event recorder's client (straight to the API server); null records no events.
  client::Client* events = nullptr;
};

class RayJobReconciler final : public reconcile::Reconciler {
 public:
  // client is the manager's client; client and dashboards must outlive this object.
  RayJobReconciler(client::Client& client, dashboard::ClientProvider& dashboards, sim::Prng prng,
                   Options options = {});
  RayJobReconciler(const RayJobReconciler&) = delete;
  RayJobReconciler& operator=(const RayJobReconciler&) = delete;

  reconcile::Outcome Reconcile(reconcile::ReconcileContext& ctx,
                               const reconcile::Request& req) override;
  const Options& options() const { return options_; }
  Options& mutable_options() { return options_; }

 private:
  struct Pass;  // one reconcile's state (reconciler.cc)
  reconcile::Outcome Finalize(reconcile::ReconcileContext& ctx, api::Json rayjob);
  // Each state returns an Outcome to return at once (no status write), or nullopt to fall
  // through to the backoff check, the status write and RequeueAfter(requeue).
  std::optional<reconcile::Outcome> New(Pass& p);
  std::optional<reconcile::Outcome> Initializing(Pass& p);
  std::optional<reconcile::Outcome> Waiting(Pass& p);
  std::optional<reconcile::Outcome> Running(Pass& p);
  std::optional<reconcile::Outcome> SuspendingOrRetrying(Pass& p);
  reconcile::Outcome Finished(Pass& p);
  // GetOrCreateRayCluster returns the cluster (null while a selected cluster is missing).
  base::StatusOr<api::ObjectPtr> GetOrCreateRayCluster(Pass& p);
  base::Status ReconcileHeadService(Pass& p, const api::Json& cluster);
  // Dashboard opens a client for the RayJob's cluster; null when the cluster is not cached.
  std::unique_ptr<dashboard::RayDashboardClient> Dashboard(const api::Json& rayjob);
  base::Status WriteStatus(Pass& p);
  // Event records an event about the RayJob (nothing without a recorder).
  void Event(Pass& p, const std::string& type, const std::string& reason,
             const std::string& message);

  client::Client& client_;
  dashboard::ClientProvider& dashboards_;
  sim::Prng prng_;
  Options options_;
  std::unique_ptr<EventRecorder> recorder_;  // null when options_.events is null
};

// InconsistentRayJobStatus reports whether a status write is due: jobStatus,
// jobDeploymentStatus, the mirrored RayCluster status (state, reason, worker counts, endpoints,
// head, conditions) or jobStatusCheckFailureStartTime changed.
// mirrors rayjob_controller.go isRayJobStatusChanged / utils.InconsistentRayJobStatus
bool InconsistentRayJobStatus(const api::Json& old_status, const api::Json& new_status);

}  // namespace kuberay::rayjob
