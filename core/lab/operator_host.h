#pragma once
// OperatorHost runs an operator the way a quick-start Helm install does: a ServiceAccount with
// its RBAC, and a Deployment in namespace `default` whose Pods each run one operator process (a
// Manager with its controllers). Killing the Pod ends the process; the kubelet restarts the
// container and a fresh process starts with an empty cache. With two replicas and leader
// election, one leads and the other waits for the Lease.
// No Go counterpart (this is the operator's main.go plus the Helm chart, seen from outside).
// Simplified: the process starts when the kubelet reports the container running, and stops when
// the container stops or the Pod goes away; settings take effect on the next process start.
// Single-threaded; processes are created and destroyed inside scheduler events.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/apiserver/api_server.h"
#include "core/client/fault_injecting_client.h"
#include "core/controller/controller.h"
#include "core/manager/manager.h"

namespace lab {

class Simulation;

// OperatorSettings are the `operator set K=V` keys.
struct OperatorSettings {
  std::string watch_namespace;      // "" = all namespaces. Defaults to "".
  int reconcile_concurrency = 1;    // MaxConcurrentReconciles. Defaults to 1.
  bool leader_election = false;     // Defaults to false (the KubeRay host turns it on).
  int replicas = 1;                 // Deployment replicas. Defaults to 1.
  std::string queue = "priority";   // "priority" | "classic". Defaults to "priority".
  // recover_panic is the manager's Controller.RecoverPanic; unset is controller-runtime's
  // default (true). With false a reconcile panic crashes the operator process.
  std::optional<bool> recover_panic;
  std::map<std::string, bool> feature_gates;
  std::map<std::string, std::string> env;  // ENABLE_* switches and the like
  std::set<std::string> bugs;              // teaching bugs switched on
};

// OperatorProcess is one running replica: a manager and whatever the operator built on it.
class OperatorProcess {
 public:
  virtual ~OperatorProcess() = default;
  virtual manager::Manager& manager() = 0;
  // controllers lists the controllers this process registered (for `queue` and `metrics`).
  virtual std::vector<controller::Controller*> controllers() = 0;
};

// ProcessContext is what a factory gets to build a process.
struct ProcessContext {
  std::string replica;  // the Pod name
  // identity is the leader-election identity: the Pod name (os.Hostname()) + "_" + a UUID that
  // is new for every process, so a restarted container must win the Lease again.
  // mirrors controller-runtime pkg/leaderelection/leader_election.go NewResourceLock
  std::string identity;
  const OperatorSettings* settings = nullptr;
  client::Client* api_client = nullptr;  // the operator's service account, with API faults
  std::function<base::Duration()> take_injected_latency;
};

using ProcessFactory = std::function<std::unique_ptr<OperatorProcess>(const ProcessContext&)>;

// ModuleSource is a learner module an operator runs (`operator load`, module_operator.h): the
// operator's name, the module's file name (error positions say "mirror.js:12:5"), the path it
// was read from ("" for a here-document) and its text.
struct ModuleSource {
  std::string name;
  std::string filename;
  std::string path;
  std::string source;
};

struct OperatorSpec {
  std::string name;    // "inference-operator"
  std::string image;   // "inference-operator:v0.1.0"
  std::vector<api::Json> cluster_rules;  // ClusterRole rules
  std::vector<std::string> bug_ids;      // accepted `operator bug` ids
  ProcessFactory factory;
  std::optional<ModuleSource> module;  // set for a learner module's operator
};

class OperatorHost {
 public:
  // sim must outlive this object.
  OperatorHost(Simulation& sim, OperatorSpec spec, OperatorSettings settings);
  ~OperatorHost();
  OperatorHost(const OperatorHost&) = delete;
  OperatorHost& operator=(const OperatorHost&) = delete;

  // Install creates the ServiceAccount, ClusterRole, ClusterRoleBinding and Deployment (as the
  // cluster admin would with Helm) and starts following the operator's Pods.
  base::Status Install();
  // Set changes one setting; replicas applies at once (the Deployment is scaled), the others at
  // the next process start (use Restart).
  base::Status Set(const std::string& key, const std::string& value);
  // SetAll applies several keys all or nothing: one invalid value changes none of them.
  base::Status SetAll(const std::vector<std::pair<std::string, std::string>>& kvs);
  // Restart deletes the operator's Pods; the Deployment creates new ones.
  base::Status Restart();
  base::Status SetBug(const std::string& id, bool on);
  // RbacDeny removes VERB on RESOURCE from the ClusterRole; RbacReset restores it.
  base::Status RbacDeny(const std::string& verb, const std::string& resource);
  base::Status RbacReset();
  // Replace swaps the operator's code and RBAC rules (a learner module's `operator reload`):
  // the ClusterRole is rewritten and the Pods restarted, so every new process runs the new
  // factory. REQUIRES: spec.name == name().
  base::Status Replace(OperatorSpec spec);

  const std::string& name() const { return spec_.name; }
  const OperatorSettings& settings() const { return settings_; }
  const OperatorSpec& spec() const { return spec_; }
  // Processes lists the running replicas, by Pod name.
  std::vector<std::pair<std::string, OperatorProcess*>> Processes() const;
  // Logs returns every log line of every process so far, in time order.
  std::vector<std::string> Logs() const;
  std::string user() const { return "system:serviceaccount:default:" + spec_.name; }

 private:
  struct Running {
    std::string uid;
    int64_t restart_count = -1;
    std::unique_ptr<client::Client> direct;
    std::unique_ptr<client::FaultInjectingClient> faulted;
    std::unique_ptr<OperatorProcess> process;
  };

  void OnPodEvent(const apiserver::WatchEvent& event);
  void StartProcess(const api::Json& pod);
  // StopProcess ends the Pod's process: gracefully (SIGTERM: the manager's stop procedure) when
  // the Pod is deleted, silently when its container died (killed, or it exited by itself).
  void StopProcess(const std::string& pod_name, bool graceful);
  api::Json ClusterRole() const;
  // WriteClusterRole replaces the ClusterRole with the rules minus the denied ones.
  base::Status WriteClusterRole();
  api::Json DeploymentManifest() const;

  Simulation& sim_;
  OperatorSpec spec_;
  OperatorSettings settings_;
  std::vector<std::pair<std::string, std::string>> denied_;  // (verb, resource)
  std::map<std::string, Running> running_;  // by Pod name
  std::vector<std::pair<base::SimTime, std::string>> log_archive_;  // lines of ended processes
  apiserver::WatchId watch_ = 0;
};

}  // namespace lab
