#pragma once
// RaySubmitterRunner plays the program inside a RayJob's submitter Pod (K8sJobMode): the shell
// line KubeRay builds — wait for the dashboard, `ray job submit --no-wait --submission-id ID`
// unless `ray job status ID` already finds the job, then `ray job logs --follow ID`, which
// returns when the job ends. The container then exits 0 and the Job controller completes the Job.
// No Go counterpart (upstream this is the Ray CLI in the ray image, talking HTTP to the head).
// Simplified: the command is read from the container's args, not executed; the dashboard is
// polled every 2s (the script's own `sleep 2` while the head is unreachable, and a stand-in for
// the log stream while the job runs). SidecarMode's submitter, which runs inside the head Pod,
// is not played.
// Single-threaded; polls are scheduler events.

#include <map>
#include <memory>
#include <string>

#include "core/apiserver/api_server.h"
#include "core/base/time.h"
#include "core/sim/scheduler.h"
#include "core/world/ray/ray_head.h"
#include "core/world/world.h"

namespace lab {

// SubmitterCommand is what the runner reads from a submitter container's shell line.
struct SubmitterCommand {
  std::string cluster;  // from --address http://<cluster>-head-svc.<ns>.svc.cluster.local:PORT
  std::string job_id;   // --submission-id
  std::string entrypoint;
};

// ParseSubmitterCommand recognises KubeRay's K8sJobMode submitter line; false for anything else.
bool ParseSubmitterCommand(const std::string& line, SubmitterCommand* out);

class RaySubmitterRunner {
 public:
  // apiserver, scheduler, heads and world must outlive this object.
  RaySubmitterRunner(apiserver::ApiServer& apiserver, sim::Scheduler& scheduler,
                     world::RayHeads& heads, world::World& world);
  ~RaySubmitterRunner();
  RaySubmitterRunner(const RaySubmitterRunner&) = delete;
  RaySubmitterRunner& operator=(const RaySubmitterRunner&) = delete;

  base::Status Start();

 private:
  struct Running {
    std::string ns, pod;
    SubmitterCommand command;
    bool submitted = false;
  };

  void OnPodEvent(const apiserver::WatchEvent& event);
  void Poll(const std::string& key);

  apiserver::ApiServer& apiserver_;
  sim::Scheduler& scheduler_;
  world::RayHeads& heads_;
  world::World& world_;
  apiserver::WatchId watch_ = 0;
  std::map<std::string, Running> running_;  // by "<pod uid>#<restartCount>"
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace lab
