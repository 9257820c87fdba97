#include "core/lab/simulation.h"

#include "core/client/fault_injecting_client.h"
#include "core/lab/operators.h"

namespace lab {
namespace {

constexpr const char* kGarbageCollectorUser =
    "system:serviceaccount:kube-system:generic-garbage-collector";

api::Json NamespaceObject(const std::string& name) {
  return api::Json{{"apiVersion", "v1"},
                   {"kind", "Namespace"},
                   {"metadata", {{"name", name}}}};
}

}  // namespace

Simulation::Simulation(const SimulationOptions& options)
    : options_(options), prng_(options.seed) {
  assert_context_.now_us = clock_.now_ptr();
  assert_context_.seed = options_.seed;
  previous_assert_context_ = base::SetAssertContext(&assert_context_);
  // Sub-generators are drawn in a fixed order so adding a component later never shifts the
  // draws of an earlier one.
  apiserver_ = std::make_unique<apiserver::ApiServer>(scheduler_, trace_, prng_.Derive());
  rbac_ = std::make_unique<apiserver::RbacAuthorizer>(*apiserver_);
  apiserver_->SetAuthorizer(
      [this](const apiserver::RequestAttributes& attrs) { return rbac_->Authorize(attrs); });
  learner_ = std::make_unique<client::DirectClient>(*apiserver_, apiserver::kAdminUser);
  apiserver_->SetObjectQuota(apiserver::ObjectQuota{options_.budget.pods, options_.budget.objects});

  // A fresh cluster already has its system namespaces; they are not part of the learner's trace.
  trace_.set_muted(true);
  for (const char* ns : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
    auto created = learner_->Create(NamespaceObject(ns));
    RLAB_ASSERT(created.ok(), "bootstrap namespace creation must succeed");
  }

  gc_direct_client_ = std::make_unique<client::DirectClient>(*apiserver_, kGarbageCollectorUser);
  gc_client_ = std::make_unique<client::FaultInjectingClient>(*gc_direct_client_, faults_,
                                                              *apiserver_);
  gc_ = std::make_unique<world::GarbageCollector>(*gc_client_, scheduler_,
                                                  world::GarbageCollector::Options{});
  if (options_.start_world) {
    // The built-in components are trusted system users: API faults target operators (and the
    // garbage collector), not the kubelet or kube-controller-manager.
    world::ClientFactory clients = [this](const std::string& user) {
      return std::unique_ptr<client::Client>(new client::DirectClient(*apiserver_, user));
    };
    world_ = std::make_unique<world::World>(clients, scheduler_, prng_.Derive(), options_.world);
    base::Status started = world_->Start();
    RLAB_ASSERT(started.ok(), "the simulated world must start");
    // The collector runs in kube-controller-manager: it follows the same shared watches.
    gc_->UseSharedInformers(&world_->controller_manager_informers());
  }
  gc_->Start();
  if (options_.start_world) {
    ray_heads_ = std::make_unique<world::RayHeads>(*apiserver_, clock_, trace_);
    dashboards_ = std::make_unique<RayDashboardAdapter>(*ray_heads_);
    submitters_ = std::make_unique<RaySubmitterRunner>(*apiserver_, scheduler_, *ray_heads_, *world_);
    base::Status runner = submitters_->Start();
    RLAB_ASSERT(runner.ok(), "the Ray submitter runtime must start");
    if (options_.install_operators) {
      operators_.push_back(std::make_unique<OperatorHost>(
          *this, InferenceOperatorSpec(world_->external(), scheduler_), OperatorSettings{}));
      operators_.push_back(std::make_unique<OperatorHost>(*this, KubeRayOperatorSpec(scheduler_, *dashboards_),
                                                          KubeRayOperatorSettings()));
      for (auto& host : operators_) {
        base::Status installed = host->Install();
        RLAB_ASSERT(installed.ok(), "installing a bundled operator must succeed");
      }
    }
  }
  trace_.set_muted(false);
}

OperatorHost* Simulation::Operator(const std::string& name) {
  for (auto& host : operators_) {
    if (host->name() == name) return host.get();
  }
  return nullptr;
}

base::Status Simulation::AddOperator(OperatorSpec spec, OperatorSettings settings) {
  if (Operator(spec.name) != nullptr) {
    return base::Status(base::StatusCode::kAlreadyExists,
                        "error: operator \"" + spec.name + "\" is already installed");
  }
  if (world_ == nullptr) {
    return base::Status(base::StatusCode::kBadRequest,
                        "error: operators need the cluster's nodes to run on (no world)");
  }
  auto host = std::make_unique<OperatorHost>(*this, std::move(spec), std::move(settings));
  if (base::Status s = host->Install(); !s.ok()) return s;
  operators_.push_back(std::move(host));
  return base::Status::OK();
}

Simulation::~Simulation() {
  operators_.clear();
  submitters_.reset();
  dashboards_.reset();
  ray_heads_.reset();
  world_.reset();
  gc_.reset();
  base::SetAssertContext(previous_assert_context_);
}

bool Simulation::AdvanceUntil(const std::function<bool()>& done, base::SimTime deadline,
                              uint64_t budget) {
  uint64_t ran = 0;
  while (!done()) {
    auto next = scheduler_.NextTime();
    if (!next.has_value() || *next > deadline) {
      if (clock_.Now() < deadline) clock_.AdvanceTo(deadline);
      return done();
    }
    // At the budget the clock stays at the last event: moving it to the deadline would leave
    // earlier events queued behind it, and time must never go backwards.
    if (ran >= budget) return false;
    scheduler_.Step();
    ++ran;
  }
  return true;
}

void Simulation::Steer(std::map<size_t, size_t> pins, base::Duration lag) {
  steering_.Pin(std::move(pins), lag);
  steering_.SetFingerprint([this] { return StateFingerprint(); });
  scheduler_.SetChooser([this](const std::vector<sim::PendingEvent>& due) -> size_t {
    if (!steering_.active()) return 0;
    std::vector<std::string> options;
    for (const sim::PendingEvent& e : due) options.push_back(e.label);
    return steering_.Decide(sim::ClassifyOrder(due), clock_.Now(), std::move(options));
  });
  apiserver_->Hooks().SetDeliveryLag([this](const std::string& watcher, const std::string& kind,
                                            apiserver::WatchEventType type,
                                            const api::ObjectPtr& object) -> base::Duration {
    if (!steering_.active()) return 0;
    // Only the operators' informers ("<operator Pod>/<kind>-informer") lag: the caches a
    // reconcile reads. The world's own controllers keep their latencies.
    bool operator_informer = false;
    for (const auto& host : operators_) {
      if (watcher.rfind(host->name() + "-", 0) == 0 && watcher.find("/") != std::string::npos) {
        operator_informer = true;
      }
    }
    if (!operator_informer) return 0;
    const std::string what = std::string(apiserver::WatchEventTypeName(type)) + " " + kind + "/" +
                             (object ? api::Namespace(*object) + "/" + api::Name(*object) : "") +
                             " to " + watcher;
    const size_t late = steering_.Decide(
        sim::ChoiceKind::kLag, clock_.Now(),
        {"on time: " + what, "late by " + base::FormatDuration(steering_.lag()) + ": " + what});
    return late == 1 ? steering_.lag() : 0;
  });
}

void Simulation::StopSteering() {
  steering_.Stop();
  scheduler_.SetChooser(nullptr);
  apiserver_->Hooks().SetDeliveryLag(nullptr);
}

uint64_t Simulation::StateFingerprint() {
  auto mix = [](uint64_t h, std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
    return (h ^ 0xff) * 1099511628211ULL;
  };
  const auto& events = trace_.events();
  for (; trace_hashed_ < events.size(); ++trace_hashed_) {
    const sim::TraceEvent& e = events[trace_hashed_];
    uint64_t h = mix(1469598103934665603ULL, e.type);
    h = mix(h, std::to_string(e.t));
    for (const auto& [key, value] : e.fields) {
      if (key == "cause") continue;
      h = mix(h, key);
      h = value.is_int || value.is_bool ? mix(h, value.Text()) : mix(h, value.s);
    }
    trace_multiset_ += h;  // a sum: the order of the records does not matter
  }
  uint64_t h = mix(1469598103934665603ULL, std::to_string(clock_.Now()));
  h = mix(h, std::to_string(apiserver_->resource_version()));
  h = mix(h, std::to_string(scheduler_.executed()));
  h = mix(h, std::to_string(scheduler_.pending()));
  return mix(h, std::to_string(trace_multiset_));
}

uint64_t Simulation::Step(uint64_t n) {
  uint64_t ran = 0;
  while (ran < n && scheduler_.Step()) ++ran;
  return ran;
}

}  // namespace lab
