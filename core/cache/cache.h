#pragma once
// Cache: the informer-backed client::Reader a controller reads from. Get and List answer from
// the informers' local stores, never from the API server, so a read right after your own write
// can return the old object until the watch delivers the change (reads are eventually
// consistent). One informer per kind is created on first use and started at once if the cache
// already runs.
// Mirrors: controller-runtime pkg/cache/cache.go (Options, ByObject, New, defaulting,
// calculateResyncPeriod), informer_cache.go (Get/List/GetInformer, ErrCacheNotStarted),
// multi_namespace_cache.go (one informer per namespace, "unknown namespace for the cache"),
// internal/cache_reader.go (reads from the indexer, the "namespace" index) and
// internal/informers.go (one informer per kind, started when the cache is started).
// Simplified:
// - Objects are immutable and shared (api::ObjectPtr), so Get and List return the stored object
//   itself: no deep copy is needed (controller-runtime deep-copies unless UnsafeDisableDeepCopy).
// - Teaching: a Get or List for a kind whose informer has not synced yet does not block (there
//   are no goroutines); it returns kTimeout `failed waiting for <Kind> Informer to sync`, which is
//   what controller-runtime returns once the caller's context gives up.
// - Field selectors are evaluated on the cached objects: a field indexed with IndexField must be
//   an exact match (`=`); otherwise the kind's built-in field set (metadata.name, ...) is used.
//   Teaching: controller-runtime answers every field selector from an index and needs IndexField
//   even for metadata.name.
// - A "" entry among the namespaces means every namespace (AllNamespaces) and cannot be mixed
//   with others; no per-namespace label selectors or transforms.
// Single-threaded; time comes from sim::Scheduler, jitter from the given sim::Prng.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/api/selector.h"
#include "core/base/status.h"
#include "core/base/time.h"
#include "core/cache/informer.h"
#include "core/client/client.h"
#include "core/informer/shared_informer.h"
#include "core/sim/prng.h"
#include "core/sim/scheduler.h"

namespace cache {

// ByObject overrides the options for one kind.
struct ByObject {
  // namespaces: nullopt = Options::default_namespaces; an empty list = every namespace.
  std::optional<std::vector<std::string>> namespaces;
  // label_selector: "" = Options::default_label_selector. Objects that do not match are not in
  // the cache at all (a Get answers NotFound).
  std::string label_selector;
};

// kDefaultSyncPeriod is controller-runtime's default SyncPeriod (10 hours).
inline constexpr base::Duration kDefaultSyncPeriod = 10 * base::kHour;

struct Options {
  // name prefixes the informers' watcher names: "<name>/<singular>-informer" (plus "@<ns>" for a
  // member of a multi-namespace set). Defaults to "" (no prefix).
  std::string name;
  // default_namespaces restricts every namespaced kind to these namespaces. Defaults to empty =
  // every namespace.
  std::vector<std::string> default_namespaces;
  // default_label_selector applies to every kind without its own. Defaults to "" = everything.
  std::string default_label_selector;
  // by_object is keyed by anything Client::Discover accepts ("RayCluster", "pods").
  std::map<std::string /*Kind*/, ByObject> by_object;
  // sync_period is each informer's resync period before jitter: each informer gets
  // sync_period * [0.9, 1.1) (integer math). 0 disables resync. Defaults to 10h.
  base::Duration sync_period = kDefaultSyncPeriod;
  // watch_latency is the delivery latency of the informers' watches. Defaults to 1ms.
  base::Duration watch_latency = base::kMillisecond;
  // on_error hears every informer list or watch failure. Defaults to none.
  std::function<void(const std::string& kind, const base::Status& status, const std::string& verb)>
      on_error;
};

// JitteredSyncPeriod is period * (900 + prng.Below(200)) / 1000, i.e. within [0.9, 1.1).
// mirrors pkg/cache/cache.go calculateResyncPeriod
base::Duration JitteredSyncPeriod(base::Duration period, sim::Prng& prng);

class Cache : public client::Reader {
 public:
  // client (for list and watch), scheduler and prng must outlive this object.
  Cache(client::Client& client, sim::Scheduler& scheduler, sim::Prng& prng, Options options);
  ~Cache() override;
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;

  // Get returns the cached object. Errors: ErrCacheNotStarted (`the cache is not started, can
  // not read objects`) before Start; `unable to get: ns/name because of unknown namespace for
  // the cache` for a namespace outside the configured set; kTimeout while the informer has not
  // synced; kNotFound `<resource> "<name>" not found` when absent (including objects outside the
  // label selector). An unknown kind is kNotFound `the server doesn't have a resource type "X"`.
  base::StatusOr<api::ObjectPtr> Get(const std::string& kind, const std::string& ns,
                                     const std::string& name) override;
  // List returns the cached objects of kind in ns ("" = every watched namespace), sorted by
  // namespace then name, filtered by opts' label and field selectors. A namespace outside the
  // configured set is `unable to list: ns because of unknown namespace for the cache`.
  base::StatusOr<std::vector<api::ObjectPtr>> List(const std::string& kind, const std::string& ns,
                                                   const client::ListOptions& opts) override;

  // GetInformer returns the kind's informer set, creating it on first use (and starting it at
  // once when the cache has started). Errors: unknown kind; an invalid label selector.
  base::StatusOr<Informer*> GetInformer(const std::string& kind);
  // Discover resolves a kind name through the client (built-in kinds and served CRDs), or null.
  const api::KindInfo* Discover(const std::string& kind) const { return client_.Discover(kind); }
  // IndexField adds the index "field:<field>" to kind's informers so List can select on field.
  // Fails once that informer has started (`informer has already started`).
  // mirrors controller-runtime pkg/cache/informer_cache.go IndexField
  base::Status IndexField(const std::string& kind, const std::string& field,
                          std::function<std::vector<std::string>(const api::Json& obj)> extract);

  // Start starts every informer (each lists before Start returns); later ones start on creation.
  void Start();
  // Stop stops every informer.
  void Stop();
  bool started() const { return started_; }
  // WaitForCacheSync reports whether every informer has synced. It never blocks: the caller
  // polls it in virtual time.
  bool WaitForCacheSync() const;

  // Informers lists the informer sets by canonical Kind (for inspection).
  const std::map<std::string, std::unique_ptr<Informer>>& Informers() const { return informers_; }
  const Options& options() const { return options_; }
  // NamespacesFor returns the namespaces kind is restricted to (empty = every namespace).
  std::vector<std::string> NamespacesFor(const std::string& kind) const;

 private:
  // Resolve finds the informer set for a read, creating it if needed; errors as in Get.
  base::StatusOr<Informer*> InformerForRead(const std::string& kind);
  std::string LabelSelectorFor(const std::string& kind) const;
  std::string InformerName(const std::string& kind, const std::string& ns, bool multi) const;

  client::Client& client_;
  sim::Scheduler& scheduler_;
  sim::Prng& prng_;
  Options options_;  // by_object keys are canonical Kinds after construction
  std::map<std::string, std::unique_ptr<Informer>> informers_;  // by canonical Kind
  bool started_ = false;
  // List's label selectors by text, parsed once (a reconciler lists with the same few selectors
  // on every pass); cleared when it reaches kMaxParsedSelectors.
  static constexpr size_t kMaxParsedSelectors = 4096;
  std::map<std::string, api::LabelSelector, std::less<>> parsed_selectors_;
};

}  // namespace cache
