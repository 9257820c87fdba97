#pragma once
// What a finished RayJob (Complete or Failed) deletes, and when: shutdownAfterJobFinishes with
// ttlSecondsAfterFinished, or (gate RayJobDeletionPolicy) the deletionStrategy — legacy
// onSuccess/onFailure policies or deletionRules with per-rule TTLs.
// Mirrors: ray-operator/controllers/ray/rayjob_controller.go (handleShutdownAfterJobFinishes,
// handleDeletionRules, handleLegacyDeletionPolicy, executeDeletionPolicy) of v1.7.0.
// Teaching: among the overdue rules only the most impactful runs per reconcile
// (DeleteSelf > DeleteCluster > DeleteWorkers > DeleteNone); the reconcile then requeues for
// the next rule's time. DeleteWorkers suspends every worker group of the RayCluster.
// Single-threaded.

#include "core/api/object.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/operators/kuberay/common/events.h"
#include "core/reconcile/reconcile.h"

namespace kuberay::rayjob {

struct DeletionContext {
  client::Client& client;
  reconcile::ReconcileContext& ctx;
  const api::Json& rayjob;
  base::SimTime now;
  bool delete_rayjob_cr_after_job_finishes;
  // recorder records the DeletedRayCluster / UpdatedRayCluster events; null records none.
  EventRecorder* recorder = nullptr;
};

// HandleShutdownAfterJobFinishes deletes the RayCluster (or, with
// DELETE_RAYJOB_CR_AFTER_JOB_FINISHES, the RayJob itself) at endTime + ttlSecondsAfterFinished;
// before that it requeues for the remaining time plus 2s.
reconcile::Outcome HandleShutdownAfterJobFinishes(const DeletionContext& d);
// HandleDeletionStrategy runs the deletionRules, or the legacy onSuccess/onFailure policies.
reconcile::Outcome HandleDeletionStrategy(const DeletionContext& d);

}  // namespace kuberay::rayjob
