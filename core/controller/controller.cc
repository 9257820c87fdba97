#include "core/controller/controller.h"

#include <string>
#include <string_view>
#include <utility>

#include "core/base/assert.h"
#include "core/sim/cause_scope.h"

namespace controller {
namespace {

constexpr const char* kBothWarning =
    "Warning: Reconciler returned both a result with either RequeueAfter or Requeue set and a "
    "non-nil error. RequeueAfter and Requeue will always be ignored if the error is non-nil.";

int64_t Millis(base::Duration d) { return d / base::kMillisecond; }

}  // namespace

Controller::Controller(std::string name, reconcile::Reconciler& reconciler,
                       sim::Scheduler& scheduler, sim::Trace& trace, Options options)
    : name_(std::move(name)),
      reconciler_(reconciler),
      scheduler_(scheduler),
      trace_(trace),
      options_(std::move(options)) {
  // mirrors controller.go NewTypedUnmanaged defaults
  if (options_.max_concurrent_reconciles <= 0) options_.max_concurrent_reconciles = 1;
  // The queue.add records of this controller's sources and delayed adds note themselves in
  // last_add_seq_ through the tracer, so queue.get can point back at the one that readied a key.
  tracer_ = source::Tracer{&trace_, name_, options_.replica, &last_add_seq_};
  workqueue::QueueOptions queue_options;
  queue_options.use_priority_queue = options_.use_priority_queue;
  if (options_.rate_limiter) queue_options.rate_limiter = options_.rate_limiter(scheduler_.clock());
  queue_ = workqueue::NewQueue(scheduler_, name_, std::move(queue_options));
  slots_.resize(static_cast<size_t>(options_.max_concurrent_reconciles));
  metrics_.max_concurrent_reconciles = options_.max_concurrent_reconciles;
  for (const char* result : {"success", "error", "requeue", "requeue_after"}) {
    metrics_.reconcile_total[result] = 0;
  }
  std::weak_ptr<bool> alive = alive_;
  queue_->SetOnReady([this, alive] {
    if (!alive.expired()) MaybeDispatch();
  });
  // A delayed add that fires is traced as a queue.add caused by the queue.add_after record.
  queue_->SetOnDelayedAdd([this, alive](const workqueue::DelayedAdd& added) {
    if (alive.expired()) return;
    tracer_.EmitQueueAdd(added.key, workqueue::AddOutcomeName(added.outcome), added.priority,
                         added.cause, /*readies=*/true);
  });
}

Controller::~Controller() { *alive_ = false; }

base::Status Controller::Watch(std::unique_ptr<source::Source> src) {
  if (started_) {
    base::Status s = src->Start(source::StartContext{tracer_, queue_.get()});
    if (!s.ok()) return s;
  }
  sources_.push_back(std::move(src));
  return base::Status::OK();
}

base::Status Controller::Start() {
  if (started_) {
    return base::Status(base::StatusCode::kInvalid, "controller was started more than once. This "
                                                    "is likely to be caused by being added to a "
                                                    "manager multiple times");
  }
  started_ = true;
  for (auto& src : sources_) {
    base::Status s = src->Start(source::StartContext{tracer_, queue_.get()});
    if (!s.ok()) return s;
  }
  WaitForSync(scheduler_.clock().Now() + options_.cache_sync_timeout);
  return base::Status::OK();
}

void Controller::WaitForSync(base::SimTime deadline) {
  if (stopped_) return;
  const source::Source* unsynced = nullptr;
  for (const auto& src : sources_) {
    if (!src->HasSynced()) {
      unsynced = src.get();
      break;
    }
  }
  if (unsynced == nullptr) {
    synced_ = true;
    Log("info", "Starting workers", {{"worker count", std::to_string(slots_.size())}});
    MaybeDispatch();
    return;
  }
  if (scheduler_.clock().Now() >= deadline) {
    // mirrors internal/controller/controller.go startEventSourcesAndQueueLocked: each source
    // waits at most CacheSyncTimeout; the first that fails is the error Start returns, and no
    // worker ever starts. mirrors internal/source/kind.go WaitForSync for the wrapped error.
    const std::string source = unsynced->String();
    const base::Status error(base::StatusCode::kTimeout,
                             "failed to wait for " + name_ + " caches to sync " + source +
                                 ": timed out waiting for cache to be synced for " + source);
    Log("error", "Could not wait for Cache to sync",
        {{"source", source}, {"error", error.message()}});
    if (on_start_error_) on_start_error_(error);
    return;
  }
  std::weak_ptr<bool> alive = alive_;
  scheduler_.After(10 * base::kMillisecond, name_ + " wait for cache sync",
                   [this, alive, deadline] {
                     if (!alive.expired()) WaitForSync(deadline);
                   });
}

void Controller::Stop() {
  stopped_ = true;
  queue_->ShutDown();
}

void Controller::MaybeDispatch() {
  if (!synced_ || crashed_) return;
  int free_slots = 0;
  for (const Slot& slot : slots_) free_slots += slot.busy ? 0 : 1;
  // One pickup per free slot and ready key; the pickup itself asks the queue (it may hand out
  // nothing when every ready key is locked).
  const int ready = static_cast<int>(queue_->Len());
  std::weak_ptr<bool> alive = alive_;
  while (pending_pickups_ < free_slots && pending_pickups_ < ready) {
    int worker = -1;
    int skipped = 0;
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (!slots_[i].busy) {
        if (skipped == pending_pickups_) {
          worker = static_cast<int>(i);
          break;
        }
        ++skipped;
      }
    }
    RLAB_ASSERT(worker >= 0, "a free slot must exist for each pending pickup");
    ++pending_pickups_;
    scheduler_.After(0, name_ + " worker " + std::to_string(worker) + " pick up",
                     [this, alive, worker] {
                       if (alive.expired()) return;
                       --pending_pickups_;
                       ProcessNextWorkItem(worker);
                     });
  }
}

