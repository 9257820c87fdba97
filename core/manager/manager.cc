#include "core/manager/manager.h"

#include <utility>

namespace manager {

// CachingClient is controller-runtime's default client: Get and List read the informer cache,
// everything else goes to the API server. It counts requests so a reconcile's cost can be
// modelled.
class Manager::CachingClient final : public client::Client {
 public:
  CachingClient(Manager& mgr) : mgr_(mgr) {}

  base::StatusOr<api::ObjectPtr> Get(const std::string& kind, const std::string& ns,
                                     const std::string& name) override {
    return mgr_.cache_->Get(kind, ns, name);
  }
  base::StatusOr<std::vector<api::ObjectPtr>> List(const std::string& kind,
                                                   const std::string& ns,
                                                   const client::ListOptions& opts) override {
    return mgr_.cache_->List(kind, ns, opts);
  }
  base::StatusOr<api::ObjectPtr> Create(api::Json obj) override {
    ++calls_;
    return mgr_.api_client_.Create(std::move(obj));
  }
  base::StatusOr<api::ObjectPtr> Update(api::Json obj) override {
    ++calls_;
    return mgr_.api_client_.Update(std::move(obj));
  }
  base::StatusOr<api::ObjectPtr> Patch(const std::string& kind, const std::string& ns,
                                       const std::string& name, client::PatchType type,
                                       const api::Json& patch) override {
    ++calls_;
    return mgr_.api_client_.Patch(kind, ns, name, type, patch);
  }
  base::StatusOr<api::ObjectPtr> Delete(const std::string& kind, const std::string& ns,
                                        const std::string& name,
                                        const client::DeleteOptions& opts) override {
    ++calls_;
    return mgr_.api_client_.Delete(kind, ns, name, opts);
  }
  base::StatusOr<api::ObjectPtr> UpdateStatus(api::Json obj) override {
    ++calls_;
    return mgr_.api_client_.UpdateStatus(std::move(obj));
  }
  base::StatusOr<api::ObjectPtr> PatchStatus(const std::string& kind, const std::string& ns,
                                             const std::string& name, client::PatchType type,
                                             api::Json patch) override {
    ++calls_;
    return mgr_.api_client_.PatchStatus(kind, ns, name, type, std::move(patch));
  }
  base::StatusOr<api::ObjectPtr> Bind(const api::Json& binding) override {
    ++calls_;
    return mgr_.api_client_.Bind(binding);
  }
  base::StatusOr<api::ObjectPtr> Finalize(api::Json ns) override {
    ++calls_;
    return mgr_.api_client_.Finalize(std::move(ns));
  }
  base::StatusOr<apiserver::WatchId> Watch(
      const std::string& kind, const apiserver::WatchOptions& opts,
      std::function<void(const apiserver::WatchEvent&)> callback) override {
    return mgr_.api_client_.Watch(kind, opts, std::move(callback));
  }
  void StopWatch(apiserver::WatchId id) override { mgr_.api_client_.StopWatch(id); }
  const std::string& user() const override { return mgr_.api_client_.user(); }
  const api::KindInfo* Discover(const std::string& kind) const override {
    return mgr_.api_client_.Discover(kind);
  }

  int TakeCalls() {
    const int calls = calls_;
    calls_ = 0;
    return calls;
  }

