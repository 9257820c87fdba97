#pragma once
// Controller: a workqueue, its sources and N worker slots that call a Reconciler, with
// controller-runtime's reconcile-result switch.
// Mirrors: controller-runtime pkg/controller/controller.go (Options, defaults) and
// pkg/internal/controller/controller.go (Start, processNextWorkItem, reconcileHandler, metrics).
// Simplified: a worker is a slot in virtual time, not a goroutine. A reconcile's body runs at the
// instant the worker picks the key; its API calls commit in order; the slot then stays busy for
// the modelled cost (base cost + the API calls' cost), and the result switch and Done happen when
// it frees. Teaching: the real body takes wall time too, spread over its calls.
// Single-threaded; all time from the scheduler; one key is never reconciled by two workers.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/time.h"
#include "core/reconcile/reconcile.h"
#include "core/sim/scheduler.h"
#include "core/source/source.h"
#include "core/source/tracer.h"
#include "core/workqueue/default_rate_limiters.h"
#include "core/workqueue/interface.h"

namespace controller {

// Logger receives the controller's log lines ("Reconciler error", the warning for a Result
// returned with an error) and the reconciler's own.
using Logger = std::function<void(const std::string& level, const std::string& msg,
                                  const reconcile::ReconcileContext::KeyValues& kv)>;
// CostMeter returns (and resets) the virtual time the API calls of the reconcile that just ran
// cost, including injected latency; the manager's client measures it.
using CostMeter = std::function<base::Duration()>;
// StartErrorHandler receives the error Start returns once it is known — upstream's Start blocks
// and returns it to the manager's runnable group, which sends it to the manager's error channel.
using StartErrorHandler = std::function<void(const base::Status& error)>;
// CrashHandler receives the value of a panic the controller did not recover (RecoverPanic=false):
// the Go runtime then ends the whole process.
using CrashHandler = std::function<void(const std::string& panic_value)>;

struct Options {
  // MaxConcurrentReconciles is the number of worker slots. Defaults to 1.
  int max_concurrent_reconciles = 1;
  // UsePriorityQueue picks controller-runtime's priority queue. Defaults to true (v0.23+).
  bool use_priority_queue = true;
  // RecoverPanic turns a reconciler panic into an error. Unset means true. With false the panic
  // is re-raised: the process crashes (see SetCrashHandler).
  std::optional<bool> recover_panic;
  // RateLimiter overrides the queue's default (exponential 5ms..1000s, plus a 10 qps/100 burst
  // bucket on the classic queue). Defaults to null.
  std::function<std::unique_ptr<workqueue::RateLimiter>(const sim::Clock&)> rate_limiter;
  // NeedLeaderElection: the manager starts this controller only while leading. Defaults to true.
  bool need_leader_election = true;
  // ReconcileCost is the modelled time of a reconcile's own work. Defaults to 1ms.
  base::Duration reconcile_cost = base::kMillisecond;
  // CacheSyncTimeout bounds the wait for the sources' caches; past it Start fails with "failed to
  // wait for <name> caches to sync …" (see SetStartErrorHandler). Defaults to 2 minutes.
  base::Duration cache_sync_timeout = 2 * base::kMinute;
  // Replica is the operator Pod this controller runs in (a trace field). Defaults to "".
  std::string replica;
  // SkipNameValidation lets a second controller of the same name into one process (metrics
  // then collide). Unset means false. Read by the builder (the name check needs the manager).
  std::optional<bool> skip_name_validation;
};

// Metrics mirrors pkg/internal/controller/metrics (integer counters; durations in µs).
struct Metrics {
  std::map<std::string, int64_t> reconcile_total;  // success, error, requeue, requeue_after
  int64_t reconcile_errors_total = 0;              // includes terminal errors
  int64_t terminal_reconcile_errors_total = 0;
  int64_t reconcile_panics_total = 0;
  int64_t reconcile_time_count = 0;
  base::Duration reconcile_time_sum = 0;
  int max_concurrent_reconciles = 0;
  int active_workers = 0;
};

// WorkerState is what a UI shows for one slot.
struct WorkerState {
  int worker = 0;
  std::string key;             // "" when idle
  base::SimTime since = 0;     // when the current reconcile started
  base::SimTime busy_until = 0;
};

class Controller {
 public:
  // name is lower case ("inferenceservice"); reconciler, scheduler and trace must outlive this.
  Controller(std::string name, reconcile::Reconciler& reconciler, sim::Scheduler& scheduler,
             sim::Trace& trace, Options options);
  ~Controller();
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  // Watch adds a source; before Start it is started with the controller, after Start at once.
  base::Status Watch(std::unique_ptr<source::Source> src);
  // Start starts the sources, waits (in virtual time) for their caches, then lets workers run.
  // Starting twice is an error.
  base::Status Start();
  // Stop shuts the queue down: the priority queue hands out nothing more; the classic queue's
  // workers drain what is already queued (upstream's ShutDown semantics).
  void Stop();

  void SetLogger(Logger logger) { logger_ = std::move(logger); }
  void SetCostMeter(CostMeter meter) { cost_meter_ = std::move(meter); }
  // SetStartErrorHandler: where Start's late error goes (the manager's error channel). Without
  // one the controller only logs it.
  void SetStartErrorHandler(StartErrorHandler handler) { on_start_error_ = std::move(handler); }
  // SetCrashHandler: who ends the process on an unrecovered panic (the manager). With or without
  // one, the controller itself stops at once: no Result is handled, no key is handed out again.
  void SetCrashHandler(CrashHandler handler) { on_crash_ = std::move(handler); }

  const std::string& name() const { return name_; }
  const Options& options() const { return options_; }
  bool started() const { return started_; }
  bool synced() const { return synced_; }
  // crashed reports that a reconcile panicked with RecoverPanic=false.
  bool crashed() const { return crashed_; }
  workqueue::Interface& queue() { return *queue_; }
  const workqueue::Interface& queue() const { return *queue_; }
  const Metrics& metrics() const { return metrics_; }
  std::vector<WorkerState> Workers() const;

 private:
  struct Slot {
    bool busy = false;
    std::string key;
    int priority = 0;
    base::SimTime since = 0;
    base::SimTime busy_until = 0;
  };

  void WaitForSync(base::SimTime deadline);
  void MaybeDispatch();
  void ProcessNextWorkItem(int worker);
  void FinishReconcile(int worker, const reconcile::Outcome& outcome, int64_t start_seq,
                       base::Duration duration);
  void Log(const std::string& level, const std::string& msg,
           const reconcile::ReconcileContext::KeyValues& kv);

  std::string name_;
  reconcile::Reconciler& reconciler_;
  sim::Scheduler& scheduler_;
  sim::Trace& trace_;
  Options options_;
  source::Tracer tracer_;
  std::unique_ptr<workqueue::Interface> queue_;
  std::vector<std::unique_ptr<source::Source>> sources_;
  std::vector<Slot> slots_;  // Invariant: no two busy slots hold the same key.
  int pending_pickups_ = 0;  // pickup events scheduled but not yet run
  bool started_ = false;
  bool synced_ = false;
  bool stopped_ = false;
  bool crashed_ = false;
  source::LastAdds last_add_seq_;  // key -> seq of the queue.add record that readied it
  Metrics metrics_;
  Logger logger_;
  CostMeter cost_meter_;
  StartErrorHandler on_start_error_;
  CrashHandler on_crash_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);  // guards scheduled callbacks
};

}  // namespace controller
