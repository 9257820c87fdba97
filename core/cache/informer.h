#pragma once
// Informer: what Cache::GetInformer returns for one kind. It is one SharedIndexInformer, or, when
// the cache watches several namespaces, one per namespace behind the same interface: a handler
// added here is added to every member, and the set has synced when every member has.
// Mirrors: controller-runtime pkg/cache/cache.go (the Informer interface: AddEventHandler,
// AddEventHandlerWithResyncPeriod, RemoveEventHandler, AddIndexers, HasSynced, IsStopped) and
// pkg/cache/multi_namespace_cache.go (multiNamespaceInformer, handlerRegistration).
// Simplified: no per-handler options beyond the resync period; members are fixed at creation.
// Single-threaded; time comes from the members' sim::Scheduler.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/base/status.h"
#include "core/base/time.h"
#include "core/informer/controller.h"
#include "core/informer/indexer.h"
#include "core/informer/shared_informer.h"

namespace cache {

class Informer {
 public:
  // Registration is one AddEventHandler call on every member. HasSynced is true once every
  // member's handler has synced. Intentionally copyable.
  class Registration {
   public:
    Registration() = default;
    bool HasSynced() const;
    bool valid() const;

   private:
    friend class Informer;
    std::vector<informer::ResourceEventHandlerRegistration> parts_;
  };

  // Members maps a namespace to its informer; the single key "" means one informer that watches
  // every namespace (or a cluster-scoped kind).
  using Members = std::map<std::string, std::unique_ptr<informer::SharedIndexInformer>>;

  // REQUIRES: !members.empty(); a "" key only alone.
  Informer(std::string kind, Members members);
  Informer(const Informer&) = delete;
  Informer& operator=(const Informer&) = delete;

  // AddEventHandler / AddEventHandlerWithResyncPeriod register handler on every member (each
  // member calls it for its own namespace's objects).
  Registration AddEventHandler(const informer::ResourceEventHandlerFuncs& handler);
  Registration AddEventHandlerWithResyncPeriod(const informer::ResourceEventHandlerFuncs& handler,
                                               base::Duration resync_period);
  // RemoveEventHandler unregisters from every member.
  base::Status RemoveEventHandler(const Registration& registration);
  // AddIndexers adds index functions to every member; fails once started.
  base::Status AddIndexers(const informer::Indexers& indexers);
  // HasSynced is true when every member has processed its initial list.
  bool HasSynced() const;
  bool IsStopped() const;

  void Start();
  void Stop();

  // kind is the canonical Kind ("Pod").
  const std::string& kind() const { return kind_; }
  // AllNamespaces is true when one member watches every namespace.
  bool AllNamespaces() const { return members_.count("") != 0; }
  // Covers says whether objects of namespace ns are in this set.
  bool Covers(const std::string& ns) const { return AllNamespaces() || members_.count(ns) != 0; }
  // Namespaces lists the watched namespaces (empty when AllNamespaces).
  std::vector<std::string> Namespaces() const;
  // ForNamespace returns the member that holds objects of ns, or null.
  const informer::SharedIndexInformer* ForNamespace(const std::string& ns) const;
  // members lists the informers by namespace (for inspection and UIs).
  const Members& members() const { return members_; }

 private:
  std::string kind_;
  Members members_;  // Invariant: non-empty; a "" key appears only alone.
};

}  // namespace cache
