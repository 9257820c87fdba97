#pragma once
// Reflector: keeps a local store in step with the API server by List, then Watch. When the list
// or the watch fails (a 403 from RBAC, an injected 500, a watch ending with an ERROR event after
// `fault watch-drop`), it reports the failure, waits a backoff (800ms doubling to 30s, jittered)
// and lists again; the relist replaces the store, which reveals what was deleted meanwhile.
// Mirrors: client-go tools/cache/reflector.go (Run = wait.BackoffUntil(ListAndWatch),
// ListAndWatch, the resync timer startResync, LastSyncResourceVersion, watchErrorHandler).
// Simplified:
// - One step: List and Watch are issued back to back in the same scheduler event, and the watch
//   starts "from now". Teaching: client-go watches from the list's resourceVersion; here
//   client::Reader::List returns no list resourceVersion, and since nothing can commit between
//   the two calls of one event, "from now" is the same point in the history.
// - The watch is opened before the listed items are handed over, so a handler that writes while
//   it processes the list cannot slip a change between list and watch.
// - No watch-list streaming, no bookmarks, no pagination, no re-watch without relist: every
//   watch end relists. Teaching: client-go re-watches from its last resourceVersion when a watch
//   merely times out; only errors such as 410 Gone force a relist.
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
#include "core/client/client.h"  // also brings apiserver::WatchEvent / WatchOptions
#include "core/informer/backoff.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"

namespace informer {

// ReflectorOptions selects what is listed and watched.
struct ReflectorOptions {
  std::string name;            // the watcher name printed in watch.event and informer.error
  std::string namespace_;      // Defaults to "" = every namespace.
  std::string label_selector;  // Defaults to "" = every object.
  // resync_period is how often should_resync is asked (the informer's resyncCheckPeriod).
  // Defaults to 0 = never.
  base::Duration resync_period = 0;
  // watch_latency is the delivery latency of the watches this reflector opens.
  base::Duration watch_latency = base::kMillisecond;  // Defaults to 1ms.
  // traced says whether its watches' deliveries and its informer.error records are traced.
  bool traced = true;  // Defaults to true.
};

// ReflectorCallbacks is where the reflector sends what it learns (client-go's reflector writes
// into a Store, the FIFO; these are that store's methods). Every member may be empty.
struct ReflectorCallbacks {
  // replace receives every listed object (ReplacedAll).
  std::function<void(const std::vector<api::ObjectPtr>& items)> replace;
  // watch_event receives ADDED, MODIFIED and DELETED events (never ERROR).
  std::function<void(const apiserver::WatchEvent& event)> watch_event;
  // should_resync is asked every resync_period; resync runs when it answers true.
  std::function<bool()> should_resync;
  std::function<void()> resync;
  // on_error hears every failure; verb is "list" or "watch".
  std::function<void(const base::Status& status, const std::string& verb)> on_error;
};

// Reflector runs List+Watch for one kind. Not copyable.
class Reflector {
 public:
  // client and scheduler (and its trace) must outlive this object; prng (may be null: no
  // backoff jitter) too. kind is resolved by client.Discover.
  Reflector(client::Client& client, sim::Scheduler& scheduler, const std::string& kind,
            ReflectorOptions options, ReflectorCallbacks callbacks, sim::Prng* prng = nullptr);
  ~Reflector();
  Reflector(const Reflector&) = delete;
  Reflector& operator=(const Reflector&) = delete;

  // Run lists and watches now (inside this call); on failure it schedules the retry.
  // Teaching: client-go starts a goroutine; here the first list happens before Run returns.
  void Run();
  // Stop ends the watch and cancels the pending retry and resync timers. Callbacks stop.
  void Stop();
  bool running() const { return running_; }

  // LastSyncResourceVersion is the newest resourceVersion seen: the largest among the listed
  // items after a list, then each watch event's object. "" before the first successful list.
  const std::string& LastSyncResourceVersion() const { return last_sync_rv_; }
  // watching says whether a watch is open now.
  bool watching() const { return watch_id_.has_value(); }
  // next_attempt_at is when the pending retry lists again (nullopt when none is pending).
  std::optional<base::SimTime> next_attempt_at() const { return retry_at_; }
  // lists counts successful lists; failures counts reported failures.
  int64_t lists() const { return lists_; }
  int64_t failures() const { return failures_; }
  const std::string& kind() const { return kind_; }
  const ReflectorOptions& options() const { return options_; }

 private:
  // ListAndWatch is one attempt: list, open the watch, hand the list over, arm the resync timer.
  void ListAndWatch();
  void OnWatchEvent(uint64_t session, const apiserver::WatchEvent& event);
  // Fail reports a failure (trace record informer.error + on_error), ends the session and
  // schedules the next ListAndWatch after a backoff.
  void Fail(const base::Status& status, const std::string& verb, int64_t cause);
  void EndSession();
  void ArmResync(uint64_t session, int64_t cause);
  void NoteResourceVersion(const std::string& rv);

  client::Client& client_;
  sim::Scheduler& scheduler_;
  std::string kind_;  // canonical Kind ("Pod")
  ReflectorOptions options_;
  ReflectorCallbacks callbacks_;
  ExponentialBackoffManager backoff_;
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);  // guards scheduled callbacks
  bool running_ = false;
  uint64_t session_ = 0;  // Invariant: bumped whenever a watch or timer must stop counting.
  std::optional<apiserver::WatchId> watch_id_;
  std::optional<sim::EventId> retry_event_;
  std::optional<base::SimTime> retry_at_;
  std::optional<sim::EventId> resync_event_;
  std::string last_sync_rv_;
  int64_t lists_ = 0;
  int64_t failures_ = 0;
};

}  // namespace informer
