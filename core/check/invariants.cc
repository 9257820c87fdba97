#include "core/check/invariant.h"

#include "core/check/invariants/caches_match.h"
#include "core/check/invariants/liveness.h"
#include "core/check/invariants/objects_intact.h"
#include "core/check/invariants/owner_alive.h"
#include "core/check/invariants/queue_unique.h"
#include "core/check/invariants/raycluster_pods.h"
#include "core/check/invariants/watch_order.h"

namespace check {

std::vector<std::unique_ptr<Invariant>> AllInvariants() {
  std::vector<std::unique_ptr<Invariant>> all;
  all.push_back(std::make_unique<WatchOrder>());
  all.push_back(std::make_unique<WatchComplete>());
  all.push_back(std::make_unique<ObjectsIntact>());
  all.push_back(std::make_unique<OwnerAlive>());
  all.push_back(std::make_unique<QueueUnique>());
  all.push_back(std::make_unique<OneWorkerPerKey>());
  all.push_back(std::make_unique<CachesMatch>());
  all.push_back(std::make_unique<RayClusterPods>());
  all.push_back(std::make_unique<RayJobSettles>());
  all.push_back(std::make_unique<NamespaceFinishes>());
  return all;
}

}  // namespace check
