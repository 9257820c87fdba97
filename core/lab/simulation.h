#pragma once
// Simulation: the composition root. It owns the kernel (clock, trace, scheduler, seeded PRNG),
// the API server and every simulated component, builds them bottom-up and destroys them in
// reverse order. Two simulations can run side by side (no globals).
// No Go counterpart (in a real cluster these are separate processes).
// Simplified: one cluster, built whole by the constructor: the API server with RBAC and API
// faults, the garbage collector, the World (SimulationOptions::start_world), the Ray heads and
// the operators (install_operators).
// Single-threaded; all time comes from the one Clock; all randomness from the one seed.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "core/apiserver/api_server.h"
#include "core/apiserver/rbac.h"
#include "core/base/assert.h"
#include "core/client/client.h"
#include "core/client/fault_rules.h"
#include "core/sim/clock.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"
#include "core/sim/steering.h"
#include "core/sim/trace.h"
#include "core/lab/budget.h"
#include "core/lab/operator_host.h"
#include "core/lab/ray_dashboard_adapter.h"
#include "core/lab/ray_submitter.h"
#include "core/world/gc/garbage_collector.h"
#include "core/world/ray/ray_head.h"
#include "core/world/world.h"

namespace lab {

struct SimulationOptions {
  uint64_t seed = 1;  // Defaults to 1.
  // StartWorld runs the nodes, kubelets, scheduler and built-in controllers. Defaults to true.
  bool start_world = true;
  // InstallOperators installs the operators as Deployments (needs the world). Defaults to true.
  bool install_operators = true;
  // world configures the cluster (node count and capacity, component timings). Defaults to
  // WorldOptions{}: 3 nodes of 8 cpu / 32Gi / 110 pods.
  world::WorldOptions world;
  // budget bounds each command's events and the objects the sandbox stores (budget.h).
  // Defaults to Budget{}; `rlab bench` raises it for its scale scenarios.
  Budget budget;
};

class Simulation {
 public:
  explicit Simulation(const SimulationOptions& options);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  uint64_t seed() const { return options_.seed; }
  sim::Clock& clock() { return clock_; }
  sim::Trace& trace() { return trace_; }
  sim::Scheduler& scheduler() { return scheduler_; }
  apiserver::ApiServer& apiserver() { return *apiserver_; }
  client::FaultRules& faults() { return faults_; }
  // learner is the client kubectl commands use (user kubernetes-admin, never faulted).
  client::Client& learner() { return *learner_; }
  // world is null when the options turned it off.
  world::World* world() { return world_.get(); }
  world::GarbageCollector& gc() { return *gc_; }
  // ray_heads is every RayCluster's simulated Ray head (dashboard, Serve); null without a world.
  world::RayHeads* ray_heads() { return ray_heads_.get(); }
  // Operator finds an installed operator by name ("inference-operator"); null if absent.
  OperatorHost* Operator(const std::string& name);
  const std::vector<std::unique_ptr<OperatorHost>>& operators() const { return operators_; }
  // AddOperator installs one more operator (a learner's module): its ServiceAccount, RBAC and
  // Deployment. Errors: the name is taken (409), there is no world to run its Pods (400), or
  // the install's own (an object of the operator's name already exists).
  base::Status AddOperator(OperatorSpec spec, OperatorSettings settings);

  // budget is what one command may spend and what the store may hold (budget.h); commands
  // spend it through lab::Lab, which drives their goals (advance.h).
  const Budget& budget() const { return options_.budget; }
  // LowerEventBudget sets the events one command may run to `events` (the `budget` command);
  // the caller checks that it is not above the current budget: a script may only tighten it.
  void LowerEventBudget(uint64_t events) { options_.budget.events = events; }
  // Step runs up to n scheduler events, outside any command's budget (tests and tools); returns
  // how many ran.
  uint64_t Step(uint64_t n);
  // AdvanceUntil runs events one at a time until done() is true, or the next event is past
  // deadline (the clock then moves to deadline), or `budget` events ran (the clock then stays at
  // the last event processed, every queued event still queued). Returns whether done() became
  // true. For tools that measure a whole scenario (`rlab bench`); commands use advance.h.
  bool AdvanceUntil(const std::function<bool()>& done, base::SimTime deadline, uint64_t budget);

  // steering is the race explorer's record of choice points (core/sim/steering.h).
  const sim::Steering& steering() const { return steering_; }
  // Steer pins a schedule (the `schedule` command): from now on same-instant orderings and
  // deliveries to the operators' informers are choice points, decided by pins (default 0).
  // StopSteering unwires it (`schedule off`); the record stays readable.
  void Steer(std::map<size_t, size_t> pins, base::Duration lag);
  void StopSteering();
  // StateFingerprint summarises the state for the explorer's deduplication: the virtual time,
  // the events run and pending, the API server's resourceVersion and the multiset of trace
  // records (type, time and fields except seq and cause), so two orderings of commuting events
  // that led to the same records at the same instant fingerprint alike.
  uint64_t StateFingerprint();

 private:
  SimulationOptions options_;
  sim::Clock clock_;
  sim::Trace trace_{clock_};
  sim::Scheduler scheduler_{clock_, trace_};
  sim::Prng prng_;
  base::AssertContext assert_context_;
  const base::AssertContext* previous_assert_context_ = nullptr;
  std::unique_ptr<apiserver::ApiServer> apiserver_;
  std::unique_ptr<apiserver::RbacAuthorizer> rbac_;
  client::FaultRules faults_;
  std::unique_ptr<client::Client> learner_;
  std::unique_ptr<client::Client> gc_direct_client_;
  std::unique_ptr<client::Client> gc_client_;
  std::unique_ptr<world::GarbageCollector> gc_;
  std::unique_ptr<world::World> world_;
  std::unique_ptr<world::RayHeads> ray_heads_;
  std::unique_ptr<RayDashboardAdapter> dashboards_;
  std::unique_ptr<RaySubmitterRunner> submitters_;
  std::vector<std::unique_ptr<OperatorHost>> operators_;
  sim::Steering steering_;
  uint64_t trace_multiset_ = 0;  // sum of the hashes of the first trace_hashed_ trace records
  size_t trace_hashed_ = 0;
};

}  // namespace lab
