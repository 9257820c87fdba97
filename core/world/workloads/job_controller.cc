#include "core/world/workloads/job_controller.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/api/pointer.h"
#include "core/sim/cause_scope.h"
#include "core/world/workloads/pod_util.h"
#include "core/world/workloads/replicaset_controller.h"

namespace world {
namespace {

using api::Json;

const char kJobController[] = "job-controller";

Json JobOrNull(int64_t v) { return v == 0 ? Json(nullptr) : Json(v); }

bool Finished(const Json& job) {
  return ConditionIs(job, "Complete", "True") || ConditionIs(job, "Failed", "True");
}

Json JobCondition(const std::string& type, const std::string& reason, const std::string& message,
                  base::SimTime now) {
  return Json{{"type", type},
              {"status", "True"},
              {"reason", reason},
              {"message", message},
              {"lastProbeTime", base::FormatRfc3339(now)}};
}

}  // namespace

JobController::JobController(client::Client& client, sim::Scheduler& scheduler, Options options)
    : JobController(client, scheduler, std::move(options), nullptr) {}

JobController::JobController(client::Client& client, SharedInformerFactory& informers,
                             sim::Scheduler& scheduler, Options options)
    : JobController(client, scheduler, std::move(options), &informers) {}

JobController::JobController(client::Client& client, sim::Scheduler& scheduler, Options options,
                             SharedInformerFactory* shared)
    : client_(client),
      scheduler_(scheduler),
      options_(std::move(options)),
      own_informers_(shared != nullptr
                         ? nullptr
                         : std::make_unique<SharedInformerFactory>(
                               client, scheduler, options_.watcher, options_.traced_watches)),
      informers_(shared != nullptr ? *shared : *own_informers_),
      jobs_(informers_.InformerFor("Job")),
      pods_(informers_.InformerFor("Pod")),
      queue_(scheduler, WorkerQueue::Options{kJobController, options_.sync_delay},
             [this](const std::string& key) { return Sync(key); }),
      expectations_(scheduler.clock()) {
  jobs_.AddEventHandler(OnChange([this](const api::ObjectPtr& o, const api::ObjectPtr& n) {
    if (n == nullptr) expectations_.DeleteExpectations(api::ObjectKey(*o));
    queue_.Add(api::ObjectKey(n != nullptr ? *n : *o));
  }));
  // mirrors job_controller.go addPod/updatePod/deletePod: observe, then queue the Job.
  pods_.AddEventHandler(OnChange([this](const api::ObjectPtr& o, const api::ObjectPtr& n) {
    const std::string key = ControllerKeyOf(n != nullptr ? n : o, "Job");
    expectations_.ObserveChange(key, o, n);
    if (!key.empty()) queue_.Add(key);
    if (o != nullptr && n != nullptr) {
      const std::string old_key = ControllerKeyOf(o, "Job");
      if (!old_key.empty() && old_key != key) queue_.Add(old_key);
    }
  }));
}

void JobController::Start() {
  jobs_.Start();
  pods_.Start();
}

// mirrors job_controller.go syncJob + manageJob.
bool JobController::Sync(const std::string& key) {
  api::ObjectPtr job = jobs_.GetStore().GetByKey(key);
  if (job == nullptr) {
    last_failure_.erase(key);
    expectations_.DeleteExpectations(key);
    return true;
  }
  const bool satisfied = expectations_.SatisfiedExpectations(key);
  if (api::IsBeingDeleted(*job) || Finished(*job)) return true;
  sim::Trace& trace = scheduler_.trace();
  const std::string ns = api::Namespace(*job);
  const std::string object = "Job/" + key;
  const base::SimTime now = scheduler_.clock().Now();

  std::vector<api::ObjectPtr> active;
  int64_t succeeded = 0, failed = 0, ready = 0, restarts = 0;
  for (const api::ObjectPtr& pod : ControlledBy(pods_, api::Uid(*job))) {
    if (api::Namespace(*pod) != ns) continue;
    const std::string phase = PodPhase(*pod);
    if (phase == "Succeeded") {
      ++succeeded;
    } else if (phase == "Failed") {
      ++failed;
    } else if (!api::IsBeingDeleted(*pod)) {
      active.push_back(pod);
      if (IsPodReady(*pod)) ++ready;
      restarts += RestartCount(*pod);
    }
  }
  const int64_t previous_failed = IntAt(*job, "/status/failed", 0);
  succeeded = std::max(succeeded, IntAt(*job, "/status/succeeded", 0));
  failed = std::max(failed, previous_failed);
  if (failed > previous_failed) last_failure_[key] = now;

  const int64_t backoff_limit = IntAt(*job, "/spec/backoffLimit", 6);
  const int64_t parallelism = IntAt(*job, "/spec/parallelism", 1);
  const Json& completions_field = JsonAt(*job, "/spec/completions");
  const bool has_completions = completions_field.is_number_integer();
  const int64_t completions = has_completions ? completions_field.get<int64_t>() : 0;
  const bool suspended = JsonAt(*job, "/spec/suspend") == Json(true);
  const bool on_failure =
      api::GetString(*job, "/spec/template/spec/restartPolicy") == "OnFailure";
  // pastBackoffLimitOnFailure: container restarts count as failures under OnFailure.
  const bool past_on_failure =
      on_failure && (backoff_limit == 0 ? restarts > 0 : restarts >= backoff_limit);
  const bool exceeded = failed > backoff_limit || past_on_failure;
  const bool complete =
      has_completions ? succeeded >= completions : succeeded > 0 && active.empty();

  Json conditions = JsonAt(*job, "/status/conditions");
  Json completion_time = JsonAt(*job, "/status/completionTime");
  bool ok = true;
  auto delete_all = [&](const std::vector<api::ObjectPtr>& pods, bool expect) {
    std::vector<std::string> keys;
    for (const api::ObjectPtr& pod : pods) keys.push_back(api::ObjectKey(*pod));
    if (expect) expectations_.ExpectDeletions(key, keys);
    for (size_t i = 0; i < pods.size(); ++i) {
      auto deleted = client_.Delete("Pod", ns, api::Name(*pods[i]));
      if (deleted.ok()) continue;
      if (expect) expectations_.DeletionObserved(key, keys[i]);  // the informer will not see it
      if (!base::IsNotFound(deleted.status())) ok = false;
    }
  };
  int64_t active_count = static_cast<int64_t>(active.size());
  if (exceeded || complete) {
    const std::string reason = exceeded ? "BackoffLimitExceeded" : "CompletionsReached";
    const std::string message = exceeded ? "Job has reached the specified backoff limit"
                                         : "Reached expected number of succeeded pods";
    const sim::CauseScope cause(
        trace,
        EmitAction(trace, kJobController, object, exceeded ? "fail" : "complete",
                   reason + ": " + std::to_string(succeeded) + " succeeded, " +
                       std::to_string(failed) + " failed"),
        sim::CauseScope::kIfKnown);
    delete_all(active, /*expect=*/false);
    active_count = 0;
    ready = 0;
    // 1.31+: the interim condition, then the terminal one.
    conditions = UpsertCondition(
        std::move(conditions),
        JobCondition(exceeded ? "FailureTarget" : "SuccessCriteriaMet", reason, message, now), now);
    conditions = UpsertCondition(
        std::move(conditions),
        JobCondition(exceeded ? "Failed" : "Complete", reason, message, now), now);
    if (complete && !exceeded) completion_time = base::FormatRfc3339(now);
  } else if (satisfied) {
    // mirrors job_controller.go manageJob (only when the expectations are satisfied)
    int64_t want = has_completions ? std::min(parallelism, completions - succeeded)
                                   : (succeeded > 0 ? 0 : parallelism);
    if (suspended || want < 0) want = 0;
    if (active_count > want) {
      std::vector<api::ObjectPtr> victims = active;
      std::stable_sort(victims.begin(), victims.end(),
                       [](const api::ObjectPtr& a, const api::ObjectPtr& b) {
                         // A total order (name breaks ties) so libstdc++ and libc++ agree.
                         if (DeleteFirst(*a, *b)) return true;
                         if (DeleteFirst(*b, *a)) return false;
                         return api::Name(*a) < api::Name(*b);
                       });
      victims.resize(static_cast<size_t>(active_count - want));
      const sim::CauseScope cause(trace,
                                  EmitAction(trace, kJobController, object, "delete-pods",
                                             "want " + std::to_string(want) + " active, have " +
                                                 std::to_string(active_count)),
                                  sim::CauseScope::kIfKnown);
      delete_all(victims, /*expect=*/true);
      active_count = want;
    } else if (active_count < want) {
      // backoff_utils.go: a replacement after failures waits initial << (failures-1), capped.
      base::SimTime ready_at = now;
      auto last = last_failure_.find(key);
      if (failed > 0 && last != last_failure_.end()) {
        base::Duration delay = options_.pod_backoff_initial;
        for (int64_t i = 1; i < failed && delay < options_.pod_backoff_max; ++i) delay *= 2;
        ready_at = last->second + std::min(delay, options_.pod_backoff_max);
      }
      if (ready_at > now) {
        queue_.AddAfter(key, ready_at - now);
      } else {
        const int64_t n = want - active_count;
        const sim::CauseScope cause(
            trace,
            EmitAction(trace, kJobController, object, "create-pods",
                       "want " + std::to_string(want) + " active, have " +
                           std::to_string(active_count) + ": creating " + std::to_string(n)),
            sim::CauseScope::kIfKnown);
        expectations_.ExpectCreations(key, n);
        for (int64_t i = 0; i < n; ++i) {
          Json pod = PodFromTemplate(JsonAt(*job, "/spec/template"), *job,
                                     api::Name(*job) + "-");
          api::SetLabel(pod, kJobNameLabel, api::Name(*job));
          api::SetLabel(pod, kLegacyJobNameLabel, api::Name(*job));
          api::SetLabel(pod, "batch.kubernetes.io/controller-uid", api::Uid(*job));
          api::SetLabel(pod, "controller-uid", api::Uid(*job));
          auto created = client_.Create(pod);
          if (!created.ok()) {
            // The informer will not see the creations that did not happen.
            for (int64_t skipped = i; skipped < n; ++skipped) expectations_.CreationObserved(key);
            ok = false;
            break;
          }
          ++active_count;
        }
      }
    }
  }

  Json start_time = JsonAt(*job, "/status/startTime");
  if (start_time.is_null() && !suspended) start_time = base::FormatRfc3339(now);
  Json status = {
      {"active", JobOrNull(active_count)},
      {"succeeded", JobOrNull(succeeded)},
      {"failed", JobOrNull(failed)},
      {"ready", ready},
      {"startTime", start_time},
      {"completionTime", completion_time},
      {"conditions", conditions.is_array() && !conditions.empty() ? conditions : Json(nullptr)}};
  bool changed = false;
  for (const auto& [field, value] : status.items()) {
    if (JsonAt(*job, "/status/" + field) != value) changed = true;
  }
  if (changed) {
    auto written = client_.PatchStatus("Job", ns, api::Name(*job), client::PatchType::kJsonMerge,
                                       Json{{"status", status}});
    if (!written.ok() && !base::IsNotFound(written.status())) ok = false;
  }
  return ok;
}

}  // namespace world