void Controller::ProcessNextWorkItem(int worker) {
  if (crashed_) return;
  Slot& slot = slots_[static_cast<size_t>(worker)];
  if (slot.busy) {
    // Another pickup took this slot first; find a free one.
    worker = -1;
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (!slots_[i].busy) {
        worker = static_cast<int>(i);
        break;
      }
    }
    if (worker < 0) return;
  }
  Slot& s = slots_[static_cast<size_t>(worker)];
  workqueue::GetResult got = queue_->GetWithPriority();
  if (!got.key.has_value()) return;
  const std::string key = *got.key;
  for (const Slot& other : slots_) {
    RLAB_ASSERT(!(other.busy && other.key == key), "a key must never be reconciled twice at once");
  }
  auto add = last_add_seq_.find(key);
  const int64_t get_seq = tracer_.Emit("queue.get", {{"controller", name_},
                                                     {"key", key},
                                                     {"worker", worker},
                                                     {"cause", add != last_add_seq_.end()
                                                                   ? add->second
                                                                   : trace_.current_cause()}});
  s.busy = true;
  s.key = key;
  s.priority = got.priority;
  s.since = scheduler_.clock().Now();
  ++metrics_.active_workers;

  const int64_t start_seq = tracer_.Emit("reconcile.start", {{"controller", name_},
                                                             {"key", key},
                                                             {"worker", worker},
                                                             {"cause", get_seq}});
  reconcile::Outcome outcome;
  bool process_dies = false;
  {
    // The reconcile body runs now; its API requests are caused by reconcile.start.
    const sim::CauseScope reconcile_cause(trace_, start_seq);
    if (cost_meter_) (void)cost_meter_();  // drop anything measured outside a reconcile
    reconcile::ReconcileContext ctx;
    ctx.controller = name_;
    ctx.worker = worker;
    ctx.now = scheduler_.clock().Now();
    ctx.log = [this](const std::string& level, const std::string& msg,
                     const reconcile::ReconcileContext::KeyValues& kv) { Log(level, msg, kv); };
    outcome = reconciler_.Reconcile(ctx, reconcile::Request::FromKey(key));
    // mirrors controller.go Reconcile's deferred recover: a panic always counts; with
    // RecoverPanic (the default) it becomes an error, without it the panic goes on up the worker
    // goroutine, which nothing recovers: the process dies.
    if (outcome.panic.has_value()) {
      ++metrics_.reconcile_panics_total;
      process_dies = !options_.recover_panic.value_or(true);
      if (process_dies) {
        Log("info", "Observed a panic in reconciler: " + *outcome.panic, {});
      } else {
        Log("error", "Observed a panic", {{"panic", *outcome.panic}});
        outcome.error =
            base::Status(base::StatusCode::kInternal, "panic: " + *outcome.panic + " [recovered]");
      }
    }
  }
  if (process_dies) {
    crashed_ = true;
    stopped_ = true;
    if (on_crash_) on_crash_(*outcome.panic);
    return;
  }
  const base::Duration cost = options_.reconcile_cost + (cost_meter_ ? cost_meter_() : 0);
  s.busy_until = scheduler_.clock().Now() + cost;
  std::weak_ptr<bool> alive = alive_;
  scheduler_.After(cost, name_ + " worker " + std::to_string(worker) + " done " + key,
                   [this, alive, worker, outcome, start_seq, cost] {
                     if (!alive.expired()) FinishReconcile(worker, outcome, start_seq, cost);
                   },
                   start_seq);
}

