#pragma once
// SharedIndexInformer: one List+Watch of a kind shared by many handlers. The reflector queues
// what it learns in a DeltaFIFO; each popped entry updates the indexer FIRST and is then handed
// to every registered handler, in registration order. Controllers read the indexer (through the
// cache) and react to the handler calls (through the workqueue).
// Mirrors: client-go tools/cache/shared_informer.go (sharedIndexInformer, sharedProcessor,
// processorListener, AddEventHandlerWithResyncPeriod, OnAdd/OnUpdate/OnDelete, HandleDeltas, the
// resync rules determineResyncPeriod / minimumResyncPeriod / shouldResync, HasSynced) and
// controller.go processLoop.
// Simplified:
// - The process loop pops as soon as the reflector has queued something, in the same scheduler
//   event, until the FIFO is empty (client-go's loop waits in Pop on its own goroutine). Each pop
//   is one trace record `informer.pop`. A relist's entries are popped together and applied as
//   one batch (controller.h ProcessReplacedBatch). Teaching: client-go 1.36 informers queue in a
//   RealFIFO (InOrderInformers, GA) with atomic relists and resyncs (AtomicFIFO); the DeltaFIFO
//   here is the classic per-key queue, and since the loop keeps up, every entry it pops holds
//   one delta and the handlers see the calls 1.36 makes.
// - Teaching: client-go gives each handler (processorListener) its own goroutine and unbounded
//   ring buffer, so a slow handler only delays itself. Here every handler runs in order inside
//   the same scheduler event that delivered the change.
// - A handler added after the informer has objects gets one OnAdd(obj, true) per stored object
//   before AddEventHandler returns (client-go queues them in the new listener's buffer).
// - Start() performs the first List+Watch before it returns (client-go's Run starts goroutines).
// - A stopped informer cannot be started again (as in client-go).
// Single-threaded; time and timers come from sim::Scheduler.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/base/status.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/informer/controller.h"
#include "core/informer/delta_fifo.h"
#include "core/informer/indexer.h"
#include "core/informer/reflector.h"
#include "core/informer/store.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"

namespace informer {

// kMinimumResyncPeriod is the shortest resync a handler may ask for (shared_informer.go).
inline constexpr base::Duration kMinimumResyncPeriod = base::kSecond;

// DetermineResyncPeriod clamps a handler's desired period to the informer's check period:
// 0 stays 0; a check period of 0 makes it 0 (the informer cannot resync); a shorter desire is
// raised to the check period.
// mirrors shared_informer.go determineResyncPeriod
base::Duration DetermineResyncPeriod(base::Duration desired, base::Duration check);

// InformerOptions configures one informer.
struct InformerOptions {
  std::string name;            // the watcher name in watch.event and informer.error records
  std::string namespace_;      // Defaults to "" = every namespace.
  std::string label_selector;  // Defaults to "" = every object.
  // resync_period is the default handler resync period and the initial resync check period.
  // Defaults to 0 = never resync.
  base::Duration resync_period = 0;
  // watch_latency is the delivery latency of the watches the reflector opens (`fault cache-lag`
  // on the API server changes open watches only; relists reopen with this value).
  base::Duration watch_latency = base::kMillisecond;  // Defaults to 1ms.
  // traced says whether the informer's watch deliveries (watch.event) and its own records
  // (informer.pop, informer.resync, informer.error) appear in the trace. Defaults to true;
  // kube-controller-manager's informers are untraced, as the trace follows the operators'.
  bool traced = true;
  // indexers are added to the indexer (the "namespace" index is always present).
  Indexers indexers;
  // on_error hears every list or watch failure (verb "list" or "watch"); the operator log uses
  // it. Defaults to none; SetWatchErrorHandler replaces it.
  std::function<void(const base::Status& status, const std::string& verb)> on_error;
};

namespace internal {
struct Listener;
}

// ResourceEventHandlerRegistration identifies one AddEventHandler call; RemoveEventHandler takes
// it back. A default-constructed or stale handle is harmless. Intentionally copyable (like the
// interface value client-go returns).
class ResourceEventHandlerRegistration {
 public:
  ResourceEventHandlerRegistration() = default;
  // HasSynced is true once this handler has been told about every object of the informer's
  // initial list (or of the replay it got when added late). False once removed.
  bool HasSynced() const;
  // valid is false for a default handle, a removed handler or a dead informer.
  bool valid() const;

