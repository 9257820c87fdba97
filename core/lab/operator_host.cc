#include "core/lab/operator_host.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "core/api/pointer.h"
#include "core/lab/simulation.h"
#include "core/sim/prng.h"

namespace lab {
namespace {

constexpr const char* kNameLabel = "app.kubernetes.io/name";

// ProcessUuid is a version-4-shaped UUID drawn from a generator seeded by the Pod's uid and the
// container's restart count: new for every process, the same on every run.
std::string ProcessUuid(const std::string& pod_uid, int64_t restart_count) {
  uint64_t seed = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char c : pod_uid + "#" + std::to_string(restart_count)) {
    seed = (seed ^ c) * 1099511628211ULL;
  }
  sim::Prng prng(seed);
  return sim::Uuid4(prng);
}

// IsEnvName accepts environment variable names as operators read them: upper-case letters,
// digits and '_', starting with a letter.
bool IsEnvName(const std::string& key) {
  if (key.empty() || key[0] < 'A' || key[0] > 'Z') return false;
  for (char c : key) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

bool ContainerRunning(const api::Json& pod, int64_t* restart_count) {
  // Found in place: nlohmann's value() with a pointer throws (and catches) for a missing path.
  const api::Json* statuses = api::FindPointer(pod, "/status/containerStatuses");
  if (statuses == nullptr || !statuses->is_array() || statuses->empty()) return false;
  const api::Json& first = (*statuses)[0];
  *restart_count = first.value("restartCount", 0);
  return first.contains("state") && first["state"].contains("running");
}

// HostWatchOptions is the host's watch of its operator's Pods (its view of the containers).
apiserver::WatchOptions HostWatchOptions(const std::string& name) {
  apiserver::WatchOptions opts;
  opts.watcher = name + "-host";
  opts.namespace_ = "default";
  opts.label_selector = std::string(kNameLabel) + "=" + name;
  opts.traced = false;
  return opts;
}

apiserver::RequestContext HostContext() {
  apiserver::RequestContext system;
  system.user = "system:kube-controller-manager";
  return system;
}

}  // namespace

OperatorHost::OperatorHost(Simulation& sim, OperatorSpec spec, OperatorSettings settings)
    : sim_(sim), spec_(std::move(spec)), settings_(std::move(settings)) {}

OperatorHost::~OperatorHost() {
  if (watch_ != 0) sim_.apiserver().StopWatch(watch_);
  running_.clear();
}

api::Json OperatorHost::ClusterRole() const {
  api::Json rules = api::Json::array();
  for (const api::Json& rule : spec_.cluster_rules) {
    for (const api::Json& resource : rule.value("resources", api::Json::array())) {
      api::Json verbs = api::Json::array();
      for (const api::Json& verb : rule.value("verbs", api::Json::array())) {
        const bool denied = std::any_of(denied_.begin(), denied_.end(), [&](const auto& d) {
          return d.first == verb.get<std::string>() && d.second == resource.get<std::string>();
        });
        if (!denied) verbs.push_back(verb);
      }
      if (verbs.empty()) continue;
      rules.push_back({{"apiGroups", rule.value("apiGroups", api::Json::array({""}))},
                       {"resources", {resource}},
                       {"verbs", verbs}});
    }
  }
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", "ClusterRole"},
          {"metadata", {{"name", spec_.name}}},
          {"rules", rules}};
}

api::Json OperatorHost::DeploymentManifest() const {
  api::Json labels = {{kNameLabel, spec_.name}};
  return {{"apiVersion", "apps/v1"},
          {"kind", "Deployment"},
          {"metadata", {{"name", spec_.name}, {"namespace", "default"}, {"labels", labels}}},
          {"spec",
           {{"replicas", settings_.replicas},
            {"selector", {{"matchLabels", labels}}},
            {"template",
             {{"metadata", {{"labels", labels}}},
              {"spec",
               {{"serviceAccountName", spec_.name},
                {"containers", {{{"name", "manager"}, {"image", spec_.image}}}}}}}}}}};
}

