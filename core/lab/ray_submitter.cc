#include "core/lab/ray_submitter.h"

#include <sstream>
#include <vector>

#include "core/api/pointer.h"

namespace lab {
namespace {

constexpr base::Duration kPollPeriod = 2 * base::kSecond;
// kRelistDelay is the wait before relisting after a dropped watch (a reflector's backoff starts
// at 800ms; world::ObjectWatch waits 1s too).
constexpr base::Duration kRelistDelay = base::kSecond;

std::vector<std::string> Words(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// ClusterFromAddress: "http://raycluster-x-head-svc.default.svc.cluster.local:8265" → "raycluster-x".
std::string ClusterFromAddress(const std::string& address) {
  std::string host = address;
  const size_t scheme = host.find("://");
  if (scheme != std::string::npos) host = host.substr(scheme + 3);
  host = host.substr(0, host.find_first_of(".:/"));
  const std::string suffix = "-head-svc";
  if (host.size() <= suffix.size() || host.compare(host.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return "";
  }
  return host.substr(0, host.size() - suffix.size());
}

// IsLocalAddress: the head Pod's own dashboard, as SidecarMode addresses it.
bool IsLocalAddress(const std::string& address) {
  return address.rfind("http://127.0.0.1:", 0) == 0 || address.rfind("http://localhost:", 0) == 0;
}

// RunningContainer reports whether the Pod's container named name runs, and its restart count.
bool RunningContainer(const api::Json& pod, const std::string& name, int64_t* restarts) {
  const api::Json* statuses = api::Member(pod, "status", "containerStatuses");
  if (statuses == nullptr || !statuses->is_array()) return false;
  for (const api::Json& cs : *statuses) {
    if (!cs.is_object() || cs.value("name", api::Json()) != name) continue;
    *restarts = cs.value("restartCount", 0);
    return cs.contains("state") && cs["state"].is_object() && cs["state"].contains("running");
  }
  return false;
}

std::string RunKey(const api::Json& pod, const std::string& container, int64_t restarts) {
  return api::Uid(pod) + "#" + container + "#" + std::to_string(restarts);
}

bool Terminal(const std::string& status) {
  return status == "SUCCEEDED" || status == "FAILED" || status == "STOPPED";
}

}  // namespace

bool ParseSubmitterCommand(const std::string& line, SubmitterCommand* out) {
  // Every Ray container's shell line passes here; only a submit line has the word "submit", and
  // looking for it is cheaper than splitting a `ray start` line into words.
  if (line.find("submit") == std::string::npos) return false;
  const std::vector<std::string> w = Words(line);
  SubmitterCommand cmd;
  bool submit = false, no_wait = false;
  for (size_t i = 0; i < w.size(); ++i) {
    if (i + 2 < w.size() && w[i] == "ray" && w[i + 1] == "job" && w[i + 2] == "submit") {
      submit = true;
      for (size_t j = i + 3; j < w.size(); ++j) {
        if (w[j] == "--address" && j + 1 < w.size()) {
          cmd.local = IsLocalAddress(w[j + 1]);
          cmd.cluster = cmd.local ? "" : ClusterFromAddress(w[j + 1]);
        }
        if (w[j] == "--no-wait") no_wait = true;
        if (w[j] == "--submission-id" && j + 1 < w.size()) cmd.job_id = w[j + 1];
        if (w[j] == "--") {
          for (size_t k = j + 1; k < w.size() && w[k] != ";"; ++k) {
            cmd.entrypoint += (cmd.entrypoint.empty() ? "" : " ") + w[k];
          }
          break;
        }
      }
      break;
    }
  }
  if (!submit || cmd.job_id.empty()) return false;
  // K8sJobMode submits without waiting and follows the logs; SidecarMode's submit waits.
  if (cmd.local ? no_wait : (!no_wait || cmd.cluster.empty())) return false;
  *out = cmd;
  return true;
}

RaySubmitterRunner::RaySubmitterRunner(apiserver::ApiServer& apiserver, sim::Scheduler& scheduler,
                                       world::RayHeads& heads, world::World& world)
    : apiserver_(apiserver), scheduler_(scheduler), heads_(heads), world_(world) {}

RaySubmitterRunner::~RaySubmitterRunner() {
  *alive_ = false;
  if (watch_ != 0) apiserver_.StopWatch(watch_);
}

base::Status RaySubmitterRunner::Start() {
  if (!OpenWatch()) {
    return base::Status(base::StatusCode::kInternal, "the Ray submitter runtime cannot watch Pods");
  }
  return base::Status::OK();
}

bool RaySubmitterRunner::OpenWatch() {
  apiserver::WatchOptions opts;
  opts.watcher = "ray-submitter-runtime";
  opts.traced = false;
  apiserver::RequestContext system;
  system.user = "system:kube-controller-manager";
  watch_ = 0;
  auto id = apiserver_.Watch(system, "Pod", opts,
                             [this](const apiserver::WatchEvent& e) { OnPodEvent(e); });
  if (!id.ok()) return false;
  watch_ = *id;
  return true;
}

void RaySubmitterRunner::Relist() {
  if (!OpenWatch()) {
    std::weak_ptr<bool> alive = alive_;
    scheduler_.After(kRelistDelay, "relist ray-submitter-runtime", [this, alive] {
      if (!alive.expired()) Relist();
    });
    return;
  }
  // A running submitter container already has its run (running_ is keyed by container run);
  // any other is seen for the first time.
  for (const api::ObjectPtr& pod : apiserver_.PeekAll("Pod")) {
    OnPodEvent(apiserver::WatchEvent{apiserver::WatchEventType::kModified, pod, 0});
  }
}

void RaySubmitterRunner::OnPodEvent(const apiserver::WatchEvent& event) {
  if (event.type == apiserver::WatchEventType::kError) {
    // The watch ended (`fault watch-drop`): watch again and catch up after the backoff.
    watch_ = 0;
    std::weak_ptr<bool> alive = alive_;
    scheduler_.After(kRelistDelay, "relist ray-submitter-runtime", [this, alive] {
      if (!alive.expired()) Relist();
    });
    return;
  }
  if (event.object == nullptr || event.type == apiserver::WatchEventType::kDeleted) return;
  const api::Json& pod = *event.object;
  const api::Json* containers = api::Member(pod, "spec", "containers");
  if (containers == nullptr || !containers->is_array()) return;
  for (const api::Json& c : *containers) {
    const api::Json* name_field = api::Member(c, "name");
    if (name_field == nullptr || !name_field->is_string()) continue;
    const std::string& name = name_field->get_ref<const std::string&>();
    // The command first: most containers (every Ray worker's) are not submitters.
    const api::Json* args = api::Member(c, "args");
    if (args == nullptr || !args->is_array() || args->empty() || !(*args)[0].is_string()) continue;
    SubmitterCommand command;
    if (!ParseSubmitterCommand((*args)[0].get_ref<const std::string&>(), &command)) continue;
    int64_t restarts = 0;
    if (!RunningContainer(pod, name, &restarts)) continue;
    const std::string key = RunKey(pod, name, restarts);
    if (running_.count(key) > 0) continue;
    if (command.local) {
      // 127.0.0.1 is the head Pod itself: its RayCluster is the Pod's ray.io/cluster label.
      const std::map<std::string, std::string> labels = api::Labels(pod);
      auto cluster = labels.find("ray.io/cluster");
      if (cluster == labels.end()) continue;
      command.cluster = cluster->second;
    }
    running_[key] = Running{api::Namespace(pod), api::Name(pod), name, command, false};
    Poll(key);
  }
}

void RaySubmitterRunner::Poll(const std::string& key) {
  auto it = running_.find(key);
  if (it == running_.end()) return;
  Running& r = it->second;
  api::ObjectPtr pod = apiserver_.Peek("Pod", r.ns, r.pod);
  int64_t restarts = 0;
  if (pod == nullptr || !RunningContainer(*pod, r.container, &restarts) ||
      RunKey(*pod, r.container, restarts) != key) {
    running_.erase(it);  // the container is gone or restarted; a new run starts from its event
    return;
  }
  bool done = false;
  if (!r.submitted) {
    // `ray job status ID` first (K8sJobMode): a resubmitted Pod must not submit twice.
    auto existing = heads_.GetJob(r.ns, r.command.cluster, r.command.job_id);
    if (existing.ok()) {
      r.submitted = true;
      done = Terminal(existing->status);
    } else if (base::IsNotFound(existing.status())) {
      world::RayJobRecord request;
      request.job_id = r.command.job_id;
      request.entrypoint = r.command.entrypoint;
      r.submitted = heads_.SubmitJob(r.ns, r.command.cluster, request).ok();
    }
  } else {
    auto job = heads_.GetJob(r.ns, r.command.cluster, r.command.job_id);
    done = job.ok() && Terminal(job->status);
  }
  if (done) {
    // `ray job logs --follow` (K8sJobMode) or the waiting `ray job submit` (SidecarMode)
    // returns when the job ends; the shell line exits 0.
    (void)world_.ExitContainer(r.ns, r.pod, 0, r.container);
    running_.erase(it);
    return;
  }
  std::weak_ptr<bool> alive = alive_;
  scheduler_.After(kPollPeriod, "ray submitter " + r.pod, [this, alive, key] {
    if (!alive.expired()) Poll(key);
  });
}

}  // namespace lab
