#pragma once
// SimulationHooks: what the simulation, its tools and its tests do to the API server besides
// sending requests — faults (watch latency, dropped watches, the race explorer's delivery lag,
// requests a client-side fault refused) and a read-only observer of commits and watches. None of
// it is part of the API (api_server.h); ApiServer::Hooks() returns its implementation.
// No Go counterpart (a real cluster's faults come from the network and etcd; its observers are
// audit logs and the watch cache's own tests).
// Single-threaded.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/api/kind.h"
#include "core/api/object.h"
#include "core/apiserver/request.h"
#include "core/base/status.h"
#include "core/base/time.h"

namespace apiserver {

// WatchObserver hears every commit and the watch fan-out: the hook an invariant checker outside
// the system uses (core/check). It only reads; it must not write, schedule, trace or draw
// randomness. No observer (the default) costs one null test per commit and delivery.
// No Go counterpart (closest: the apiserver's own watch cache tests).
class WatchObserver {
 public:
  virtual ~WatchObserver() = default;
  // OnCommit: a write was persisted (type kAdded, kModified or kDeleted; object carries the new
  // resourceVersion, for kDeleted the final state; old_object is null for kAdded).
  virtual void OnCommit(const api::KindInfo& kind, WatchEventType type,
                        const api::ObjectPtr& old_object, const api::ObjectPtr& object) = 0;
  // OnWatchOpened: a watch started (before any replayed history is queued to it).
  virtual void OnWatchOpened(WatchId id, const api::KindInfo& kind, const WatchOptions& opts) = 0;
  // OnWatchQueued: the server decided this watch receives the event and scheduled its delivery.
  virtual void OnWatchQueued(WatchId id, WatchEventType type, const api::ObjectPtr& object) = 0;
  // OnWatchDelivered: the delivery ran (just before the watcher's callback; object null for kError).
  virtual void OnWatchDelivered(WatchId id, WatchEventType type, const api::ObjectPtr& object) = 0;
  // OnWatchClosed: the watch was stopped or dropped; nothing more is queued to it.
  virtual void OnWatchClosed(WatchId id) = 0;
};

class SimulationHooks {
 public:
  virtual ~SimulationHooks() = default;

  // SetWatchLatency changes the delivery latency of every watch whose watcher name is `watcher`
  // (or of every watcher of `kind` when watcher is empty): the `fault cache-lag` knob.
  virtual void SetWatchLatency(const std::string& kind, base::Duration latency) = 0;
  // DeliveryLag returns extra delay for one watch delivery (the race explorer's cache-lag choice
  // point, see core/sim/steering.h); null (the default) adds none and asks nothing. It must not
  // schedule events or emit trace records.
  using DeliveryLag = std::function<base::Duration(const std::string& watcher,
                                                   const std::string& kind, WatchEventType type,
                                                   const api::ObjectPtr& object)>;
  virtual void SetDeliveryLag(DeliveryLag lag) = 0;
  // DropWatches ends every watch of kind ("" = all): each gets one kError delivery and no more
  // events, so its informer relists. Returns how many were dropped.
  virtual size_t DropWatches(const std::string& kind) = 0;

  // OpenWatch describes one open watch (for an observer attached mid-run).
  struct OpenWatch {
    WatchId id = 0;
    const api::KindInfo* kind = nullptr;
    WatchOptions opts;
  };
  // OpenWatches lists the open watches by id.
  virtual std::vector<OpenWatch> OpenWatches() const = 0;
  // SetWatchObserver installs (or, with null, removes) the read-only observer above.
  // REQUIRES: observer outlives its installation.
  virtual void SetWatchObserver(WatchObserver* observer) = 0;

  // TraceRejected records a request that a client-side fault rejected before it arrived (an
  // `api.request` record with the fault's status); returns its trace seq.
  virtual int64_t TraceRejected(const RequestContext& ctx, const std::string& verb,
                                const std::string& kind, const std::string& ns,
                                const std::string& name, const std::string& subresource,
                                const base::Status& status) = 0;
};

}  // namespace apiserver
