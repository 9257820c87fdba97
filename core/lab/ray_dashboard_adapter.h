#pragma once
// RayDashboardAdapter: the lab's glue between the KubeRay operator's dashboard interface
// (kuberay::dashboard::ClientProvider, declared by the operator) and the simulated Ray heads
// (world::RayHeads), so operators never include core/world.
// No Go counterpart (upstream the client speaks HTTP to the head Service).
// Simplified: the dashboard URL is not resolved; the client addresses the RayCluster it was
// opened for (what the URL names: its head Service).
// Single-threaded.

#include <memory>

#include "core/operators/kuberay/dashboard/dashboard_client.h"
#include "core/world/ray/ray_head.h"

namespace lab {

class RayDashboardAdapter final : public kuberay::dashboard::ClientProvider {
 public:
  // heads must outlive this object and every client it opens.
  explicit RayDashboardAdapter(world::RayHeads& heads) : heads_(heads) {}

  std::unique_ptr<kuberay::dashboard::RayDashboardClient> Open(
      const api::Json& ray_cluster, const std::string& dashboard_url) override;
  // OpenHttpProxy addresses the head of the Pod's RayCluster (label ray.io/cluster).
  std::unique_ptr<kuberay::dashboard::RayHttpProxyClient> OpenHttpProxy(const api::Json& pod,
                                                                       int port) override;

 private:
  world::RayHeads& heads_;
};

}  // namespace lab
