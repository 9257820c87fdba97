#pragma once
// SharedInformerFactory: kube-controller-manager's shared informer factory. Every controller in
// the process asks it for a kind's informer and registers its handlers there, so one watch
// stream and one cache per kind serve them all: a Pod change reaches the process once, not once
// per controller that cares about Pods.
// Mirrors: client-go informers/factory.go (sharedInformerFactory.InformerFor keyed by type,
// Start starting each informer once) as kube-controller-manager's CreateControllerContext builds
// it (cmd/kube-controller-manager/app/controllermanager.go, the "shared-informers" client), and
// pkg/controller/controller_utils.go AddPodControllerUIDIndexer.
// Simplified: an informer is keyed by kind only (no per-informer resync or tweak options); every
// informer carries the controller-uid index (upstream adds it to the Pod informer, and the
// Deployment controller filters listed ReplicaSets by their controller reference instead).
// Single-threaded; the informers live as long as this object.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/client/client.h"
#include "core/informer/shared_informer.h"
#include "core/sim/scheduler.h"

namespace world {

// kControllerManagerUser is the identity of kube-controller-manager's own credentials, which its
// shared informers list and watch with.
inline const std::string kControllerManagerUser = "system:kube-controller-manager";
// kControllerManagerWatcher names the shared informers in watch.event records.
inline const std::string kControllerManagerWatcher = "kube-controller-manager";

// kControllerUidIndex indexes objects by their controller ownerReference's uid
// (controller.PodControllerUIDIndex upstream). Objects without a controller are not indexed.
inline constexpr char kControllerUidIndex[] = "controllerUID";

// ControlledBy returns the cached objects whose controller ownerReference has uid, in key order.
std::vector<api::ObjectPtr> ControlledBy(const informer::SharedIndexInformer& informer,
                                         const std::string& uid);

// ChangeHandler hears one change of an informer's cache: old null = added, new null = deleted,
// both set = updated.
using ChangeHandler =
    std::function<void(const api::ObjectPtr& old_obj, const api::ObjectPtr& new_obj)>;
// OnChange adapts a ChangeHandler to an informer's three callbacks (AddFunc, UpdateFunc and
// DeleteFunc with the tombstone's last known state).
informer::ResourceEventHandlerFuncs OnChange(ChangeHandler handler);

// SharedInformerFactory hands out one informer per kind. client and scheduler must outlive this
// object. Not copyable.
class SharedInformerFactory {
 public:
  // name labels the informers in watch.event records; traced puts their deliveries and records
  // in the trace.
  SharedInformerFactory(client::Client& client, sim::Scheduler& scheduler, std::string name,
                        bool traced);
  SharedInformerFactory(const SharedInformerFactory&) = delete;
  SharedInformerFactory& operator=(const SharedInformerFactory&) = delete;

  // InformerFor returns the kind's informer, creating it (not started) on first use. The
  // reference stays valid as long as this object.
  informer::SharedIndexInformer& InformerFor(const std::string& kind);
  // Find returns the kind's informer, or null when no one has asked for it.
  informer::SharedIndexInformer* Find(const std::string& kind) const;
  // Start starts every informer not started yet (factory.Start).
  void Start();
  // size is the number of kinds with an informer.
  size_t size() const { return informers_.size(); }

 private:
  client::Client& client_;
  sim::Scheduler& scheduler_;
  std::string name_;
  bool traced_;
  std::map<std::string, std::unique_ptr<informer::SharedIndexInformer>> informers_;
};

}  // namespace world
