#include "core/informer/shared_informer.h"

#include <cctype>
#include <optional>
#include <string_view>
#include <utility>

#include "core/api/fields.h"
#include "core/api/kind.h"
#include "core/base/assert.h"
#include "core/sim/cause_scope.h"
#include "core/sim/trace.h"

namespace informer {
namespace internal {

// Listener is one registered handler (client-go's processorListener without its goroutine).
struct Listener {
  uint64_t id = 0;
  ResourceEventHandlerFuncs handler;
  base::Duration requested_resync_period = 0;
  base::Duration resync_period = 0;
  base::SimTime next_resync = 0;
  bool syncing = false;  // due at the last resync check
  bool removed = false;
  bool synced = false;  // has been told about the initial list (or its late replay)
};

}  // namespace internal

namespace {

Indexers WithNamespaceIndex(Indexers indexers) {
  indexers.emplace(kNamespaceIndex, MetaNamespaceIndexFunc);
  return indexers;
}

std::string DefaultName(const api::KindInfo* info, const std::string& kind) {
  std::string singular = kind;
  for (char& c : singular) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return (info != nullptr ? info->singular : singular) + "-informer";
}

// FifoOptionsFor is how shared_informer.go's Run builds the informer's DeltaFIFO: the indexer
// is its known store, and a relist queues Replaced deltas.
DeltaFIFOOptions FifoOptionsFor(const Indexer& indexer) {
  DeltaFIFOOptions options;
  options.known_objects = &indexer;
  options.emit_delta_type_replaced = true;
  return options;
}

// kTombstoneDeltaName is how a relist's inferred deletion reads in an informer.pop record.
constexpr std::string_view kTombstoneDeltaName = "Deleted(DeletedFinalStateUnknown)";

}  // namespace

base::Duration DetermineResyncPeriod(base::Duration desired, base::Duration check) {
  if (desired == 0) return 0;
  if (check == 0) return 0;  // the informer does not resync at all
  if (desired < check) return check;
  return desired;
}

bool ResourceEventHandlerRegistration::HasSynced() const {
  auto listener = listener_.lock();
  return listener != nullptr && !listener->removed && listener->synced;
}

bool ResourceEventHandlerRegistration::valid() const {
  auto listener = listener_.lock();
  return listener != nullptr && !listener->removed;
}

SharedIndexInformer::SharedIndexInformer(client::Client& client, sim::Scheduler& scheduler,
                                         const std::string& kind, InformerOptions options)
    : client_(client),
      scheduler_(scheduler),
      prng_(nullptr),
      options_(std::move(options)),
      indexer_(WithNamespaceIndex(options_.indexers)),
      fifo_(FifoOptionsFor(indexer_)) {
  // A kind the server does not serve keeps its name; the reflector's list reports the error.
  const api::KindInfo* info = client_.Discover(kind);
  kind_ = info != nullptr ? info->kind : kind;
  if (options_.name.empty()) options_.name = DefaultName(info, kind_);
  resync_check_period_ = options_.resync_period;
  distributor_.on_add = [this](const api::ObjectPtr& obj, bool initial) { OnAdd(obj, initial); };
  distributor_.on_update = [this](const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
    OnUpdate(old_obj, new_obj);
  };
  distributor_.on_delete = [this](const api::ObjectPtr& obj, bool tombstone) {
    OnDelete(obj, tombstone);
  };
}

SharedIndexInformer::SharedIndexInformer(client::Client& client, sim::Scheduler& scheduler,
                                         sim::Prng& prng, const std::string& kind,
                                         InformerOptions options)
    : SharedIndexInformer(client, scheduler, kind, std::move(options)) {
  prng_ = &prng;
}

SharedIndexInformer::~SharedIndexInformer() {
  if (reflector_ != nullptr) reflector_->Stop();
}

ResourceEventHandlerRegistration SharedIndexInformer::AddEventHandler(
    ResourceEventHandlerFuncs handler) {
  return AddEventHandlerWithResyncPeriod(std::move(handler), options_.resync_period);
}

// mirrors shared_informer.go AddEventHandlerWithResyncPeriod
ResourceEventHandlerRegistration SharedIndexInformer::AddEventHandlerWithResyncPeriod(
    ResourceEventHandlerFuncs handler, base::Duration resync_period) {
  if (stopped_) return ResourceEventHandlerRegistration();
  if (resync_period > 0) {
    if (resync_period < kMinimumResyncPeriod) resync_period = kMinimumResyncPeriod;
    if (resync_period < resync_check_period_) {
      if (started_) {
        resync_period = resync_check_period_;
      } else {
        // Lower the check period and re-clamp every listener (resyncCheckPeriodChanged).
        resync_check_period_ = resync_period;
        for (auto& listener : listeners_) {
          listener->resync_period =
              DetermineResyncPeriod(listener->requested_resync_period, resync_check_period_);
        }
      }
    }
  }
  auto listener = std::make_shared<internal::Listener>();
  listener->id = next_listener_id_++;
  listener->handler = std::move(handler);
  listener->requested_resync_period = resync_period;
  listener->resync_period = DetermineResyncPeriod(resync_period, resync_check_period_);
  listener->next_resync = scheduler_.clock().Now() + listener->resync_period;
  listeners_.push_back(listener);
  ResourceEventHandlerRegistration registration(listener);
  if (!started_) return registration;

  // A late handler is told about everything already stored, as part of the initial list.
  std::weak_ptr<int> alive = alive_;
  for (const api::ObjectPtr& obj : indexer_.List()) {
    if (alive.expired() || stopped_ || listener->removed) return registration;
    listener->handler.OnAdd(obj, /*is_in_initial_list=*/true);
  }
  if (!alive.expired()) listener->synced = synced_;
  return registration;
}

base::Status SharedIndexInformer::RemoveEventHandler(
    const ResourceEventHandlerRegistration& registration) {
  auto listener = registration.listener_.lock();
  if (listener == nullptr) return base::Status::OK();
  for (auto it = listeners_.begin(); it != listeners_.end(); ++it) {
    if (*it == listener) {
      listener->removed = true;
      listeners_.erase(it);
      break;
    }
  }
  return base::Status::OK();
}

base::Status SharedIndexInformer::AddIndexers(const Indexers& indexers) {
  if (started_) {
    return base::Status(base::StatusCode::kConflict, "informer has already started");
  }
  return indexer_.AddIndexers(indexers);
}

base::Status SharedIndexInformer::SetWatchErrorHandler(
    std::function<void(const base::Status& status, const std::string& verb)> handler) {
  if (started_) {
    return base::Status(base::StatusCode::kConflict, "informer has already started");
  }
  options_.on_error = std::move(handler);
  return base::Status::OK();
}

void SharedIndexInformer::Start() {
  if (started_ || stopped_) return;
  started_ = true;
  ReflectorOptions reflector_options;
  reflector_options.name = options_.name;
  reflector_options.namespace_ = options_.namespace_;
  reflector_options.label_selector = options_.label_selector;
  reflector_options.resync_period = resync_check_period_;
  reflector_options.watch_latency = options_.watch_latency;
  reflector_options.traced = options_.traced;
  ReflectorCallbacks callbacks;
  callbacks.replace = [this](const std::vector<api::ObjectPtr>& items) { HandleReplace(items); };
  callbacks.watch_event = [this](const apiserver::WatchEvent& event) { HandleWatchEvent(event); };
  callbacks.should_resync = [this] { return ShouldResync(); };
  callbacks.resync = [this] { Resync(); };
  callbacks.on_error = [this](const base::Status& status, const std::string& verb) {
    if (options_.on_error) options_.on_error(status, verb);
  };
  reflector_ = std::make_unique<Reflector>(client_, scheduler_, kind_, reflector_options,
                                           std::move(callbacks), prng_);
  reflector_->Run();
}

void SharedIndexInformer::Stop() {
  stopped_ = true;
  if (reflector_ != nullptr) reflector_->Stop();
}

const std::string& SharedIndexInformer::LastSyncResourceVersion() const {
  static const std::string kEmpty;
  return reflector_ != nullptr ? reflector_->LastSyncResourceVersion() : kEmpty;
}

std::vector<ListenerInfo> SharedIndexInformer::Listeners() const {
  std::vector<ListenerInfo> out;
  for (const auto& listener : listeners_) {
    ListenerInfo info;
    info.id = listener->id;
    info.requested_resync_period = listener->requested_resync_period;
    info.resync_period = listener->resync_period;
    info.next_resync = listener->next_resync;
    info.syncing = listener->syncing;
    out.push_back(info);
  }
  return out;
}

void SharedIndexInformer::HandleReplace(const std::vector<api::ObjectPtr>& items) {
  RLAB_ASSERT(fifo_.empty() || stopped_, "the process loop drains the FIFO before a relist");
  std::weak_ptr<int> alive = alive_;
  fifo_.Replace(items);
  std::vector<PoppedDeltas> batch;
  batch.reserve(fifo_.size());
  while (std::optional<PoppedDeltas> popped = fifo_.Pop()) {
    if (options_.traced) TracePop(*popped);
    batch.push_back(std::move(*popped));
  }
  ProcessReplacedBatch(distributor_, indexer_, batch);
  if (alive.expired() || synced_) return;
  synced_ = true;
  for (auto& listener : listeners_) listener->synced = true;
}

void SharedIndexInformer::HandleWatchEvent(const apiserver::WatchEvent& event) {
  switch (event.type) {
    case apiserver::WatchEventType::kAdded:
      fifo_.Add(event.object);
      break;
    case apiserver::WatchEventType::kModified:
      fifo_.Update(event.object);
      break;
    case apiserver::WatchEventType::kDeleted:
      fifo_.Delete(event.object);
      break;
    case apiserver::WatchEventType::kError:
      return;  // the reflector handles it
  }
  ProcessLoop();
}

void SharedIndexInformer::ProcessLoop() {
  std::weak_ptr<int> alive = alive_;
  while (!alive.expired() && !stopped_) {
    std::optional<PoppedDeltas> popped = fifo_.Pop();
    if (!popped.has_value()) return;
    if (options_.traced) TracePop(*popped);
    ProcessDeltas(distributor_, indexer_, popped->deltas, popped->is_in_initial_list);
  }
}

void SharedIndexInformer::TracePop(const PoppedDeltas& popped) {
  sim::Trace& trace = scheduler_.trace();
  std::string joined;  // only an entry of several deltas needs one
  std::string_view deltas;
  for (const Delta& delta : popped.deltas) {
    const std::string_view name =
        delta.tombstone.has_value() ? kTombstoneDeltaName : DeltaTypeName(delta.type);
    if (popped.deltas.size() == 1) {
      deltas = name;
      break;
    }
    if (!joined.empty()) joined += ',';
    joined += name;
    deltas = joined;
  }
  trace.Emit("informer.pop", {{"informer", options_.name},
                              {"kind", kind_},
                              {"key", popped.key},
                              {"deltas", deltas},
                              {"cause", trace.current_cause()}});
}

// mirrors shared_informer.go sharedProcessor.shouldResync: mark the listeners that are due and
// schedule their next resync; sync updates then go to those listeners only.
bool SharedIndexInformer::ShouldResync() {
  const base::SimTime now = scheduler_.clock().Now();
  bool needed = false;
  for (auto& listener : listeners_) {
    listener->syncing = listener->resync_period != 0 && now >= listener->next_resync;
    if (listener->syncing) {
      needed = true;
      listener->next_resync = now + listener->resync_period;
    }
  }
  return needed;
}

void SharedIndexInformer::Resync() {
  sim::Trace& trace = scheduler_.trace();
  const int64_t seq =
      !options_.traced
          ? trace.current_cause()
          : trace.Emit("informer.resync", {{"informer", options_.name},
                                           {"kind", kind_},
                                           {"objects", static_cast<int64_t>(indexer_.size())},
                                           {"cause", trace.current_cause()}});
  const sim::CauseScope resync_cause(trace, seq, sim::CauseScope::kIfKnown);
  fifo_.Resync();
  ProcessLoop();
}

void SharedIndexInformer::OnAdd(const api::ObjectPtr& obj, bool is_in_initial_list) {
  Distribute(false, [&](const ResourceEventHandlerFuncs& h) { h.OnAdd(obj, is_in_initial_list); });
}

// mirrors shared_informer.go sharedIndexInformer.OnUpdate: an update that keeps the
// resourceVersion is a resync and goes only to the listeners whose resync is due.
void SharedIndexInformer::OnUpdate(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj) {
  const bool sync = old_obj != nullptr && new_obj != nullptr &&
                    api::ObjectMeta(*old_obj).ResourceVersion() ==
                        api::ObjectMeta(*new_obj).ResourceVersion();
  Distribute(sync, [&](const ResourceEventHandlerFuncs& h) { h.OnUpdate(old_obj, new_obj); });
}

void SharedIndexInformer::OnDelete(const api::ObjectPtr& obj, bool tombstone) {
  Distribute(false, [&](const ResourceEventHandlerFuncs& h) { h.OnDelete(obj, tombstone); });
}

// mirrors shared_informer.go sharedProcessor.distribute
void SharedIndexInformer::Distribute(
    bool sync, const std::function<void(const ResourceEventHandlerFuncs&)>& fn) {
  const std::vector<std::shared_ptr<internal::Listener>> snapshot = listeners_;
  std::weak_ptr<int> alive = alive_;
  for (const auto& listener : snapshot) {
    if (alive.expired() || stopped_) return;
    if (listener->removed) continue;
    if (sync && !listener->syncing) continue;
    fn(listener->handler);
  }
}

}  // namespace informer