 private:
  Manager& mgr_;
  int calls_ = 0;
};

std::string LogLine::Format() const {
  if (level.empty()) return message;
  std::string out = base::FormatRfc3339(time) + "\t" + level + "\t" + message;
  if (!kv.empty()) {
    out += "\t{";
    for (size_t i = 0; i < kv.size(); ++i) {
      out += (i ? ", \"" : "\"") + kv[i].first + "\": \"" + kv[i].second + "\"";
    }
    out += "}";
  }
  return out;
}

Manager::Manager(client::Client& api_client, sim::Scheduler& scheduler, sim::Prng prng,
                 Options options, std::function<base::Duration()> take_injected_latency)
    : api_client_(api_client),
      scheduler_(scheduler),
      prng_(prng),
      options_(std::move(options)),
      take_injected_latency_(std::move(take_injected_latency)) {
  cache::Options cache_options = options_.cache;
  if (cache_options.name.empty()) cache_options.name = options_.replica;
  cache_options.on_error = [this](const std::string& kind, const base::Status& status,
                                  const std::string& verb) {
    // mirrors client-go reflector.go: list and watch failures are logged, then retried.
    Log("ERROR", verb == "watch" ? "Failed to watch" : "Failed to list",
        {{"kind", kind}, {"error", status.message()}});
  };
  cache_ = std::make_unique<cache::Cache>(api_client_, scheduler_, prng_, cache_options);
  client_ = std::make_unique<CachingClient>(*this);
}

Manager::~Manager() {
  // The process object goes away (its Pod is gone, or the simulation ends): stop whatever still
  // runs, quietly — the stop procedure's log belongs to a Stop the process saw.
  if (stopped_ || !started_) return;
  stopped_ = true;
  for (size_t i = 0; i < runnables_.size(); ++i) {
    if (runnable_started_[i]) runnables_[i]->Stop();
  }
  cache_->Stop();  // the elector's scheduled renewals die with it
}

client::Client& Manager::GetClient() { return *client_; }

bool Manager::leading() const {
  return !options_.leader_election || (elector_ != nullptr && elector_->IsLeader());
}

Runnable& Manager::Add(std::unique_ptr<Runnable> runnable) {
  runnables_.push_back(std::move(runnable));
  runnable_started_.push_back(false);
  Runnable& r = *runnables_.back();
  const size_t index = runnables_.size() - 1;
  if (started_ && (!r.NeedLeaderElection() || leading())) {
    runnable_started_[index] = true;
    base::Status s = r.Start();
    if (!s.ok()) Log("ERROR", "failed to start runnable", {{"error", s.message()}});
  }
  return r;
}

base::Status Manager::Start() {
  if (started_) return base::Status(base::StatusCode::kInvalid, "manager already started");
  started_ = true;
  Log("INFO", "Starting manager", {{"replica", options_.replica}});
  cache_->Start();
  for (size_t i = 0; i < runnables_.size(); ++i) {
    if (!runnables_[i]->NeedLeaderElection()) {
      runnable_started_[i] = true;
      base::Status s = runnables_[i]->Start();
      if (!s.ok()) return s;
    }
  }
  if (!options_.leader_election) {
    StartLeaderRunnables();
    return base::Status::OK();
  }
  base::Status valid = LeaderElector::Validate(options_.leader_election_options);
  if (!valid.ok()) return valid;
  LeaderElectionOptions le = options_.leader_election_options;
  if (le.identity.empty()) le.identity = options_.replica;
  Log("INFO", "attempting to acquire leader lease " + le.lease_namespace + "/" + le.lease_name +
                  "...");
  elector_ = std::make_unique<LeaderElector>(
      api_client_, scheduler_, le,
      [this, le] {
        Log("INFO", "successfully acquired lease " + le.lease_namespace + "/" + le.lease_name);
        StartLeaderRunnables();
      },
      [this] {
        // mirrors manager internal.go OnStoppedLeading: losing the lease is fatal for the
        // process — the error makes Start return, and main.go exits.
        Fail(base::Status(base::StatusCode::kInternal, "leader election lost"));
      });
  elector_->Run();
  return base::Status::OK();
}

void Manager::StartLeaderRunnables() {
  for (size_t i = 0; i < runnables_.size(); ++i) {
    if (runnable_started_[i]) continue;
    runnable_started_[i] = true;
    base::Status s = runnables_[i]->Start();
    if (!s.ok()) Log("ERROR", "failed to start runnable", {{"error", s.message()}});
  }
}

void Manager::Stop() {
  if (stopped_ || !started_) return;
  stopped_ = true;
  // mirrors internal.go engageStopProcedure: the steps it logs, in its order; leader election is
  // cancelled last ("only after we waited"), and its OnStoppedLeading error arrives drained.
  Log("INFO", "Stopping and waiting for non leader election runnables");
  for (size_t i = 0; i < runnables_.size(); ++i) {
    if (runnable_started_[i] && !runnables_[i]->NeedLeaderElection()) runnables_[i]->Stop();
  }
  Log("INFO", "Stopping and waiting for leader election runnables");
  for (size_t i = 0; i < runnables_.size(); ++i) {
    if (runnable_started_[i] && runnables_[i]->NeedLeaderElection()) runnables_[i]->Stop();
  }
  Log("INFO", "Stopping and waiting for caches");
  cache_->Stop();
  Log("INFO", "Stopping and waiting for webhooks");
  Log("INFO", "Stopping and waiting for HTTP servers");
  Log("INFO", "Wait completed, proceeding to shutdown the manager");
  if (elector_) {
    elector_->Stop();
    Log("ERROR", "error received after stop sequence was engaged",
        {{"error", "leader election lost"}});
  }
}

void Manager::Fail(const base::Status& error) {
  if (!started_) return;
  if (stopped_) {
    Log("ERROR", "error received after stop sequence was engaged", {{"error", error.message()}});
    return;
  }
  Stop();
  // KubeRay main.go: exitOnError(mgr.Start(ctx), "problem running manager") → os.Exit(1).
  Log("ERROR", "problem running manager", {{"error", error.message()}});
  Exit(ExitStatus{1, "error", error.message()});
}

void Manager::Crash(const std::string& panic_value) {
  if (exit_status_.has_value()) return;
  // The Go runtime prints the panic on stderr (Go 1.25+: a recovered and re-raised panic says
  // so) and exits with 2; deferred functions of other goroutines never run.
  logs_.push_back(LogLine{scheduler_.clock().Now(), "",
                          "panic: " + panic_value + " [recovered, repanicked]", {}});
  sim::Trace& trace = scheduler_.trace();
  const sim::TraceArg fields[] = {{"operator", options_.name},
                                  {"level", ""},
                                  {"message", logs_.back().message},
                                  {"detail", ""},
                                  {"cause", trace.current_cause()},
                                  {"replica", options_.replica}};
  trace.Emit("operator.log", fields, options_.replica.empty() ? 5 : 6);
  // Nothing of the process runs again, and the lease stays with this identity until it expires.
  Halt();
  Exit(ExitStatus{2, "panic", panic_value});
}

void Manager::Kill() {
  if (stopped_ || !started_) return;
  Halt();
}

void Manager::Halt() {
  stopped_ = true;
  for (size_t i = 0; i < runnables_.size(); ++i) {
    if (runnable_started_[i]) runnables_[i]->Stop();
  }
  if (elector_) elector_->Stop();
  cache_->Stop();
}

void Manager::Exit(ExitStatus status) {
  if (exit_status_.has_value()) return;
  exit_status_ = status;
  sim::Trace& trace = scheduler_.trace();
  trace.Emit("operator.exit", {{"operator", options_.name},
                               {"replica", options_.replica},
                               {"exitCode", static_cast<int64_t>(status.code)},
                               {"reason", status.reason},
                               {"message", status.message},
                               {"cause", trace.current_cause()}});
  if (on_exit_) on_exit_(status);
}

void Manager::Log(const std::string& level, const std::string& message,
                  const std::vector<std::pair<std::string, std::string>>& kv) {
  logs_.push_back(LogLine{scheduler_.clock().Now(), level, message, kv});
  std::string detail;
  for (const auto& [k, v] : kv) {
    if (!detail.empty()) detail += ' ';
    detail.append(k).append(1, '=').append(v);
  }
  // The fields are viewed, not copied, on their way into the record (sim::TraceArg).
  sim::Trace& trace = scheduler_.trace();
  const sim::TraceArg fields[] = {{"operator", options_.name}, {"level", level},
                                  {"message", message},        {"detail", detail},
                                  {"cause", trace.current_cause()}, {"replica", options_.replica}};
  trace.Emit("operator.log", fields, options_.replica.empty() ? 5 : 6);
}

base::Status Manager::ClaimControllerName(const std::string& name) {
  if (!controller_names_.insert(name).second) {
    return base::Status(base::StatusCode::kInvalid,
                        "controller with name " + name +
                            " already exists. Controller names must be unique to avoid multiple "
                            "controllers reporting the same metric. This validation can be "
                            "disabled via the SkipNameValidation option");
  }
  return base::Status::OK();
}

base::Duration Manager::TakeCost() {
  base::Duration cost = client_->TakeCalls() * options_.api_call_cost + extra_cost_;
  extra_cost_ = 0;
  if (take_injected_latency_) cost += take_injected_latency_();
  return cost;
}

}  // namespace manager