base::Status OperatorHost::Install() {
  client::Client& admin = sim_.learner();
  api::Json sa = {{"apiVersion", "v1"},
                  {"kind", "ServiceAccount"},
                  {"metadata", {{"name", spec_.name}, {"namespace", "default"}}}};
  api::Json binding = {{"apiVersion", "rbac.authorization.k8s.io/v1"},
                       {"kind", "ClusterRoleBinding"},
                       {"metadata", {{"name", spec_.name}}},
                       {"roleRef",
                        {{"apiGroup", "rbac.authorization.k8s.io"},
                         {"kind", "ClusterRole"},
                         {"name", spec_.name}}},
                       {"subjects",
                        {{{"kind", "ServiceAccount"},
                          {"name", spec_.name},
                          {"namespace", "default"}}}}};
  for (const api::Json& obj : {sa, ClusterRole(), binding, DeploymentManifest()}) {
    auto created = admin.Create(obj);
    if (!created.ok()) return created.status();
  }
  auto id = sim_.apiserver().Watch(HostContext(), "Pod", HostWatchOptions(spec_.name),
                                   [this](const apiserver::WatchEvent& e) { OnPodEvent(e); });
  if (!id.ok()) return id.status();
  watch_ = *id;
  return base::Status::OK();
}

void OperatorHost::OnPodEvent(const apiserver::WatchEvent& event) {
  if (event.type == apiserver::WatchEventType::kError) {
    // `fault watch-drop` ended the watch. Watch again and catch up from the store, as a
    // reflector relists: without it a restarted operator Pod would never start its process
    // (found by the invariant sweep, seed 3; tests/scripts/operator_host_watch_drop.lab).
    watch_ = 0;
    auto id = sim_.apiserver().Watch(HostContext(), "Pod", HostWatchOptions(spec_.name),
                                     [this](const apiserver::WatchEvent& e) { OnPodEvent(e); });
    if (!id.ok()) return;
    watch_ = *id;
    std::set<std::string> present;
    for (const api::ObjectPtr& pod : sim_.apiserver().PeekAll("Pod")) {
      const auto labels = api::Labels(*pod);
      auto label = labels.find(kNameLabel);
      if (api::Namespace(*pod) != "default" || label == labels.end() ||
          label->second != spec_.name) {
        continue;
      }
      present.insert(api::Name(*pod));
      OnPodEvent(apiserver::WatchEvent{apiserver::WatchEventType::kModified, pod, 0});
    }
    std::vector<std::string> gone;
    for (const auto& [name, running] : running_) {
      if (present.count(name) == 0) gone.push_back(name);
    }
    for (const std::string& name : gone) StopProcess(name, /*graceful=*/true);
    return;
  }
  if (event.object == nullptr) return;
  const api::Json& pod = *event.object;
  const std::string name = api::Name(pod);
  int64_t restart_count = 0;
  const bool running = event.type != apiserver::WatchEventType::kDeleted &&
                       !api::IsBeingDeleted(pod) && ContainerRunning(pod, &restart_count);
  auto it = running_.find(name);
  if (!running) {
    const bool deleted =
        event.type == apiserver::WatchEventType::kDeleted || api::IsBeingDeleted(pod);
    if (it != running_.end()) StopProcess(name, deleted);
    return;
  }
  if (it != running_.end() && it->second.uid == api::Uid(pod) &&
      it->second.restart_count == restart_count) {
    return;  // the same process, still running
  }
  if (it != running_.end()) StopProcess(name, /*graceful=*/false);  // its container restarted
  StartProcess(pod);
}

