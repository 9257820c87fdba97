#include "core/check/checker.h"

#include <utility>

#include "core/lab/lab.h"
#include "core/lab/simulation.h"
#include "core/lab/view.h"

namespace check {

Checker::Checker(CheckerOptions options) : Checker(options, AllInvariants()) {}

Checker::Checker(CheckerOptions options, std::vector<std::unique_ptr<Invariant>> invariants)
    : options_(options), invariants_(std::move(invariants)) {}

Checker::~Checker() { Detach(); }

void Checker::Attach(lab::Lab& lab) { Attach(lab.sim()); }

void Checker::Attach(lab::Simulation& sim) {
  RLAB_ASSERT(sim_ == nullptr, "Checker::Attach: already attached");
  sim_ = &sim;
  apiserver::ApiServer& server = sim.apiserver();
  recorder_.Seed(server.PeekEverything(), server.resource_version(), server.OpenWatches());
  server.SetWatchObserver(&recorder_);
  if (options_.check_every_step) {
    sim.scheduler().SetStepObserver([this] {
      if (violations_.size() < options_.stop_after) CheckStep();
    });
  }
}

void Checker::Detach() {
  if (sim_ == nullptr) return;
  sim_->apiserver().SetWatchObserver(nullptr);
  if (options_.check_every_step) sim_->scheduler().SetStepObserver(nullptr);
  sim_ = nullptr;
}

std::vector<Violation> Checker::CheckStep() {
  ++steps_checked_;
  return Run(/*quiet=*/false);
}

std::vector<Violation> Checker::CheckQuiet() { return Run(/*quiet=*/true); }

State Checker::Gather(bool quiet) {
  State state;
  state.step = sim_->scheduler().executed();
  state.quiet = quiet;
  state.recorder = &recorder_;
  state.objects = sim_->apiserver().PeekEverything();
  for (const lab::RunningController& rc : lab::RunningControllers(*sim_)) {
    const std::string label = rc.op + "/" + rc.replica + "/" + rc.ctrl->name();
    state.queues.push_back(QueueState{label, rc.ctrl->queue().Snapshot()});
    state.workers.push_back(WorkerSet{label, rc.ctrl->Workers()});
  }
  if (!quiet) return state;
  for (const auto& host : sim_->operators()) {
    for (const auto& [replica, process] : host->Processes()) {
      for (const auto& [kind, informer] : process->manager().GetCache().Informers()) {
        for (const auto& [ns, member] : informer->members()) {
          if (!member->HasSynced() || member->IsStopped()) continue;
          CacheState cache;
          cache.informer = member->name();
          cache.kind = member->kind();
          cache.namespace_ = member->options().namespace_;
          cache.label_selector = member->options().label_selector;
          cache.objects = member->GetStore().List();
          state.caches.push_back(std::move(cache));
        }
      }
    }
  }
  return state;
}

std::vector<Violation> Checker::Run(bool quiet) {
  std::vector<Violation> found;
  if (sim_ == nullptr) return found;
  const State state = Gather(quiet);
  for (const auto& inv : invariants_) {
    if (inv->quiet_only() && !quiet) continue;
    inv->Check(state, &found);
  }
  for (const Violation& v : found) {
    if (violations_.size() >= options_.stop_after) break;
    violations_.push_back(v);
  }
  return found;
}

}  // namespace check