 private:
  friend class SharedIndexInformer;
  explicit ResourceEventHandlerRegistration(std::weak_ptr<internal::Listener> listener)
      : listener_(std::move(listener)) {}
  std::weak_ptr<internal::Listener> listener_;
};

// ListenerInfo describes one registered handler (for inspection and UIs).
struct ListenerInfo {
  uint64_t id = 0;
  base::Duration requested_resync_period = 0;
  base::Duration resync_period = 0;  // after clamping to the check period
  base::SimTime next_resync = 0;
  bool syncing = false;  // due at the last resync check: sync updates go to it
};

class SharedIndexInformer {
 public:
  // client and scheduler (and its clock and trace) must outlive this object; so must prng in
  // the second form, which jitters the reflector's backoff (the first form has no jitter).
  // kind is resolved by client.Discover.
  SharedIndexInformer(client::Client& client, sim::Scheduler& scheduler, const std::string& kind,
                      InformerOptions options);
  SharedIndexInformer(client::Client& client, sim::Scheduler& scheduler, sim::Prng& prng,
                      const std::string& kind, InformerOptions options);
  ~SharedIndexInformer();
  SharedIndexInformer(const SharedIndexInformer&) = delete;
  SharedIndexInformer& operator=(const SharedIndexInformer&) = delete;

  // AddEventHandler registers handler with the informer's default resync period.
  ResourceEventHandlerRegistration AddEventHandler(ResourceEventHandlerFuncs handler);
  // AddEventHandlerWithResyncPeriod registers handler. A period below 1s becomes 1s. A period
  // below the resync check period lowers the check period (and re-clamps every handler) before
  // Start, and is raised to the check period after Start. 0 means never resync. If the informer
  // already holds objects, the handler gets OnAdd(obj, true) for each before this returns.
  // A stopped informer adds nothing and returns an invalid handle.
  // mirrors shared_informer.go AddEventHandlerWithResyncPeriod
  ResourceEventHandlerRegistration AddEventHandlerWithResyncPeriod(
      ResourceEventHandlerFuncs handler, base::Duration resync_period);
  // RemoveEventHandler unregisters; the handler gets no further calls, even later in the change
  // being delivered now. Unknown or stale handles are ignored.
  base::Status RemoveEventHandler(const ResourceEventHandlerRegistration& registration);
  // AddIndexers adds index functions; after Start it fails (`informer has already started`).
  base::Status AddIndexers(const Indexers& indexers);
  // SetWatchErrorHandler replaces options.on_error; after Start it fails like client-go's.
  base::Status SetWatchErrorHandler(
      std::function<void(const base::Status& status, const std::string& verb)> handler);

  // Start lists and watches (the first list happens inside this call; see the header note).
  // Idempotent; does nothing once stopped.
  void Start();
  // Stop ends the watch and every timer; handlers get no further calls.
  void Stop();

  // HasSynced is true once the initial list has been processed (and stays true).
  bool HasSynced() const { return synced_; }
  bool IsStarted() const { return started_; }
  bool IsStopped() const { return stopped_; }
  // GetStore and GetIndexer give read access to the local copy.
  const Store& GetStore() const { return indexer_; }
  const Indexer& GetIndexer() const { return indexer_; }
  // LastSyncResourceVersion is the newest resourceVersion the reflector has seen.
  const std::string& LastSyncResourceVersion() const;

  const std::string& kind() const { return kind_; }
  const std::string& name() const { return options_.name; }
  const InformerOptions& options() const { return options_; }
  // resync_check_period is how often the reflector asks whether a handler is due.
  base::Duration resync_check_period() const { return resync_check_period_; }
  // Listeners describes the registered handlers in registration order.
  std::vector<ListenerInfo> Listeners() const;
  // reflector is null before Start.
  const Reflector* reflector() const { return reflector_.get(); }

 private:
  // The informer's own handler: processDeltas calls it after each store change; it fans out.
  void OnAdd(const api::ObjectPtr& obj, bool is_in_initial_list);
  void OnUpdate(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj);
  void OnDelete(const api::ObjectPtr& obj, bool tombstone);
  // Distribute calls fn for each live listener (only syncing ones when sync is true).
  void Distribute(bool sync, const std::function<void(const ResourceEventHandlerFuncs&)>& fn);
  void HandleReplace(const std::vector<api::ObjectPtr>& items);
  void HandleWatchEvent(const apiserver::WatchEvent& event);
  // ProcessLoop pops and processes entries until the FIFO is empty or the informer stops.
  // mirrors controller.go processLoop + shared_informer.go HandleDeltas
  void ProcessLoop();
  // TracePop emits the informer.pop record of one popped entry.
  void TracePop(const PoppedDeltas& popped);
  bool ShouldResync();
  void Resync();

  client::Client& client_;
  sim::Scheduler& scheduler_;
  sim::Prng* prng_;  // null: no backoff jitter
  std::string kind_;
  InformerOptions options_;
  Indexer indexer_;
  // Invariant: empty between scheduler events (ProcessLoop drains it), unless stopped.
  DeltaFIFO fifo_;
  ResourceEventHandlerFuncs distributor_;  // calls OnAdd / OnUpdate / OnDelete above
  std::unique_ptr<Reflector> reflector_;
  std::vector<std::shared_ptr<internal::Listener>> listeners_;  // registration order
  uint64_t next_listener_id_ = 1;
  // Invariant: starts at options.resync_period; only lowered, and only before Start.
  base::Duration resync_check_period_ = 0;
  bool started_ = false;
  bool stopped_ = false;
  bool synced_ = false;  // Invariant: never goes back to false.
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace informer