void OperatorHost::StartProcess(const api::Json& pod) {
  const std::string name = api::Name(pod);
  Running r;
  r.uid = api::Uid(pod);
  ContainerRunning(pod, &r.restart_count);
  r.direct = std::make_unique<client::DirectClient>(sim_.apiserver(), user());
  r.faulted = std::make_unique<client::FaultInjectingClient>(*r.direct, sim_.faults(),
                                                             sim_.apiserver());
  ProcessContext ctx;
  ctx.replica = name;
  ctx.identity = name + "_" + ProcessUuid(r.uid, r.restart_count);
  ctx.settings = &settings_;
  ctx.api_client = r.faulted.get();
  client::FaultInjectingClient* faulted = r.faulted.get();
  ctx.take_injected_latency = [faulted] { return faulted->TakeInjectedLatency(); };
  r.process = spec_.factory(ctx);
  if (r.process == nullptr) return;
  Running& stored = running_[name] = std::move(r);
  manager::Manager& mgr = stored.process->manager();
  // main() returning: the container exits with the process's code and the kubelet decides what
  // follows (restartPolicy Always: a restart, with CrashLoopBackOff's back-off from the second).
  // Deferred to its own event: the exit is reported from inside the process's own code.
  const std::string uid = stored.uid;
  const int64_t restart_count = stored.restart_count;
  mgr.SetOnExit([this, name, uid, restart_count](const manager::ExitStatus& status) {
    sim_.scheduler().After(0, spec_.name + " process exit",
                           [this, name, uid, restart_count, code = status.code] {
                             auto it = running_.find(name);
                             if (it == running_.end() || it->second.uid != uid ||
                                 it->second.restart_count != restart_count) {
                               return;  // that process is already gone
                             }
                             if (sim_.world() != nullptr) {
                               (void)sim_.world()->ExitContainer("default", name, code);
                             }
                           });
  });
  base::Status s = mgr.Start();
  if (!s.ok()) mgr.Fail(s);
}

void OperatorHost::StopProcess(const std::string& pod_name, bool graceful) {
  auto it = running_.find(pod_name);
  if (it == running_.end()) return;
  manager::Manager& mgr = it->second.process->manager();
  // SIGTERM runs the stop procedure; a dead process (killed, or exited by itself) runs nothing.
  if (graceful) {
    mgr.Stop();
  } else {
    mgr.Kill();
  }
  for (const manager::LogLine& line : mgr.logs()) {
    log_archive_.emplace_back(line.time, pod_name + "\t" + line.Format());
  }
  running_.erase(it);
}

std::vector<std::pair<std::string, OperatorProcess*>> OperatorHost::Processes() const {
  std::vector<std::pair<std::string, OperatorProcess*>> out;
  for (const auto& [name, r] : running_) out.emplace_back(name, r.process.get());
  return out;
}

std::vector<std::string> OperatorHost::Logs() const {
  std::vector<std::pair<base::SimTime, std::string>> lines = log_archive_;
  for (const auto& [name, r] : running_) {
    for (const manager::LogLine& line : r.process->manager().logs()) {
      lines.emplace_back(line.time, name + "\t" + line.Format());
    }
  }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (auto& [t, text] : lines) out.push_back(std::move(text));
  return out;
}

// ApplySetting changes one key in *settings; on an invalid value it returns the error (the
// caller discards the copy it passed, so nothing changes).
static base::Status ApplySetting(OperatorSettings* settings, const std::string& key,
                                 const std::string& value) {
  OperatorSettings& next = *settings;
  auto parse_bool = [&](bool* out) {
    if (value == "true") *out = true;
    else if (value == "false") *out = false;
    else return false;
    return true;
  };
  auto parse_int = [&](int* out) {
    char* end = nullptr;
    long v = std::strtol(value.c_str(), &end, 10);
    if (value.empty() || *end != '\0' || v < 0 || v > 100) return false;
    *out = static_cast<int>(v);
    return true;
  };
  auto bad = [&] {
    return base::Status(base::StatusCode::kBadRequest,
                        "error: invalid value \"" + value + "\" for " + key);
  };
  if (key == "watch-namespace") {
    next.watch_namespace = value;
  } else if (key == "reconcile-concurrency") {
    if (!parse_int(&next.reconcile_concurrency) || next.reconcile_concurrency == 0) {
      return bad();
    }
  } else if (key == "leader-election") {
    if (!parse_bool(&next.leader_election)) return bad();
  } else if (key == "recover-panic") {
    bool recover = true;
    if (!parse_bool(&recover)) return bad();
    next.recover_panic = recover;
  } else if (key == "replicas") {
    if (!parse_int(&next.replicas)) return bad();
  } else if (key == "queue") {
    if (value != "priority" && value != "classic") {
      return base::Status(base::StatusCode::kBadRequest,
                          "error: queue must be \"priority\" or \"classic\"");
    }
    next.queue = value;
  } else if (key == "feature-gates") {
    // "Name=true,Other=false"
    size_t start = 0;
    while (start < value.size()) {
      size_t comma = value.find(',', start);
      if (comma == std::string::npos) comma = value.size();
      const std::string item = value.substr(start, comma - start);
      const size_t eq = item.find('=');
      if (eq == std::string::npos || (item.substr(eq + 1) != "true" && item.substr(eq + 1) != "false")) {
        return base::Status(base::StatusCode::kBadRequest,
                            "error: invalid feature gate \"" + item + "\" (want Name=true|false)");
      }
      next.feature_gates[item.substr(0, eq)] = item.substr(eq + 1) == "true";
      start = comma + 1;
    }
  } else if (IsEnvName(key)) {
    // ENABLE_RANDOM_POD_DELETE, RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV, ...: the operator
    // container's environment.
    next.env[key] = value;
  } else {
    return base::Status(base::StatusCode::kBadRequest,
                        "error: unknown operator setting \"" + key +
                            "\" (watch-namespace, reconcile-concurrency, leader-election, "
                            "recover-panic, replicas, feature-gates, queue, ENABLE_* and other "
                            "UPPER_CASE environment variables)");
  }
  return base::Status::OK();
}

