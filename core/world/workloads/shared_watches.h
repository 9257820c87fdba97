#pragma once
// SharedWatches: kube-controller-manager's shared informer factory. Every controller in the
// process asks it for a kind's watch and registers its handler there, so one watch stream and one
// cache per kind serve them all: a Pod change is delivered to the process once, not once per
// controller that cares about Pods.
// Mirrors: client-go informers/factory.go (sharedInformerFactory.InformerFor keyed by type,
// Start starting each informer once) as kube-controller-manager's CreateControllerContext builds
// it (cmd/kube-controller-manager/app/controllermanager.go, the "shared-informers" client).
// Simplified: a watch is keyed by kind only (no per-informer resync period or tweak options).
// Single-threaded; the watches live as long as this object.

#include <map>
#include <memory>
#include <string>

#include "core/client/client.h"
#include "core/sim/scheduler.h"
#include "core/world/workloads/object_watch.h"

namespace world {

// kControllerManagerUser is the identity of kube-controller-manager's own credentials, which its
// shared informers list and watch with.
inline const std::string kControllerManagerUser = "system:kube-controller-manager";
// kControllerManagerWatcher names the shared watches in watch.event records.
inline const std::string kControllerManagerWatcher = "kube-controller-manager";

// SharedWatches hands out one ObjectWatch per kind. client and scheduler must outlive this
// object. Not copyable.
class SharedWatches {
 public:
  // options is used for every watch (its field_selector must be empty: a shared watch sees the
  // whole kind).
  SharedWatches(client::Client& client, sim::Scheduler& scheduler, ObjectWatch::Options options);
  SharedWatches(const SharedWatches&) = delete;
  SharedWatches& operator=(const SharedWatches&) = delete;

  // Make returns watches named `watcher` in watch.event records, traced or not: the World's
  // shared ones, or one controller's own (a controller built without a World).
  static std::unique_ptr<SharedWatches> Make(client::Client& client, sim::Scheduler& scheduler,
                                                const std::string& watcher, bool traced);

  // Watch returns the kind's watch with handler registered on it, creating the watch (not
  // started) on first use. The reference stays valid as long as this object.
  ObjectWatch& Watch(const std::string& kind, ObjectWatch::Handler handler);
  // Find returns the kind's watch, or null when no one has asked for it.
  ObjectWatch* Find(const std::string& kind) const;
  // size is the number of kinds watched.
  size_t size() const { return watches_.size(); }

 private:
  client::Client& client_;
  sim::Scheduler& scheduler_;
  ObjectWatch::Options options_;
  std::map<std::string, std::unique_ptr<ObjectWatch>> watches_;
};

}  // namespace world
