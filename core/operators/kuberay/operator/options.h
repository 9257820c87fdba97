#pragma once
// The KubeRay operator process's configuration: main.go's flags with their defaults, the
// environment switches it reads, the informer cache's label selectors, and the ClusterRole the
// Helm chart grants it.
// Mirrors: ray-operator/main.go (flags), apis/config/v1alpha1/defaults.go,
// internal/managercache/cache.go (K8sControllerRuntimeCacheSelectors) and
// config/rbac/role.yaml (v1.7.0).
// Simplified: --config files, log encoders, metrics and health addresses are kept as values only;
// the batch-scheduler flags are not modelled.
// Single-threaded; plain values.

#include <optional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/cache/cache.h"
#include "core/operators/kuberay/common/config.h"

namespace kuberay {

// kLeaderElectionID is hard-coded in main.go.
inline const std::string kLeaderElectionID = "ray-operator-leader";
inline const std::string kOperatorName = "kuberay-operator";

struct Options {
  std::string metrics_addr = ":8080";
  std::string probe_addr = ":8082";
  bool enable_leader_election = true;        // DefaultEnableLeaderElection
  std::string leader_election_namespace;     // "" = the operator Pod's namespace
  // leader_election_identity is the Lease holder identity: controller-runtime uses the hostname
  // plus "_" plus a per-process UUID. "" = the replica (Pod) name.
  std::string leader_election_identity;
  int reconcile_concurrency = 1;             // DefaultReconcileConcurrency
  std::string watch_namespace;               // "" = all; comma-separated list
  bool use_kubernetes_proxy = false;
  bool enable_metrics = false;
  int qps = 100;
  int burst = 200;
  bool use_priority_queue = true;            // controller-runtime v0.24's default
  // recover_panic is ctrl.Options.Controller.RecoverPanic, which main.go leaves unset (true).
  std::optional<bool> recover_panic;
};

// WatchNamespaces splits --watch-namespace on commas (empty entries dropped).
std::vector<std::string> WatchNamespaces(const std::string& flag);

// CacheOptions are the manager's cache options: DefaultNamespaces from --watch-namespace, and
// K8sControllerRuntimeCacheSelectors — Pods only with ray.io/node-type in (head, worker,
// redis-cleanup), Jobs only with app.kubernetes.io/created-by=kuberay-operator.
cache::Options CacheOptions(const Options& options);

// ClusterRoleRules are the operator's ClusterRole rules (config/rbac/role.yaml), plus core
// "events" (the sandbox's Event kind lives in the core group; upstream's chart grants it too).
std::vector<api::Json> ClusterRoleRules();

}  // namespace kuberay
