#pragma once
// ObjectWatch: a built-in controller's view of one kind — list, then watch, into a local cache
// keyed "namespace/name", calling its handlers with (old, new) on every change. It is the small
// informer the kube-controller-manager controllers (one per kind, shared: shared_watches.h), the
// scheduler and the kubelet in world/ use.
// Mirrors: client-go tools/cache reflector.go (ListAndWatch, relist after a watch error) and
// shared_informer.go (the indexer plus OnAdd/OnUpdate/OnDelete, AddEventHandler).
// Simplified: no resync; the client's List has no resourceVersion, so the watch is opened first
// (from "now") and the list taken at the same instant, which sees exactly the state the watch
// starts after.
// Teaching: real controllers guard against acting on a stale cache with "expectations"
// (pkg/controller/controller_utils.go ControllerExpectations); ours write the object a request
// returned into the cache (Observe), which closes the same gap more simply.
// Single-threaded; deliveries are scheduler events; the cache is ordered (base::KeyedMap).

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/api/object.h"
#include "core/apiserver/api_server.h"
#include "core/base/containers/key_set.h"
#include "core/base/containers/keyed_map.h"
#include "core/base/time.h"
#include "core/client/client.h"
#include "core/sim/scheduler.h"

namespace world {

// ObjectWatchOptions configures one ObjectWatch.
struct ObjectWatchOptions {
  // watcher names the watch in watch.event records. Defaults to "" (REQUIRED in practice).
  std::string watcher;
  // traced says whether deliveries appear as watch.event records. Defaults to true.
  bool traced = true;
  // latency is the delay from commit to delivery. Defaults to 1ms.
  base::Duration latency = base::kMillisecond;
  // retry is the wait before relisting after a failed list/watch or a dropped watch.
  // Defaults to 1s (a reflector's backoff starts at 800ms).
  base::Duration retry = base::kSecond;
  // field_selector restricts the list and the watch ("spec.nodeName=node-1" for a kubelet).
  // Defaults to "" (every object of the kind).
  std::string field_selector;
};

// ObjectWatch keeps a cache of one kind. client and scheduler must outlive this object.
// Not copyable.
class ObjectWatch {
 public:
  using Options = ObjectWatchOptions;
  // Handler gets (old, new): old null = added, new null = deleted. Both set = updated.
  using Handler = std::function<void(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj)>;

  ObjectWatch(client::Client& client, sim::Scheduler& scheduler, std::string kind, Options options,
              Handler handler);
  ~ObjectWatch();
  ObjectWatch(const ObjectWatch&) = delete;
  ObjectWatch& operator=(const ObjectWatch&) = delete;

  // AddHandler registers another handler on this watch (client-go
  // sharedIndexInformer.AddEventHandler). A handler added after the first list is first given
  // every cached object as an add, in key order, as upstream replays the store to a late handler.
  void AddHandler(Handler handler);

  // Start opens the watch and lists; on failure it retries after options.retry. Starting a
  // started watch does nothing (factory.Start starts each informer once).
  void Start();
  // Stop ends the watch; the cache is kept.
  void Stop();

  // Get returns the cached object or null.
  api::ObjectPtr Get(const std::string& ns, const std::string& name) const;
  // GetByKey returns the cached object for "namespace/name" (or "name"), or null.
  api::ObjectPtr GetByKey(const std::string& key) const;
  // items is the cache, keyed by api::ObjectKey, in key order.
  const base::KeyedMap<api::ObjectPtr>& items() const { return items_; }
  // ControlledBy returns the cached objects whose controller ownerReference has uid, in key
  // order: an index, as client-go indexers are, so a controller syncing one owner does not walk
  // every object of the kind.
  std::vector<api::ObjectPtr> ControlledBy(const std::string& uid) const;
  // synced reports whether the first list has completed (cache.HasSynced).
  bool synced() const { return synced_; }

  // Observe writes an object a create/update/patch just returned into the cache (and calls every
  // handler), unless the cache already holds a newer resourceVersion of it. On a shared watch the
  // other handlers learn of the write with the writer: there is one cache, and it has changed.
  void Observe(const api::ObjectPtr& obj);
  // ObserveDelete records what a Delete returned: an object with a deletionTimestamp is still
  // there (finalizers, graceful deletion) and is Observed; any other was removed, so it leaves
  // the cache and older watch events for it are ignored (a tombstone).
  void ObserveDelete(const api::ObjectPtr& obj);

 private:
  void Open();
  void OnEvent(const apiserver::WatchEvent& event);
  void Apply(const api::ObjectPtr& obj, bool deleted);
  // Reindex moves key from old's controller uid to now's (either may be null).
  void Reindex(std::string_view key, const api::ObjectPtr& old, const api::ObjectPtr& now);
  // Notify calls every handler with (old, now), in registration order.
  void Notify(const api::ObjectPtr& old, const api::ObjectPtr& now) const;

  client::Client& client_;
  sim::Scheduler& scheduler_;
  std::string kind_;
  Options options_;
  // In registration order; a deque, so a handler that registers another mid-delivery leaves
  // the running ones where they are.
  std::deque<Handler> handlers_;
  std::shared_ptr<int> alive_;  // scheduled lambdas hold a weak_ptr to it
  bool started_ = false;
  bool synced_ = false;
  bool has_watch_ = false;
  apiserver::WatchId watch_ = 0;
  // Ordered for walks, hashed for lookups: with 11,000 Pods each ordered compare is a cache miss.
  base::KeyedMap<api::ObjectPtr> items_;
  std::unordered_map<std::string, base::KeySet> by_controller_;  // controller uid -> keys
  // tombstones_ maps a key this component deleted to the deletion's resourceVersion; watch
  // events older than that are stale echoes. Invariant: cleared by the DELETED event.
  std::map<std::string, api::ObjectPtr> tombstones_;
};

// NewerOrSame reports whether a's resourceVersion is at least b's.
// NOTE: RVs are opaque to clients; inside the simulation they are decimal counters, and only
// this cache compares them, to drop an older echo of its own write.
bool NewerOrSame(const api::Json& a, const api::Json& b);

}  // namespace world
