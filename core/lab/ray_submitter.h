#pragma once
// RaySubmitterRunner plays the program inside a RayJob's submitter container, in both modes
// that have one:
// - K8sJobMode, the submitter Job's Pod: wait for the dashboard, `ray job submit --no-wait
//   --submission-id ID` unless `ray job status ID` already finds the job, then `ray job logs
//   --follow ID`, which returns when the job ends. The container exits 0 and the Job controller
//   completes the Job.
// - SidecarMode, the `ray-job-submitter` container KubeRay adds to the head Pod: wait for the
//   dashboard on 127.0.0.1, then `ray job submit --submission-id ID` (no --no-wait), which
//   follows the job's logs and returns when it ends; the container exits and the Pod, whose
//   restartPolicy KubeRay forces to Never, keeps running without it.
// No Go counterpart (upstream this is the Ray CLI in the ray image, talking HTTP to the head).
// Simplified: the command is read from the container's args, not executed; the dashboard is
// polled every 2s (the script's own `sleep 2` while the head is unreachable, and a stand-in for
// the log stream while the job runs); the container exits 0 whatever the job's outcome (KubeRay
// reads the outcome from the dashboard).
// A dropped watch (`fault watch-drop`) is watched again and followed by a look at every Pod, as
// a reflector relists (client-go tools/cache/reflector.go ListAndWatch), after its backoff.
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
  bool local = false;   // --address http://127.0.0.1:PORT: the head Pod's own dashboard
  std::string job_id;   // --submission-id
  std::string entrypoint;
};

// ParseSubmitterCommand recognises KubeRay's submitter lines: K8sJobMode's (`--no-wait` to the
// head Service) and SidecarMode's (no `--no-wait`, to 127.0.0.1); false for anything else.
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
    std::string ns, pod, container;
    SubmitterCommand command;  // command.cluster filled from the Pod's label when local
    bool submitted = false;
  };

  // OpenWatch watches Pods from now on; false when the server refused.
  bool OpenWatch();
  void OnPodEvent(const apiserver::WatchEvent& event);
  // Relist watches again after a dropped watch and looks at every Pod, as a reflector's relist
  // does: a submitter container that started while the watch was down still gets its run.
  void Relist();
  void Poll(const std::string& key);

  apiserver::ApiServer& apiserver_;
  sim::Scheduler& scheduler_;
  world::RayHeads& heads_;
  world::World& world_;
  apiserver::WatchId watch_ = 0;
  std::map<std::string, Running> running_;  // by "<pod uid>#<container>#<restartCount>"
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace lab
