#pragma once
// Manager: what one operator process runs — a shared cache of informers, a client that reads
// from that cache and writes to the API server, leader election, and the runnables
// (controllers) it starts once it leads.
// Mirrors: controller-runtime pkg/manager/manager.go and internal.go (Add, Start, leader
// election, GetClient, GetCache, GetAPIReader) and pkg/client (the default client's cache reads).
// Simplified: no webhooks server, metrics server or health probes; runnables start in the order
// added; the operator's log is kept in memory for `logs deploy/NAME`. The process's main() is the
// exit handler (SetOnExit): mgr.Start returning an error ends it with 1 (KubeRay's exitOnError),
// an unrecovered panic with 2 (the Go runtime).
// Single-threaded; all work is scheduler events; several managers (replicas) can share one
// simulation, each with its own cache.

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/base/time.h"
#include "core/cache/cache.h"
#include "core/client/client.h"
#include "core/manager/leader_election.h"
#include "core/manager/runnable.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"

namespace manager {

// ControllerDefaults are the manager-wide controller settings every controller takes unless its
// own options set them. mirrors pkg/config/controller.go Controller, applied by
// pkg/controller/controller.go DefaultFromConfig.
struct ControllerDefaults {
  // RecoverPanic: unset means true (a reconcile panic becomes an error).
  std::optional<bool> recover_panic;
  // SkipNameValidation: unset means false (controller names must be unique in the process).
  std::optional<bool> skip_name_validation;
};

struct Options {
  std::string name;     // the operator: "inference-operator"
  std::string replica;  // its Pod name (identity for leader election, trace `replica`)
  cache::Options cache;
  // LeaderElection makes runnables that need it wait for the lease. Defaults to false
  // (controller-runtime's default; operators' main.go usually turns it on).
  bool leader_election = false;
  LeaderElectionOptions leader_election_options;
  // ApiCallCost is the modelled time of one API request made by a reconcile. Defaults to 1ms.
  base::Duration api_call_cost = base::kMillisecond;
  // Controller is ctrl.Options.Controller. Defaults to ControllerDefaults{}.
  ControllerDefaults controller;
};

// LogLine is one line of the operator's log.
struct LogLine {
  base::SimTime time = 0;
  std::string level;  // "INFO", "ERROR"; "" for a line written outside the logger (raw)
  std::string message;
  std::vector<std::pair<std::string, std::string>> kv;

  // Format renders zap's console encoding: time, level, message, then {"k": "v", …}; a raw line
  // (the Go runtime's panic report on stderr) as it is.
  std::string Format() const;
};

// ExitStatus is how the operator process ended by itself.
struct ExitStatus {
  int code = 0;         // 1: main.go's exitOnError after mgr.Start failed; 2: a Go panic
  std::string reason;   // "error" | "panic"
  std::string message;  // the error Start returned, or the panic value
};

class Manager {
 public:
  // api_client talks to the API server as the operator's service account (usually wrapped with
  // fault injection); take_injected_latency reports latency faults it added. Both must outlive
  // this object.
  Manager(client::Client& api_client, sim::Scheduler& scheduler, sim::Prng prng, Options options,
          std::function<base::Duration()> take_injected_latency = nullptr);
  ~Manager();
  Manager(const Manager&) = delete;
  Manager& operator=(const Manager&) = delete;

  // Add registers a runnable; the manager owns it. Added after Start, it starts at once (or when
  // leading, if it needs leader election).
  Runnable& Add(std::unique_ptr<Runnable> runnable);
  // Start starts the cache and the runnables that need no lease, then leader election (if on)
  // starts the rest once the lease is held.
  base::Status Start();
  // Stop runs the stop procedure (upstream's engageStopProcedure, logging each step): the
  // runnables, leader election (the lease is kept unless release_on_cancel) and the cache. It is
  // what SIGTERM does when the operator Pod goes away.
  void Stop();
  // Fail is upstream's error channel: the first error from a runnable (a controller whose caches
  // did not sync in CacheSyncTimeout) or from leader election ("leader election lost") makes
  // Start return it: the stop procedure runs, main.go logs "problem running manager" and the
  // process exits with 1. Errors after the first are logged as drained. mirrors internal.go Start
  // and KubeRay main.go exitOnError.
  void Fail(const base::Status& error);
  // Crash ends the process as the Go runtime does for a panic nothing recovered: the panic is
  // printed on stderr and the process exits with 2 at once — no stop procedure, no lease release.
  void Crash(const std::string& panic_value);
  // Kill is the process dying from outside (its container killed, OOM): nothing of it runs again
  // and nothing is logged; a leader's Lease stays taken until it expires.
  void Kill();
  // SetOnExit sets the process's exit: called once, when Fail or Crash ends it (main() returning).
  void SetOnExit(std::function<void(const ExitStatus&)> on_exit) { on_exit_ = std::move(on_exit); }
  // exit_status is set once the process has ended by itself.
  const std::optional<ExitStatus>& exit_status() const { return exit_status_; }

  // GetClient reads from the cache (eventually consistent) and writes to the API server.
  client::Client& GetClient();
  // GetAPIReader reads straight from the API server.
  client::Client& GetAPIReader() { return api_client_; }
  cache::Cache& GetCache() { return *cache_; }
  sim::Scheduler& scheduler() { return scheduler_; }
  const Options& options() const { return options_; }
  bool started() const { return started_; }
  bool leading() const;

  // Log appends to the operator's log and the trace (`operator.log`).
  void Log(const std::string& level, const std::string& message,
           const std::vector<std::pair<std::string, std::string>>& kv = {});
  const std::vector<LogLine>& logs() const { return logs_; }
  // TakeCost returns and resets the modelled time of the API calls made since the last call,
  // plus anything added with AddCost.
  base::Duration TakeCost();
  // AddCost charges extra virtual time to the reconcile running now (a blocking call, a slow
  // external system).
  void AddCost(base::Duration d) { extra_cost_ += d; }
  // ClaimControllerName records a controller name as used in this process; a name already used
  // is upstream's error ("controller with name X already exists. …"). mirrors
  // pkg/controller/name.go checkName, whose set is a package variable: process-wide, and one
  // Manager is one operator process here.
  base::Status ClaimControllerName(const std::string& name);

 private:
  class CachingClient;
  void StartLeaderRunnables();
  // Exit records how the process ended, traces it (`operator.exit`) and calls on_exit_.
  void Exit(ExitStatus status);
  // Halt stops the runnables, leader election and the cache without a word (a process that is
  // dead, not shutting down).
  void Halt();

  client::Client& api_client_;
  sim::Scheduler& scheduler_;
  sim::Prng prng_;
  Options options_;
  std::function<base::Duration()> take_injected_latency_;
  std::unique_ptr<cache::Cache> cache_;
  std::unique_ptr<CachingClient> client_;
  std::unique_ptr<LeaderElector> elector_;
  std::vector<std::unique_ptr<Runnable>> runnables_;
  std::vector<bool> runnable_started_;
  std::vector<LogLine> logs_;
  std::set<std::string> controller_names_;
  std::function<void(const ExitStatus&)> on_exit_;
  std::optional<ExitStatus> exit_status_;
  bool started_ = false;
  bool stopped_ = false;
  base::Duration extra_cost_ = 0;
};

}  // namespace manager