void Controller::FinishReconcile(int worker, const reconcile::Outcome& outcome, int64_t start_seq,
                                 base::Duration duration) {
  if (crashed_) return;  // the process died with this reconcile still in flight
  Slot& slot = slots_[static_cast<size_t>(worker)];
  const std::string key = slot.key;
  const reconcile::Result& result = outcome.result;
  const int priority = result.priority.value_or(slot.priority);
  ++metrics_.reconcile_time_count;
  metrics_.reconcile_time_sum += duration;

  // mirrors internal/controller/controller.go reconcileHandler: the switch, in upstream's order.
  std::string result_name;
  if (!outcome.error.ok()) {
    result_name = reconcile::IsTerminal(outcome.error) ? "terminal_error" : "error";
  } else if (result.requeue_after > 0) {
    result_name = "requeue_after";
  } else if (result.requeue) {
    result_name = "requeue";
  } else {
    result_name = "success";
  }
  const int64_t end_seq = tracer_.Emit(
      "reconcile.end", {{"controller", name_},
                        {"key", key},
                        {"worker", worker},
                        {"result", result_name},
                        {"requeueAfterMs", Millis(result.requeue_after)},
                        {"error", outcome.error.ok() ? "" : outcome.error.message()},
                        {"cause", start_seq}});
  {
    // What the outcome leads to (forget, requeue, done) is caused by reconcile.end.
    const sim::CauseScope outcome_cause(trace_, end_seq);
    auto forget = [&] {
      queue_->Forget(key);
      tracer_.Emit("queue.forget", {{"controller", name_}, {"key", key}, {"cause", end_seq}});
    };
    auto add_rate_limited = [&] {
      workqueue::AddOpts opts;
      opts.rate_limited = true;
      opts.priority = priority;
      workqueue::AddResult added = queue_->AddWithOpts(opts, key);
      const int64_t seq = tracer_.Emit("queue.add_rate_limited", {{"controller", name_},
                                                                  {"key", key},
                                                                  {"delayMs", Millis(added.delay)},
                                                                  {"requeues", added.requeues},
                                                                  {"cause", end_seq}});
      queue_->SetWaitingCause(key, seq);
    };
    if (!outcome.error.ok()) {
      if (reconcile::IsTerminal(outcome.error)) {
        // Terminal errors are not retried, and Forget is not called either.
        ++metrics_.terminal_reconcile_errors_total;
      } else {
        add_rate_limited();
      }
      ++metrics_.reconcile_errors_total;
      ++metrics_.reconcile_total["error"];
      if (result.requeue_after > 0 || result.requeue) Log("info", kBothWarning, {});
      Log("error", "Reconciler error", {{"error", outcome.error.message()}});
    } else if (result.requeue_after > 0) {
      // Forget first (the backoff resets), then come back after the delay.
      forget();
      workqueue::AddOpts opts;
      opts.after = result.requeue_after;
      opts.priority = priority;
      queue_->AddWithOpts(opts, key);
      const int64_t seq =
          tracer_.Emit("queue.add_after", {{"controller", name_},
                                           {"key", key},
                                           {"delayMs", Millis(result.requeue_after)},
                                           {"cause", end_seq}});
      queue_->SetWaitingCause(key, seq);
      ++metrics_.reconcile_total["requeue_after"];
    } else if (result.requeue) {
      // Deprecated Requeue: rate limited, and no Forget.
      add_rate_limited();
      ++metrics_.reconcile_total["requeue"];
    } else {
      forget();
      ++metrics_.reconcile_total["success"];
    }
    // Done runs last, as upstream's deferred Done: adds above happened while still processing.
    queue_->Done(key);
    tracer_.Emit("queue.done", {{"controller", name_}, {"key", key}, {"cause", end_seq}});
  }
  slot = Slot{};
  --metrics_.active_workers;
  MaybeDispatch();
}

std::vector<WorkerState> Controller::Workers() const {
  std::vector<WorkerState> out;
  for (size_t i = 0; i < slots_.size(); ++i) {
    out.push_back(WorkerState{static_cast<int>(i), slots_[i].key, slots_[i].since,
                              slots_[i].busy_until});
  }
  return out;
}

void Controller::Log(const std::string& level, const std::string& msg,
                     const reconcile::ReconcileContext::KeyValues& kv) {
  if (logger_) {
    reconcile::ReconcileContext::KeyValues all = {{"controller", name_}};
    all.insert(all.end(), kv.begin(), kv.end());
    logger_(level, msg, all);
  }
}

}  // namespace controller
