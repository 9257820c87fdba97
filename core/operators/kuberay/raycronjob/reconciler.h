#pragma once
// RayCronJobReconciler: creates a RayJob from spec.jobTemplate at each tick of spec.schedule,
// names it after the tick so a repeated pass cannot create two, records the tick in
// status.lastScheduleTime and requeues itself for the next tick.
// Mirrors: ray-operator/controllers/ray/raycronjob_controller.go (Reconcile, constructRayJob,
// getRayJobName, updateRayCronJobStatus, formatSchedule) and utils/validation.go
// ValidateRayCronJobSpec of KubeRay v1.7.0 (gate RayCronJob, alpha, off by default).
// Simplified: time zones are fixed offsets (see schedule.h); a schedule that never fires within
// five years stops without a requeue (Go would go on with the zero time).
// Teaching: there is no concurrency policy and no history limit; one missed tick is caught up
// per reconcile, and the RequeueAfter to the next tick is what wakes the controller — nothing
// in the cluster changes at a schedule time.
// Single-threaded; time comes from ReconcileContext::now.

#include <optional>
#include <string>

#include "core/api/object.h"
#include "core/base/status.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/operators/kuberay/common/config.h"
#include "core/operators/kuberay/common/events.h"
#include "core/reconcile/reconcile.h"

namespace kuberay::raycronjob {

inline const std::string kKind = "RayCronJob";
// kDefaultRequeueDuration is RayCronJobDefaultRequeueDuration (after a failed read or status write).
inline constexpr base::Duration kDefaultRequeueDuration = 3 * base::kSecond;
// kMaxRayCronJobNameLength leaves room for "-<minutes>" under the RayJob's 47 characters.
inline constexpr size_t kMaxRayCronJobNameLength = 47 - 11;
// Event reasons (utils/constant.go).
inline const std::string kInvalidRayCronJobSpec = "InvalidRayCronJobSpec";
inline const std::string kSuspendedRayCronJob = "SuspendedRayCronJob";

// ValidateRayCronJobSpec: name length, schedule (no TZ=, parses), time zone, and the template
// as a RayJob spec. kInvalid with upstream's message. mirrors utils/validation.go
base::Status ValidateRayCronJobSpec(const api::Json& cronjob, const FeatureGates& features);

// GetRayJobName is "<cronjob>-<scheduled Unix time / 60>". mirrors getRayJobName
std::string GetRayJobName(const std::string& cronjob, base::SimTime scheduled);

// ConstructRayJob is the RayJob for the tick at scheduled: the template's spec, label
// ray.io/cronjob-name, annotation ray.io/cronjob-scheduled-timestamp, controller reference to
// the RayCronJob. mirrors constructRayJob
base::StatusOr<api::Json> ConstructRayJob(const api::Json& cronjob, base::SimTime scheduled);

class RayCronJobReconciler final : public reconcile::Reconciler {
 public:
  // client is the manager's client; events goes to the API server (the event recorder
  // "raycronjob-controller"). Both must outlive this object.
  RayCronJobReconciler(client::Client& client, client::Client& events, OperatorConfig config);
  RayCronJobReconciler(const RayCronJobReconciler&) = delete;
  RayCronJobReconciler& operator=(const RayCronJobReconciler&) = delete;

  reconcile::Outcome Reconcile(reconcile::ReconcileContext& ctx,
                               const reconcile::Request& req) override;

 private:
  client::Client& client_;
  EventRecorder recorder_;
  OperatorConfig config_;
};

}  // namespace kuberay::raycronjob