base::Status OperatorHost::Set(const std::string& key, const std::string& value) {
  return SetAll({{key, value}});
}

base::Status OperatorHost::SetAll(const std::vector<std::pair<std::string, std::string>>& kvs) {
  OperatorSettings next = settings_;
  bool scale = false;
  for (const auto& [key, value] : kvs) {
    base::Status s = ApplySetting(&next, key, value);
    if (!s.ok()) return s;
    scale = scale || key == "replicas";
  }
  if (scale) {
    auto scaled = sim_.learner().Patch("Deployment", "default", spec_.name,
                                       client::PatchType::kJsonMerge,
                                       api::Json{{"spec", {{"replicas", next.replicas}}}});
    if (!scaled.ok()) return scaled.status();
  }
  settings_ = std::move(next);
  return base::Status::OK();
}

base::Status OperatorHost::Restart() {
  std::vector<std::string> pods;
  for (const api::ObjectPtr& pod : sim_.apiserver().PeekAll("Pod")) {
    if (api::Namespace(*pod) == "default" && api::Labels(*pod)[kNameLabel] == spec_.name) {
      pods.push_back(api::Name(*pod));
    }
  }
  for (const std::string& pod : pods) {
    auto deleted = sim_.learner().Delete("Pod", "default", pod);
    if (!deleted.ok() && !base::IsNotFound(deleted.status())) return deleted.status();
  }
  return base::Status::OK();
}

base::Status OperatorHost::SetBug(const std::string& id, bool on) {
  if (std::find(spec_.bug_ids.begin(), spec_.bug_ids.end(), id) == spec_.bug_ids.end()) {
    std::string known;
    for (const std::string& b : spec_.bug_ids) known += (known.empty() ? "" : ", ") + b;
    return base::Status(base::StatusCode::kBadRequest,
                        "error: unknown bug \"" + id + "\" for " + spec_.name + " (" + known + ")");
  }
  if (on) {
    settings_.bugs.insert(id);
  } else {
    settings_.bugs.erase(id);
  }
  return base::Status::OK();
}

base::Status OperatorHost::RbacDeny(const std::string& verb, const std::string& resource) {
  denied_.emplace_back(verb, resource);
  return WriteClusterRole();
}

base::Status OperatorHost::RbacReset() {
  denied_.clear();
  return WriteClusterRole();
}

base::Status OperatorHost::Replace(OperatorSpec spec) {
  RLAB_ASSERT(spec.name == spec_.name, "Replace keeps the operator's name");
  spec_ = std::move(spec);
  if (base::Status s = WriteClusterRole(); !s.ok()) return s;
  return Restart();
}

base::Status OperatorHost::WriteClusterRole() {
  api::ObjectPtr current = sim_.apiserver().Peek("ClusterRole", "", spec_.name);
  api::Json role = ClusterRole();
  if (current != nullptr) role["metadata"]["resourceVersion"] = api::ResourceVersion(*current);
  auto updated = sim_.learner().Update(role);
  return updated.ok() ? base::Status::OK() : updated.status();
}

}  // namespace lab
